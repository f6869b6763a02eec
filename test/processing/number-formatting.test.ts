/**
 * Number formatting end to end: one recording uploaded twice, with `enableNumberFormatting` on (the
 * default) and off. What the detectors find and what the redacted audio covers must not depend on it;
 * only the transcript's words do.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Word } from "../../src/domain/transcript.ts";
import { buildSpeech, tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";

/** A Mastercard test number (Luhn-valid), read digit by digit. */
const CARD = "five five five five five five five five five five five five four four four four";
const PHONE = "please give me a call back at six five zero eight nine seven five one seven zero";

describe("number formatting on and off", () => {
  let hark: TestHark;
  let token: string;
  let dir: { dir: string; cleanup: () => Promise<void> };
  // The documents are read as a client's JSON.parse leaves them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const docs: Record<"on" | "off", any> = { on: undefined, off: undefined };
  const audio: Partial<Record<"on" | "off", Buffer>> = {};

  before(async () => {
    dir = await tempDir();
    const file = path.join(dir.dir, "call.wav");
    await buildSpeech(
      [{ text: `my card number is ${CARD}` }, { silenceMs: 1500 }, { text: PHONE }, { silenceMs: 300 }],
      file,
    );
    hark = await startTestHark({ HARK_CALLBACK_CONCURRENCY: "0" }, { workers: true });
    token = await hark.createAccount();
    for (const setting of ["on", "off"] as const) {
      const response = await hark.upload(token, {
        media: file,
        configuration: {
          ingest: { speakerName: "Caller" },
          ...(setting === "off" && { transcript: { formatting: { enableNumberFormatting: false } } }),
          prediction: {
            detectors: [
              {
                detectorName: "PCI",
                parameters: [{ parameter: "detectionLevel", value: "numbersOnly" }],
                redactor: { transcript: { replacement: "[redacted]" }, audio: { tone: 1000, gain: 0.5 } },
              },
              { detectorName: "Number", parameters: [{ parameter: "minimumDigits", value: "7" }] },
            ],
          },
        },
      });
      assert.equal(response.statusCode, 200, response.body);
      const { mediaId } = response.json();
      assert.equal(await hark.ended(mediaId), "finished");
      docs[setting] = (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json();
      const stream = await hark.api(token, "GET", `/v3/media/${mediaId}/streams/redacted-audio`);
      assert.equal(stream.statusCode, 200);
      audio[setting] = stream.rawPayload;
    }
  });

  after(async () => {
    await hark?.close();
    await dir?.cleanup();
  });

  const spoken = (setting: "on" | "off") =>
    (docs[setting].transcript.words as Word[]).filter((word) => word.m === undefined).map((word) => word.w);

  test("the detectors find the same spans, and the audio is redacted over the same time", () => {
    const [pci, number] = docs.on.prediction.detectors;
    assert.equal(pci.detections.length, 1, JSON.stringify(pci));
    assert.equal(number.detections.length, 1, JSON.stringify(number));
    assert.deepEqual(docs.on.prediction, docs.off.prediction);
    assert.ok(audio.on && audio.off && audio.on.length > 0);
    assert.ok(audio.on.equals(audio.off), "the redacted audio differs between the settings");
  });

  test("on, the phone number is one word of digits and the redacted card shows none", () => {
    const words = spoken("on");
    assert.ok(words.includes("650-897-5170"), words.join(" "));
    assert.ok(words.includes("[redacted]"));
    assert.ok(!words.some((word) => /5555|4444/u.test(word)), words.join(" "));
    const text = docs.on.transcript.alternateFormats.find(
      (format: { format: string }) => format.format === "text",
    );
    assert.match(Buffer.from(text.data, "base64").toString("utf8"), /call back at 650-897-5170\./u);
  });

  test("off, the numbers stay words", () => {
    const words = spoken("off");
    assert.match(words.join(" "), /six five zero eight nine seven five one seven zero/u);
    assert.ok(!words.some((word) => /\d/u.test(word)), words.join(" "));
    assert.ok(words.includes("[redacted]"));
  });
});

/**
 * The renderings a client receives are one and the same wherever it reads them: a transcript callback in
 * each format, the analytics callback's `alternateFormats`, `GET .../transcript/{format}` and
 * `GET .../transcript?includeAlternateFormat=`. A stereo call, so that speaker labels are in play.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { AlternateFormat, Word } from "../../src/domain/transcript.ts";
import { RENDERED_FORMATS } from "../../src/formats/index.ts";
import { buildStereo, tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

const decoded = (formats: readonly AlternateFormat[], format: string): string | undefined => {
  const entry = formats.find((candidate) => candidate.format === format);
  return entry && Buffer.from(entry.data, "base64").toString("utf8");
};

describe("renderings in callbacks and GET answers", () => {
  let hark: TestHark;
  let receiver: Receiver;
  let cleanup: () => Promise<void>;
  let token: string;
  let mediaId: string;

  before(async () => {
    const dir = await tempDir();
    cleanup = dir.cleanup;
    const file = path.join(dir.dir, "call.wav");
    await buildStereo(
      [{ text: "thank you for calling how can I help", voice: "rms" }, { silenceMs: 3500 }],
      [{ silenceMs: 3000 }, { text: "please cancel my order", voice: "slt" }],
      file,
    );
    receiver = await startReceiver();
    hark = await startTestHark(
      { HARK_CALLBACK_ALLOW_HTTP: "true", HARK_CALLBACK_ALLOW_PRIVATE: "true" },
      { workers: true },
    );
    token = await hark.createAccount();
    const callbacks = [
      { url: `${receiver.url}/analytics` },
      { url: `${receiver.url}/json`, type: "transcript", format: "json" },
      ...RENDERED_FORMATS.map((format) => ({ url: `${receiver.url}/${format}`, type: "transcript", format })),
    ];
    const response = await hark.upload(token, {
      media: file,
      configuration: {
        ingest: { stereo: { left: { speakerName: "Agent" }, right: { speakerName: "Caller" } } },
        publish: { callbacks },
      },
    });
    assert.equal(response.statusCode, 200, response.body);
    mediaId = response.json().mediaId;
    assert.equal(await hark.ended(mediaId), "finished");
  });
  after(async () => {
    await hark?.close();
    await receiver?.close();
    await cleanup?.();
  });

  const get = (url: string) => hark.api(token, "GET", url);

  test("each format is the same bytes in its callback, the analytics callback and every GET", async () => {
    const analytics = JSON.parse((await receiver.next("/analytics")).body.toString("utf8"));
    const media = (await get(`/v3/media/${mediaId}`)).json();
    const asked = RENDERED_FORMATS.map((format) => `includeAlternateFormat=${format}`).join("&");
    const withFormats = (await get(`/v3/media/${mediaId}/transcript?${asked}`)).json();
    for (const format of RENDERED_FORMATS) {
      const callback = (await receiver.next(`/${format}`)).body.toString("utf8");
      const answer = await get(`/v3/media/${mediaId}/transcript/${format}`);
      assert.equal(answer.statusCode, 200);
      assert.equal(answer.body, callback, `GET .../transcript/${format}`);
      assert.equal(decoded(analytics.transcript.alternateFormats, format), callback, `analytics ${format}`);
      assert.equal(decoded(media.transcript.alternateFormats, format), callback, `GET media ${format}`);
      assert.equal(
        decoded(withFormats.transcript.alternateFormats, format),
        callback,
        `includeAlternateFormat`,
      );
    }
    const text = (await get(`/v3/media/${mediaId}/transcript/text`)).body;
    assert.match(text, /^Agent: .*\n\nCaller: /s, "a stereo call's text labels each turn");
    const srt = (await get(`/v3/media/${mediaId}/transcript/srt`)).body;
    assert.match(srt, /\r\nAgent: [^\r]*\r\n[\s\S]*\r\nCaller: /);
  });

  test("the JSON transcript callback and GET .../transcript carry the same words, turn by turn", async () => {
    const callback = JSON.parse((await receiver.next("/json")).body.toString("utf8"));
    const answer = (await get(`/v3/media/${mediaId}/transcript`)).json();
    assert.deepEqual(callback.transcript.words, answer.transcript.words);
    const words = answer.transcript.words as Word[];
    assert.deepEqual(
      words.filter((word) => word.m === "turn").map((word) => word.w),
      ["Agent", "Caller"],
    );
    const callerTurn = words.findIndex((word) => word.m === "turn" && word.w === "Caller");
    const agentTurn = words[0] as Word;
    assert.equal(agentTurn.e, words[callerTurn - 1]?.e, "the agent's turn spans to its last entry");
    assert.equal(answer.formatVersion, "3.0.8");
  });
});

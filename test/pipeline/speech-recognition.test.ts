import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RecognizedWord } from "../../src/domain/transcript.ts";
import { assembleTranscript } from "../../src/pipeline/assemble.ts";
import { DecodeError } from "../../src/pipeline/decode.ts";
import { PocketsphinxRecognizer } from "../../src/pipeline/pocketsphinx.ts";
import { probeMedia } from "../../src/pipeline/probe.ts";
import type { RecognizeOptions, Recognizer } from "../../src/pipeline/recognizer.ts";
import { transcribeMedia, transcribeSpeaker } from "../../src/pipeline/transcribe.ts";
import { buildSpeech, buildStereo, tempDir, wordErrorRate } from "./speech.ts";

// End-to-end: speech synthesised by flite, recognised by the real pocketsphinx.
//
// Word error bounds: on this engine flite's rms voice measured 0-25% per sentence (mean 5% over five
// call-centre sentences) and 3-6% over the one-minute file below; awb and slt 0-31% per sentence. The
// bounds (35% for one sentence, 20% for the minute) leave room for a different CPU or package build
// changing a word or two, while still failing if channels were mixed (~80%) or pieces were lost.

const words = (list: readonly RecognizedWord[]) => list.map((w) => w.word);

function assertInOrderWithin(list: readonly RecognizedWord[], fromMs: number, toMs: number): void {
  for (const [i, word] of list.entries()) {
    assert.ok(
      word.start >= fromMs && word.end <= toMs,
      `"${word.word}" ${word.start}-${word.end} outside ${fromMs}-${toMs}`,
    );
    assert.ok(word.end >= word.start);
    if (i > 0)
      assert.ok(word.start >= (list[i - 1]?.end ?? 0), `"${word.word}" starts before the previous word ends`);
  }
}

// flite is installed by `npm test` (scripts/system-packages.sh); without it these tests fail, never skip.
describe("speech recognition with flite and pocketsphinx", () => {
  let dir = "";
  let cleanup = async () => {};
  before(async () => ({ dir, cleanup } = await tempDir()));
  after(() => cleanup());

  it("transcribes one sentence in one voice", async (t) => {
    const sentence = "I would like to cancel my subscription because the service is too slow";
    const file = join(dir, "one.wav");
    const { lengthMs } = await buildSpeech(
      [{ silenceMs: 300 }, { text: sentence, voice: "rms" }, { silenceMs: 300 }],
      file,
    );

    const result = await transcribeSpeaker(file, 0);

    const wer = wordErrorRate(sentence, words(result));
    t.diagnostic(`word error ${(wer * 100).toFixed(1)}%`);
    assert.ok(wer <= 0.35, `heard: ${words(result).join(" ")}`);
    for (const key of ["cancel", "subscription", "service", "slow"])
      assert.ok(words(result).includes(key), key);
    assertInOrderWithin(result, 0, lengthMs);
    for (const word of result) assert.ok(word.confidence >= 0 && word.confidence <= 1);
  });

  it("attributes each channel of a stereo call to its speaker, at its own times", async (t) => {
    const customer = "I have been a customer for ten years and I am very disappointed";
    const agent = "Let me check the status of your line in our system";
    const file = join(dir, "call.wav");
    const spans = await buildStereo(
      [{ silenceMs: 500 }, { text: customer, voice: "slt" }, { silenceMs: 6000 }],
      [{ silenceMs: 5500 }, { text: agent, voice: "awb" }, { silenceMs: 500 }],
      file,
    );
    const customerSpan = spans.left[1] ?? { startMs: 0, endMs: 0 };
    const agentSpan = spans.right[1] ?? { startMs: 0, endMs: 0 };
    assert.ok(agentSpan.startMs >= customerSpan.endMs, "the agent answers after the customer");
    assert.equal((await probeMedia(file)).channels, 2);

    const [left, right] = await transcribeMedia(file, [
      { speakerName: "Customer", channel: 0 },
      { speakerName: "Agent", channel: 1 },
    ]);
    assert.ok(left && right);
    assert.equal(left.speakerName, "Customer");
    assert.equal(right.channel, 1);
    const customerWer = wordErrorRate(customer, words(left.words));
    const agentWer = wordErrorRate(agent, words(right.words));
    t.diagnostic(
      `word error: customer ${(customerWer * 100).toFixed(1)}%, agent ${(agentWer * 100).toFixed(1)}%`,
    );
    assert.ok(customerWer <= 0.35, `customer: ${words(left.words).join(" ")}`);
    assert.ok(agentWer <= 0.35, `agent: ${words(right.words).join(" ")}`);
    for (const key of ["customer", "disappointed"]) {
      assert.ok(words(left.words).includes(key) && !words(right.words).includes(key), key);
    }
    for (const key of ["status", "system"]) {
      assert.ok(words(right.words).includes(key) && !words(left.words).includes(key), key);
    }
    // pocketsphinx's word boundaries sit within a frame or two of the audio; allow 100 ms.
    assertInOrderWithin(left.words, customerSpan.startMs - 100, customerSpan.endMs + 100);
    assertInOrderWithin(right.words, agentSpan.startMs - 100, agentSpan.endMs + 100);

    const transcript = assembleTranscript([left, right]);
    const turns = transcript.words.filter((w) => w.m === "turn").map((w) => w.w);
    assert.deepEqual(turns, ["Customer", "Agent"]);
    assert.ok(transcript.confidence > 0.5, `confidence ${transcript.confidence}`);
  });

  it("splits a one-minute recording at silences and joins the pieces in order", async (t) => {
    const sentences = [
      "Thank you for calling customer support, my name is Sarah.",
      "I would like to cancel my subscription because the service is too slow.",
      "I am sorry to hear that, can I have your account number please.",
      "My internet connection has been dropping every evening for a week.",
      "Let me check the status of your line in our system.",
      "I have been a customer for ten years and I am very disappointed.",
      "I can offer you a discount for the next three months.",
      "Can you send me a refund for the last two months instead.",
      "I will transfer you to the billing department right away.",
      "Please hold the line while I connect you.",
      "Thank you for your patience and have a nice day.",
      "The technician will visit your house on Monday morning.",
    ];
    const file = join(dir, "minute.wav");
    const parts = sentences.flatMap((text, i) => [
      { text, voice: "rms" as const },
      { silenceMs: 800 + (i % 3) * 400 },
    ]);
    const { lengthMs, spans } = await buildSpeech([{ silenceMs: 500 }, ...parts], file);
    assert.ok(lengthMs > 55_000, `length ${lengthMs}`);

    const pieces: number[] = [];
    const engine = new PocketsphinxRecognizer();
    const recording: Recognizer = {
      recognize: (wav: string, offsetMs?: number, options?: RecognizeOptions) => {
        pieces.push(offsetMs ?? 0);
        return engine.recognize(wav, offsetMs, options);
      },
    };
    const result = await transcribeSpeaker(file, 0, { recognizer: recording, segmentTargetMs: 15_000 });

    const wer = wordErrorRate(sentences.join(" "), words(result));
    t.diagnostic(`${pieces.length} pieces, word error ${(wer * 100).toFixed(1)}%`);
    assert.ok(pieces.length >= 3, `${pieces.length} pieces`);
    assert.ok(wer <= 0.2, `heard: ${words(result).join(" ")}`);
    assertInOrderWithin(result, 0, lengthMs);
    const lastPiece = Math.max(...pieces);
    assert.ok(
      result.some((w) => w.start > lastPiece),
      "words come from the last piece",
    );
    const lastSentence = spans.at(-2) ?? { startMs: 0, endMs: 0 };
    const heardLast = result.filter((w) => w.start >= lastSentence.startMs - 100).map((w) => w.word);
    assert.ok(
      heardLast.includes("technician") || heardLast.includes("monday"),
      `last sentence: ${heardLast.join(" ")}`,
    );
  });

  it("rejects input ffmpeg cannot decode", async () => {
    const file = join(dir, "notes.txt");
    await writeFile(file, "not audio at all\n");
    await assert.rejects(transcribeSpeaker(file, 0), DecodeError);
  });
});

import assert from "node:assert/strict";
import { readdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import type { RecognizedWord } from "../../src/domain/transcript.ts";
import type { RecognizeOptions, Recognizer } from "../../src/pipeline/recognizer.ts";
import { MediaTooLongError } from "../../src/pipeline/probe.ts";
import { run } from "../../src/pipeline/run.ts";
import { transcribeMedia, transcribeSpeaker } from "../../src/pipeline/transcribe.ts";
import { readWavLayout, wavHeader, wavLengthMs } from "../../src/pipeline/wav.ts";
import { tempDir } from "./speech.ts";

// These tests run the real decoding and cutting with a fake recogniser, so that the plumbing (offsets,
// ordering, concurrency, progress, clean-up) is checked exactly and fast, without speech.

const RATE = 16000;
/** Bursts of tone separated by silences: the silences are where cuts may go. */
const BURST_MS = 7000;
const GAP_MS = 1000;
const BURSTS = 6;

function toneWithGaps(): Buffer {
  const samples: number[] = [];
  for (let b = 0; b < BURSTS; b++) {
    for (let i = 0; i < (BURST_MS * RATE) / 1000; i++) samples.push(Math.round(8000 * Math.sin(i / 5)));
    for (let i = 0; i < (GAP_MS * RATE) / 1000; i++) samples.push(0);
  }
  const data = Buffer.alloc(samples.length * 2);
  samples.forEach((sample, i) => data.writeInt16LE(sample, i * 2));
  return Buffer.concat([wavHeader(data.length, RATE), data]);
}

const inGap = (ms: number) => ms % (BURST_MS + GAP_MS) >= BURST_MS;

/** Says one "word" per piece spanning the piece, and records what it was asked. */
class FakeRecognizer implements Recognizer {
  calls: { offsetMs: number; lengthMs: number }[] = [];
  running = 0;
  peak = 0;
  failOnCall: number | undefined;

  async recognize(wavPath: string, offsetMs = 0, options: RecognizeOptions = {}): Promise<RecognizedWord[]> {
    const lengthMs = wavLengthMs(await readWavLayout(wavPath));
    const call = this.calls.push({ offsetMs, lengthMs });
    this.running++;
    this.peak = Math.max(this.peak, this.running);
    try {
      // Long enough that calls overlap even on a loaded machine, so the peak shows the limit.
      await sleep(50, undefined, { signal: options.signal });
      options.onHeard?.(offsetMs + lengthMs / 2);
      await sleep(50, undefined, { signal: options.signal });
      if (call === this.failOnCall) throw new Error(`engine failed on call ${call}`);
      return [{ word: `piece${call}`, start: offsetMs, end: offsetMs + lengthMs, confidence: 1 }];
    } finally {
      this.running--;
    }
  }
}

describe("transcribeSpeaker", () => {
  let dir = "";
  let cleanup = async () => {};
  let mono = "";
  let stereo = "";
  let work = "";
  before(async () => {
    ({ dir, cleanup } = await tempDir());
    mono = join(dir, "tones.wav");
    await writeFile(mono, toneWithGaps());
    stereo = join(dir, "stereo.wav");
    await run("ffmpeg", ["-nostdin", "-v", "error", "-i", mono, "-ac", "2", stereo]);
    work = join(dir, "work");
    await run("mkdir", [work]);
  });
  after(() => cleanup());

  const lengthMs = BURSTS * (BURST_MS + GAP_MS);

  it("stops decoding a second past maxLengthMs, whatever the container claims, and refuses the audio", async () => {
    const recognizer = new FakeRecognizer();
    // 48 s of stereo: decoded for the recogniser, which is where a lying header would cost temp space.
    await assert.rejects(
      transcribeSpeaker(stereo, 0, { recognizer, tempDir: work, maxLengthMs: 10_000 }),
      (error: unknown) => error instanceof MediaTooLongError && error.lengthMs === 11_000,
    );
    // Audio already as the recogniser reads it is cut all the same.
    await assert.rejects(
      transcribeSpeaker(mono, "mix", { recognizer, tempDir: work, maxLengthMs: 10_000 }),
      (error: unknown) => error instanceof MediaTooLongError && error.lengthMs === 11_000,
    );
    assert.equal(recognizer.calls.length, 0);
    assert.deepEqual(await readdir(work), []);
  });

  it("cuts in silences, recognises pieces in parallel and joins their words in order", async () => {
    const recognizer = new FakeRecognizer();
    const progress: number[] = [];
    const words = await transcribeSpeaker(mono, 0, {
      recognizer,
      concurrency: 2,
      segmentTargetMs: 10_000,
      segmentMaxMs: 20_000,
      tempDir: work,
      onProgress: (fraction) => progress.push(fraction),
    });

    assert.ok(words.length >= 4, `${words.length} pieces`);
    assert.equal(words[0]?.start, 0);
    assert.equal(words.at(-1)?.end, lengthMs);
    for (const [i, word] of words.entries()) {
      assert.ok(word.end - word.start <= 20_000, "no piece longer than maxMs");
      if (i === 0) continue;
      assert.equal(word.start, words[i - 1]?.end, "pieces follow each other without gap or overlap");
      assert.ok(inGap(word.start), `cut at ${word.start} ms falls in a silence`);
    }
    assert.equal(recognizer.peak, 2);
    assert.deepEqual(
      progress,
      [...progress].sort((a, b) => a - b),
    );
    assert.equal(progress.at(-1), 1);
    assert.deepEqual(await readdir(work), [], "temporary files are gone");
  });

  it("recognises short audio in one piece without cutting", async () => {
    const recognizer = new FakeRecognizer();
    const words = await transcribeSpeaker(mono, 0, { recognizer, segmentTargetMs: Number.POSITIVE_INFINITY });
    assert.deepEqual(recognizer.calls, [{ offsetMs: 0, lengthMs }]);
    assert.equal(words.length, 1);
  });

  it("splits to fill the cores, counting a stereo call's channels as already filling two", async () => {
    const options = { concurrency: 2 };
    const mono = new FakeRecognizer();
    await transcribeSpeaker(stereo, 0, { ...options, recognizer: mono });
    assert.equal(mono.calls.length, 2, "one speaker: two pieces for two cores");
    const long = new FakeRecognizer();
    await transcribeSpeaker(stereo, 0, { ...options, segmentMaxMs: 20_000, recognizer: long });
    assert.ok(long.calls.length >= 3, "one speaker: no piece longer than the most");

    // Each cut costs the decoder what it had learnt, and the channels fill the cores anyway.
    const both = new FakeRecognizer();
    const progress: number[] = [];
    await transcribeMedia(
      stereo,
      [
        { speakerName: "A", channel: 0 },
        { speakerName: "B", channel: 1 },
      ],
      { ...options, segmentMaxMs: 20_000, recognizer: both, onProgress: (f) => progress.push(f) },
    );
    assert.deepEqual(both.calls, [
      { offsetMs: 0, lengthMs },
      { offsetMs: 0, lengthMs },
    ]);
    assert.ok(
      progress.some((f) => f > 0 && f < 1),
      `a whole channel's progress moves while it is recognised: ${progress.join(", ")}`,
    );
  });

  it("stops, cleans up and rejects with the engine's error when a piece fails", async () => {
    const recognizer = new FakeRecognizer();
    recognizer.failOnCall = 2;
    await assert.rejects(
      transcribeSpeaker(mono, 0, { recognizer, concurrency: 1, segmentTargetMs: 5000, tempDir: work }),
      /engine failed on call 2/,
    );
    assert.equal(recognizer.calls.length, 2, "no piece starts after the failure");
    assert.deepEqual(await readdir(work), []);
  });

  it("stops and cleans up when aborted", async () => {
    const recognizer = new FakeRecognizer();
    const controller = new AbortController();
    const pending = transcribeSpeaker(mono, 0, {
      recognizer,
      concurrency: 1,
      segmentTargetMs: 5000,
      tempDir: work,
      signal: controller.signal,
      onProgress: () => controller.abort(new Error("job cancelled")),
    });
    await assert.rejects(pending, /job cancelled/);
    assert.ok(recognizer.calls.length < 5, `${recognizer.calls.length} pieces started`);
    assert.deepEqual(await readdir(work), []);
  });

  it("transcribes several speakers with one limit on concurrency across them", async () => {
    const recognizer = new FakeRecognizer();
    const progress: number[] = [];
    const speakers = await transcribeMedia(
      stereo,
      [
        { speakerName: "Agent", channel: 1 },
        { speakerName: "Customer", channel: 0 },
      ],
      {
        recognizer,
        concurrency: 3,
        segmentTargetMs: 10_000,
        tempDir: work,
        onProgress: (f) => progress.push(f),
      },
    );
    assert.deepEqual(
      speakers.map(({ speakerName, channel }) => [speakerName, channel]),
      [
        ["Agent", 1],
        ["Customer", 0],
      ],
    );
    for (const speaker of speakers) assert.equal(speaker.words.at(-1)?.end, lengthMs);
    assert.equal(recognizer.peak, 3, "both channels share the three slots");
    assert.equal(progress.at(-1), 1);
    assert.ok(progress.some((f) => f > 0 && f < 1));
    assert.deepEqual(await readdir(work), []);
  });
});

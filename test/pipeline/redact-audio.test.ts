import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { RedactAudioError, redactAudio, redactionFilter } from "../../src/pipeline/redact-audio.ts";
import { run } from "../../src/pipeline/run.ts";
import { tempDir } from "./speech.ts";

const RATE = 16000;

describe("redactionFilter", () => {
  it("beeps over every range on every channel and passes the rest through", () => {
    assert.equal(
      redactionFilter(
        [
          { s: 1000, e: 2000 },
          { s: 2500, e: 2750 },
        ],
        { tone: 170, gain: 0.25 },
      ),
      "aeval=exprs='if(between(t,1.000,2.000)+between(t,2.500,2.750),0.25*sin(2*PI*170*t),val(ch))':c=same",
    );
  });

  it("converts back to the input's sample format, and skips empty ranges", () => {
    assert.equal(
      redactionFilter(
        [
          { s: 300, e: 300 },
          { s: 1, e: 20 },
        ],
        { tone: 1000, gain: 1 },
        "s16",
      ),
      "aeval=exprs='if(between(t,0.001,0.020),1*sin(2*PI*1000*t),val(ch))':c=same,aformat=sample_fmts=s16",
    );
  });

  it("rejects a gain outside 0..1, a tone that is not a frequency, and nothing to redact", () => {
    const range = [{ s: 0, e: 100 }];
    assert.throws(() => redactionFilter(range, { tone: 170, gain: 1.5 }), RangeError);
    assert.throws(() => redactionFilter(range, { tone: 170, gain: -0.1 }), RangeError);
    assert.throws(() => redactionFilter(range, { tone: 0, gain: 0.5 }), RangeError);
    assert.throws(() => redactionFilter(range, { tone: Number.NaN, gain: 0.5 }), RangeError);
    assert.throws(() => redactionFilter([], { tone: 170, gain: 0.5 }), RangeError);
  });
});

/** Interleaved 16-bit samples of `file`, decoded by ffmpeg. */
async function samples(file: string, dir: string): Promise<Int16Array> {
  const raw = join(dir, "samples.raw");
  await run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-i", file, "-f", "s16le", "-c:a", "pcm_s16le", raw]);
  const bytes = await readFile(raw);
  return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2);
}

/** Sign changes per second and peak level (0..1) of one channel between two times, in seconds. */
function measure(pcm: Int16Array, channel: number, from: number, to: number) {
  let crossings = 0;
  let peak = 0;
  let previous = 0;
  for (let i = Math.round(from * RATE); i < Math.round(to * RATE); i++) {
    const value = pcm[i * 2 + channel] ?? 0;
    if (i > Math.round(from * RATE) && value >= 0 !== previous >= 0) crossings++;
    peak = Math.max(peak, Math.abs(value) / 32768);
    previous = value;
  }
  return { hz: crossings / 2 / (to - from), peak };
}

async function probe(file: string) {
  const { stdout } = await run("ffprobe", [
    "-v",
    "error",
    "-select_streams",
    "a:0",
    "-show_entries",
    "stream=codec_name,sample_fmt,sample_rate,channels:format=format_name,duration",
    "-of",
    "json",
    file,
  ]);
  const { streams, format } = JSON.parse(stdout) as {
    streams: unknown[];
    format: { format_name: string; duration: string };
  };
  return { stream: streams[0], format: format.format_name, duration: Number(format.duration) };
}

describe("redactAudio", () => {
  let dir = "";
  let cleanup = async () => {};
  let stereo = "";
  before(async () => {
    ({ dir, cleanup } = await tempDir("hark-redact-audio-"));
    // Left 440 Hz, right 660 Hz, so that each channel can be told apart and checked on its own.
    stereo = join(dir, "call.wav");
    await run("ffmpeg", [
      "-nostdin",
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=440:sample_rate=${RATE}:duration=4`,
      "-f",
      "lavfi",
      "-i",
      `sine=frequency=660:sample_rate=${RATE}:duration=4`,
      "-filter_complex",
      "[0:a][1:a]join=inputs=2:channel_layout=stereo",
      "-c:a",
      "pcm_s16le",
      stereo,
    ]);
  });
  after(() => cleanup());

  it("puts the tone over the range on both channels and leaves the rest as it was", async () => {
    const output = join(dir, "redacted.wav");
    await redactAudio(stereo, output, [{ s: 1000, e: 2000 }], { tone: 1000, gain: 0.5 });

    const before = await samples(stereo, dir);
    const after = await samples(output, dir);
    assert.equal(after.length, before.length);
    for (const channel of [0, 1]) {
      const original = measure(before, channel, 1.05, 1.95);
      const beep = measure(after, channel, 1.05, 1.95);
      assert.ok(Math.abs(beep.hz - 1000) < 10, `channel ${channel} beeps at ${beep.hz} Hz`);
      assert.ok(Math.abs(beep.peak - 0.5) < 0.01, `channel ${channel} beep peak ${beep.peak}`);
      assert.ok(
        Math.abs(original.hz - (channel === 0 ? 440 : 660)) < 10,
        `channel ${channel} was ${original.hz} Hz`,
      );
    }
    // Outside the range every sample is the original's.
    const untouched = (i: number) => i < 0.999 * RATE || i > 2.001 * RATE;
    for (let i = 0; i < before.length / 2; i++) {
      if (!untouched(i)) continue;
      if (before[i * 2] !== after[i * 2] || before[i * 2 + 1] !== after[i * 2 + 1]) {
        assert.fail(`sample ${i} changed outside the range`);
      }
    }
    assert.deepEqual(await probe(output), await probe(stereo));
  });

  it("keeps a compressed format compressed, in the input's container when the output has no extension", async () => {
    const mp3 = join(dir, "call.mp3");
    await run("ffmpeg", ["-nostdin", "-v", "error", "-i", stereo, "-c:a", "libmp3lame", "-b:a", "64k", mp3]);
    const output = join(dir, "redacted-mp3");
    await redactAudio(mp3, output, [{ s: 500, e: 1500 }], { tone: 170, gain: 0.25 });
    const [original, redacted] = [await probe(mp3), await probe(output)];
    assert.deepEqual(redacted.stream, original.stream);
    assert.equal(redacted.format, "mp3");
    assert.ok(Math.abs(redacted.duration - original.duration) < 0.1);
    const beep = measure(await samples(output, dir), 1, 0.7, 1.3);
    assert.ok(Math.abs(beep.hz - 170) < 10, `beeps at ${beep.hz} Hz`);
  });

  it("copies the input as it is when there is nothing to redact", async () => {
    const output = join(dir, "copy.wav");
    await redactAudio(stereo, output, [], { tone: 1000, gain: 0.5 });
    assert.deepEqual(await readFile(output), await readFile(stereo));
  });

  it("refuses a tone the sample rate cannot carry", async () => {
    await assert.rejects(
      redactAudio(stereo, join(dir, "high.wav"), [{ s: 0, e: 500 }], { tone: 9000, gain: 0.5 }),
      (error: unknown) => error instanceof RedactAudioError && /below 8000 Hz/u.test(error.message),
    );
  });

  it("rejects with ffmpeg's reason when the input is not media", async () => {
    const text = join(dir, "notes.txt");
    await writeFile(text, "hello\n");
    await assert.rejects(
      redactAudio(text, join(dir, "out.wav"), [{ s: 0, e: 500 }], { tone: 170, gain: 0.5 }),
      RedactAudioError,
    );
  });
});

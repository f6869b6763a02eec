import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, test } from "node:test";
import { measureVoice } from "../../src/pipeline/measure-voice.ts";
import { voiceFeatures } from "../../src/pipeline/voice-features.ts";
import { readWavLayout, wavHeader } from "../../src/pipeline/wav.ts";
import { tempDir } from "./speech.ts";

const RATE = 16000;

/** `ms` of a sum of sines, each `[Hz, amplitude as a fraction of full scale]`. */
function tone(ms: number, ...partials: [number, number][]): Float32Array {
  const samples = new Float32Array(Math.round((ms * RATE) / 1000));
  for (let i = 0; i < samples.length; i += 1)
    for (const [hz, amplitude] of partials)
      samples[i] = (samples[i] ?? 0) + amplitude * Math.sin((2 * Math.PI * hz * i) / RATE);
  return samples;
}

describe("voice features of a word's samples", () => {
  test("a 440 Hz sine has its dominant peak at 440 Hz, within 2 Hz", () => {
    const { frq } = voiceFeatures(tone(300, [440, 0.3]), RATE);
    assert.ok(Math.abs((frq[0]?.f ?? 0) - 440) < 2, JSON.stringify(frq));
    assert.equal(frq[0]?.e, 1);
  });

  test("frequencies between bins are found too: 123.4 Hz and 1000 Hz", () => {
    for (const hz of [123.4, 1000]) {
      const { frq } = voiceFeatures(tone(300, [hz, 0.3]), RATE);
      assert.ok(Math.abs((frq[0]?.f ?? 0) - hz) < 2, `${hz}: ${JSON.stringify(frq)}`);
    }
  });

  test("two partials give two peaks, strongest first, the second's energy relative to the first", () => {
    const { frq } = voiceFeatures(tone(300, [220, 0.4], [660, 0.2]), RATE);
    assert.equal(frq.length, 2);
    assert.ok(Math.abs((frq[0]?.f ?? 0) - 220) < 2, JSON.stringify(frq));
    assert.ok(Math.abs((frq[1]?.f ?? 0) - 660) < 2, JSON.stringify(frq));
    assert.ok(Math.abs((frq[1]?.e ?? 0) - 0.5) < 0.03, JSON.stringify(frq));
  });

  test("a louder word has a larger v; twice the amplitude, four times the v", () => {
    const quiet = voiceFeatures(tone(300, [300, 0.1]), RATE).v;
    const loud = voiceFeatures(tone(300, [300, 0.2]), RATE).v;
    assert.ok(quiet > 0);
    assert.ok(Math.abs(loud / quiet - 4) < 0.05, `${quiet} then ${loud}`);
  });

  test("a word shorter than a frame is still measured", () => {
    const { frq, v } = voiceFeatures(tone(40, [500, 0.3]), RATE);
    assert.ok(Math.abs((frq[0]?.f ?? 0) - 500) < 10, JSON.stringify(frq));
    assert.ok(v > 0);
  });

  test("silence and an empty word have no peaks and no volume", () => {
    assert.deepEqual(voiceFeatures(new Float32Array(4800), RATE), { frq: [], v: 0 });
    assert.deepEqual(voiceFeatures(new Float32Array(0), RATE), { frq: [], v: 0 });
  });

  test("hum below 60 Hz is not a peak", () => {
    const { frq } = voiceFeatures(tone(300, [50, 0.5], [300, 0.1]), RATE);
    assert.ok(Math.abs((frq[0]?.f ?? 0) - 300) < 2, JSON.stringify(frq));
  });
});

describe("measuring the words of a decoded channel", () => {
  test("each word is measured on its own samples", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      // 0–500 ms a quiet 200 Hz tone, 500–1000 ms silence, 1000–1500 ms a loud 800 Hz tone.
      const parts = [tone(500, [200, 0.1]), new Float32Array(8000), tone(500, [800, 0.4])];
      const pcm = Buffer.alloc(parts.reduce((sum, part) => sum + part.length, 0) * 2);
      let offset = 0;
      for (const part of parts)
        for (const sample of part) offset = pcm.writeInt16LE(Math.round(sample * 32767), offset);
      const file = path.join(dir, "channel.wav");
      await writeFile(file, Buffer.concat([wavHeader(pcm.length, RATE), pcm]));

      const words = await measureVoice(file, await readWavLayout(file), [
        { word: "low", start: 0, end: 500, confidence: 1 },
        { word: "high", start: 1000, end: 1500, confidence: 1 },
      ]);
      const [low, high] = words.map((word) => word.voice);
      assert.ok(Math.abs((low?.frq[0]?.f ?? 0) - 200) < 2, JSON.stringify(low));
      assert.ok(Math.abs((high?.frq[0]?.f ?? 0) - 800) < 2, JSON.stringify(high));
      assert.ok((high?.v ?? 0) > 10 * (low?.v ?? Infinity), `${low?.v} then ${high?.v}`);
      assert.equal(words[1]?.word, "high", "the words are otherwise as recognised");
    } finally {
      await cleanup();
    }
  });
});

import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  addNoiseFloor,
  addNoiseFloorToWav,
  NOISE_FLOOR_PEAK,
  noiseState,
} from "../../src/pipeline/noise-floor.ts";
import { readWavLayout, wavHeader } from "../../src/pipeline/wav.ts";

const samplesOf = (buffer: Buffer, from = 0) =>
  Array.from({ length: (buffer.length - from) / 2 }, (_, i) => buffer.readInt16LE(from + i * 2));

describe("addNoiseFloor", () => {
  it("turns digital silence into a faint noise at about -65 dBFS, the same every time", () => {
    const first = Buffer.alloc(32_000);
    addNoiseFloor(first, first.length, noiseState());
    const samples = samplesOf(first);
    assert.ok(samples.every((s) => Math.abs(s) <= NOISE_FLOOR_PEAK));
    const rms = Math.sqrt(samples.reduce((sum, s) => sum + s * s, 0) / samples.length);
    const db = 20 * Math.log10(rms / 32768);
    assert.ok(Math.abs(db - -65) < 1, `floor at ${db.toFixed(1)} dBFS`);
    const second = Buffer.alloc(32_000);
    addNoiseFloor(second, second.length, noiseState());
    assert.deepEqual(second, first, "the same media gives the same words");
  });

  it("never wraps a loud sample round", () => {
    const loud = Buffer.alloc(2000);
    for (let i = 0; i < 1000; i++) loud.writeInt16LE(i % 2 === 0 ? 32767 : -32768, i * 2);
    addNoiseFloor(loud, loud.length, noiseState());
    samplesOf(loud).forEach((s, i) => assert.ok(i % 2 === 0 ? s > 32000 : s < -32000, `sample ${i}: ${s}`));
  });
});

describe("addNoiseFloorToWav", () => {
  it("adds the floor to the samples in place and leaves the header alone", async () => {
    const dir = await mkdtemp(join(tmpdir(), "hark-floor-"));
    try {
      const file = join(dir, "silence.wav");
      // Longer than one read, and an odd length of data, so that chunking shows.
      const data = Buffer.alloc(200_001);
      await writeFile(file, Buffer.concat([wavHeader(data.length, 16000), data]));
      await addNoiseFloorToWav(file, await readWavLayout(file));
      const after = await readFile(file);
      assert.deepEqual(after.subarray(0, 44), wavHeader(data.length, 16000));
      const expected = Buffer.alloc(200_000);
      addNoiseFloor(expected, expected.length, noiseState());
      assert.deepEqual(after.subarray(44, 44 + 200_000), expected);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

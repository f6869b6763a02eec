import assert from "node:assert/strict";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";
import {
  byteRange,
  parseWavHeader,
  readWavLayout,
  wavHeader,
  wavLengthMs,
  writeWavSlice,
} from "../../src/pipeline/wav.ts";
import { tempDir } from "./speech.ts";

/** A mono 16 kHz WAV whose n-th sample is n, so that a slice shows exactly where it was cut. */
function rampWav(samples: number, extraChunk?: Buffer): Buffer {
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(i % 32768, i * 2);
  const header = wavHeader(data.length, 16000);
  if (!extraChunk) return Buffer.concat([header, data]);
  // Put a chunk between "fmt " and "data", as encoders that write metadata do.
  return Buffer.concat([header.subarray(0, 36), extraChunk, header.subarray(36), data]);
}

describe("wav header", () => {
  it("round-trips the canonical header", () => {
    const bytes = rampWav(16000);
    assert.deepEqual(parseWavHeader(bytes, bytes.length), {
      sampleRate: 16000,
      channels: 1,
      bitsPerSample: 16,
      dataOffset: 44,
      dataBytes: 32000,
    });
    assert.equal(wavLengthMs(parseWavHeader(bytes, bytes.length)), 1000);
  });

  it("skips other chunks, padded to an even size", () => {
    const list = Buffer.concat([
      Buffer.from("LIST"),
      Buffer.from([5, 0, 0, 0]),
      Buffer.from("INFOx"),
      Buffer.alloc(1),
    ]);
    const bytes = rampWav(100, list);
    const layout = parseWavHeader(bytes, bytes.length);
    assert.equal(layout.dataOffset, 44 + list.length);
    assert.equal(layout.dataBytes, 200);
  });

  it("takes the data length from the file size when a streaming encoder left it unset", () => {
    const bytes = rampWav(100);
    bytes.writeUInt32LE(0xffffffff, 40);
    assert.equal(parseWavHeader(bytes, bytes.length).dataBytes, 200);
    bytes.writeUInt32LE(0, 40);
    assert.equal(parseWavHeader(bytes, bytes.length).dataBytes, 200);
  });

  it("rejects what is not a PCM WAV", () => {
    assert.throws(() => parseWavHeader(Buffer.from("hello world, not a wav"), 22), /RIFF/);
    const float = rampWav(10);
    float.writeUInt16LE(3, 20);
    assert.throws(() => parseWavHeader(float, float.length), /not PCM/);
  });
});

describe("byteRange", () => {
  const layout = { sampleRate: 16000, channels: 1, bitsPerSample: 16, dataOffset: 44, dataBytes: 32000 };

  it("converts ms to whole-sample byte offsets", () => {
    assert.deepEqual(byteRange(layout, 250, 500), { start: 8000, end: 16000 });
  });

  it("clamps to the data", () => {
    assert.deepEqual(byteRange(layout, -10, 5000), { start: 0, end: 32000 });
    assert.deepEqual(byteRange(layout, 900, 100), { start: 28800, end: 28800 });
  });

  it("aligns to whole frames of multi-channel audio", () => {
    const stereo = { ...layout, channels: 2, dataBytes: 64000 };
    assert.deepEqual(byteRange(stereo, 0.03, 1000), { start: 0, end: 64000 });
  });
});

describe("writeWavSlice", () => {
  it("writes exactly the samples between two times as a WAV of their own", async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const source = join(dir, "ramp.wav");
      await writeFile(source, rampWav(16000));
      const layout = await readWavLayout(source);
      const piece = join(dir, "piece.wav");
      await writeWavSlice(source, layout, 100, 350, piece);
      const bytes = await readFile(piece);
      const pieceLayout = parseWavHeader(bytes, bytes.length);
      assert.equal(wavLengthMs(pieceLayout), 250);
      assert.equal(bytes.readInt16LE(44), 1600, "first sample is sample 1600 (100 ms)");
      assert.equal(bytes.readInt16LE(bytes.length - 2), 5599, "last sample is the one before 350 ms");
    } finally {
      await cleanup();
    }
  });
});

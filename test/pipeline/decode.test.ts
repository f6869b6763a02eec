import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { channelFilterArgs, DecodeError, decodeChannel } from "../../src/pipeline/decode.ts";
import { serverFaultOf, toolFault } from "../../src/domain/server-faults.ts";
import { CommandFailedError, run } from "../../src/pipeline/run.ts";
import { parseWavHeader } from "../../src/pipeline/wav.ts";
import { tempDir } from "./speech.ts";

/** Root-mean-square level of 16-bit mono samples, 0..32768. */
async function rms(wav: string): Promise<number> {
  const bytes = await readFile(wav);
  const layout = parseWavHeader(bytes, bytes.length);
  let sum = 0;
  const count = layout.dataBytes / 2;
  for (let i = 0; i < count; i++) sum += bytes.readInt16LE(layout.dataOffset + i * 2) ** 2;
  return Math.sqrt(sum / count);
}

describe("channelFilterArgs", () => {
  it("pans one channel or down-mixes", () => {
    assert.deepEqual(channelFilterArgs(1), ["-af", "pan=mono|c0=c1"]);
    assert.deepEqual(channelFilterArgs("mix"), ["-ac", "1"]);
    assert.throws(() => channelFilterArgs(-1), RangeError);
    assert.throws(() => channelFilterArgs(0.5), RangeError);
  });
});

describe("decodeChannel", () => {
  let dir = "";
  let cleanup = async () => {};
  let stereo = "";
  before(async () => {
    ({ dir, cleanup } = await tempDir());
    // Left: a 440 Hz tone at 44.1 kHz, compressed; right: silence.
    stereo = join(dir, "call.ogg");
    await run("ffmpeg", [
      "-nostdin",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:sample_rate=44100:duration=2",
      "-f",
      "lavfi",
      "-i",
      "anullsrc=r=44100:cl=mono",
      "-filter_complex",
      "[0:a][1:a]amerge=inputs=2[a]",
      "-map",
      "[a]",
      "-t",
      "2",
      "-c:a",
      "libvorbis",
      stereo,
    ]);
  });
  after(() => cleanup());

  it("writes each channel as 16 kHz mono 16-bit PCM", async () => {
    const left = join(dir, "left.wav");
    const right = join(dir, "right.wav");
    await decodeChannel(stereo, left, 0);
    await decodeChannel(stereo, right, 1);
    const bytes = await readFile(left);
    const layout = parseWavHeader(bytes, bytes.length);
    assert.deepEqual(
      {
        rate: layout.sampleRate,
        channels: layout.channels,
        bits: layout.bitsPerSample,
        offset: layout.dataOffset,
      },
      { rate: 16000, channels: 1, bits: 16, offset: 44 },
    );
    assert.ok(
      Math.abs(layout.dataBytes - 64000) <= 2 * 1024,
      `about 2 s of samples, got ${layout.dataBytes} bytes`,
    );
    assert.ok((await rms(left)) > 1000, "the tone is on the left");
    assert.ok((await rms(right)) < 50, "the right is silent");
  });

  it("down-mixes for a single speaker", async () => {
    const mix = join(dir, "mix.wav");
    await decodeChannel(stereo, mix, "mix");
    const level = await rms(mix);
    assert.ok(level > 300 && level < (await rms(join(dir, "left.wav"))), `mix level ${level}`);
  });

  it("says what ffmpeg said when it cannot decode", async () => {
    const missing = join(dir, "missing.ogg");
    await assert.rejects(decodeChannel(missing, join(dir, "x.wav"), "mix"), (error: unknown) => {
      assert.ok(error instanceof DecodeError);
      assert.match(error.message, /cannot decode the down-mixed audio \(.*No such file/);
      return true;
    });
    await assert.rejects(
      decodeChannel(missing, join(dir, "x.wav"), 0),
      /cannot decode channel 0 \(.*No such file/,
    );
  });

  it("does not blame the media when the disk is full, even when ffmpeg exits 0", async () => {
    // Linux's /dev/full answers every write with ENOSPC. A 2 s clip fits ffmpeg's write buffer, so the
    // failure comes only as it writes its trailer, after which ffmpeg 5 exits 0 with a cut file.
    const long = join(dir, "long.ogg");
    await run("ffmpeg", [
      "-nostdin",
      "-v",
      "error",
      "-y",
      "-f",
      "lavfi",
      "-i",
      "sine=duration=60",
      "-c:a",
      "libvorbis",
      long,
    ]);
    for (const input of [stereo, long]) {
      await assert.rejects(decodeChannel(input, "/dev/full", "mix"), (error: unknown) => {
        assert.ok(error instanceof CommandFailedError, String(error));
        assert.ok(!(error instanceof DecodeError));
        assert.equal(toolFault(error), "storage-full");
        assert.equal(serverFaultOf(error), "storage-full");
        return true;
      });
    }
  });

  it("fails on a channel the media does not have", async () => {
    await assert.rejects(decodeChannel(stereo, join(dir, "c5.wav"), 5), DecodeError);
  });
});

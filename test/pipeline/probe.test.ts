import assert from "node:assert/strict";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { probeMedia, UndecodableMediaError } from "../../src/pipeline/probe.ts";
import { run } from "../../src/pipeline/run.ts";
import { tempDir } from "./speech.ts";

const ffmpeg = (...args: string[]) => run("ffmpeg", ["-nostdin", "-v", "error", "-y", ...args]);

describe("probeMedia", () => {
  let dir = "";
  let cleanup = async () => {};
  before(async () => ({ dir, cleanup } = await tempDir()));
  after(() => cleanup());

  it("describes a stereo WAV", async () => {
    const file = join(dir, "stereo.wav");
    await ffmpeg("-f", "lavfi", "-i", "sine=frequency=440:sample_rate=8000:duration=2.5", "-ac", "2", file);
    assert.deepEqual(await probeMedia(file), {
      lengthMs: 2500,
      channels: 2,
      sampleRate: 8000,
      codec: "pcm_s16le",
      formatName: "wav",
    });
  });

  it("describes compressed audio inside a video container", async () => {
    const file = join(dir, "call.mp4");
    await ffmpeg(
      "-f",
      "lavfi",
      "-i",
      "color=c=black:s=32x32:d=1",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=300:sample_rate=44100:duration=1",
      "-c:v",
      "mpeg4",
      "-c:a",
      "aac",
      "-shortest",
      file,
    );
    const probe = await probeMedia(file);
    assert.equal(probe.channels, 1);
    assert.equal(probe.sampleRate, 44100);
    assert.equal(probe.codec, "aac");
    assert.match(probe.formatName, /mp4/);
    assert.ok(Math.abs(probe.lengthMs - 1000) < 100, `length ${probe.lengthMs}`);
  });

  it("measures streamed WebM that carries no duration by decoding it", async () => {
    const file = join(dir, "recording.webm");
    // Writing to a pipe leaves the WebM without a duration, as a browser's MediaRecorder does.
    await run("sh", [
      "-c",
      `ffmpeg -nostdin -v error -f lavfi -i sine=duration=1.5 -c:a libopus -f webm - > '${file}'`,
    ]);
    const probe = await probeMedia(file);
    assert.equal(probe.codec, "opus");
    assert.ok(Math.abs(probe.lengthMs - 1500) < 50, `length ${probe.lengthMs}`);
  });

  const rejects = async (file: string, reason: RegExp) => {
    await assert.rejects(probeMedia(file), (error: unknown) => {
      assert.ok(error instanceof UndecodableMediaError, `expected UndecodableMediaError, got ${error}`);
      assert.match(error.message, reason);
      return true;
    });
  };

  it("rejects a text file as not media", async () => {
    const file = join(dir, "notes.txt");
    await writeFile(file, "Dear customer,\nthis is not audio.\n");
    await rejects(file, /not a media file ffmpeg can read \(Invalid data found/);
  });

  it("rejects an empty file", async () => {
    const file = join(dir, "empty.wav");
    await writeFile(file, "");
    await rejects(file, /empty/);
  });

  it("rejects a video without audio", async () => {
    const file = join(dir, "silent-film.mp4");
    await ffmpeg("-f", "lavfi", "-i", "color=c=red:s=32x32:d=1", "-c:v", "mpeg4", file);
    await rejects(file, /no audio stream \(only video\)/);
  });

  it("rejects a WAV with no samples", async () => {
    const file = join(dir, "zero.wav");
    await ffmpeg("-f", "lavfi", "-i", "anullsrc=r=16000:cl=mono", "-t", "0", file);
    await rejects(file, /zero length/);
  });

  it("lets a missing file fail as an internal error, not as a bad upload", async () => {
    await assert.rejects(probeMedia(join(dir, "missing.wav")), (error: NodeJS.ErrnoException) => {
      assert.equal(error.code, "ENOENT");
      return true;
    });
  });
});

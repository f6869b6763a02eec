import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serverFaultOf, stderrFault, toolFault } from "../../src/domain/server-faults.ts";

/** stderr of ffmpeg 5.1 (Debian 12), captured from real runs. */
const FFMPEG = {
  /** A WAV header cut short. */
  badWav:
    "[wav @ 0x560f26ca51c0] no 'data' tag found\n/tmp/fz-t3: Invalid data found when processing input\n",
  /** Random bytes named .mp3. */
  badMp3:
    "[mp3 @ 0x557524142980] Failed to read frame size: Could not seek to 4023.\n/tmp/fz-bad.mp3: Invalid argument\n",
  /** Decoding 60 s to /dev/full: exit 1. */
  diskFull:
    "av_interleaved_write_frame(): No space left on device\nError writing trailer of /dev/full: No space left on device\nError closing file /dev/full: No space left on device\n",
  /** Decoding 5 s to a full 64 KiB tmpfs: ffmpeg exits 0 all the same. */
  diskFullAtTrailer:
    "Error writing trailer of /tmp/fz/decoded.wav: No space left on device\nError closing file /tmp/fz/decoded.wav: No space left on device\n",
  /** SIGTERM while decoding (ffmpeg exits 255). */
  terminated: "Exiting normally, received signal 15.\n",
};

describe("toolFault", () => {
  it("blames the input only when ffmpeg ran to its end and named nothing of the server's", () => {
    assert.equal(toolFault({ exitCode: 1, stderr: FFMPEG.badWav }), "input");
    assert.equal(toolFault({ exitCode: 1, stderr: FFMPEG.badMp3 }), "input");
  });
  it("tells a full disk, whatever the exit code", () => {
    assert.equal(toolFault({ exitCode: 1, stderr: FFMPEG.diskFull }), "storage-full");
    assert.equal(toolFault({ exitCode: 0, stderr: FFMPEG.diskFullAtTrailer }), "storage-full");
  });
  it("tells a killed or stopped tool", () => {
    assert.equal(toolFault({ exitCode: null, stderr: "" }), "tool");
    assert.equal(toolFault({ exitCode: 255, stderr: FFMPEG.terminated }), "tool");
  });
  it("tells failing disks and exhausted resources", () => {
    assert.equal(stderrFault("pipe:1: Input/output error"), "filesystem");
    assert.equal(stderrFault("Error opening output /tmp/x.wav: Too many open files"), "resources");
    assert.equal(stderrFault("Cannot allocate memory"), "resources");
    assert.equal(stderrFault(FFMPEG.badMp3), undefined);
  });
});

describe("serverFaultOf", () => {
  const errno = (code: string) => Object.assign(new Error(code), { code });
  it("reads the errno of our own calls, and PostgreSQL's insufficient-resources states", () => {
    assert.equal(serverFaultOf(errno("ENOSPC")), "storage-full");
    assert.equal(serverFaultOf(errno("EDQUOT")), "storage-full");
    assert.equal(serverFaultOf(errno("53100")), "storage-full");
    assert.equal(serverFaultOf(errno("EIO")), "filesystem");
    assert.equal(serverFaultOf(errno("EMFILE")), "resources");
    assert.equal(serverFaultOf(errno("ENOENT")), undefined);
  });
  it("looks through causes: a tool that could not start, a tool's ending", () => {
    const spawnFailed = Object.assign(new Error("spawn ffmpeg ENOENT"), {
      code: "ENOENT",
      syscall: "spawn ffmpeg",
    });
    assert.equal(serverFaultOf(new Error("ffmpeg is not installed", { cause: spawnFailed })), "tool");
    const ended = Object.assign(new Error("ffmpeg exited with code 1"), {
      exitCode: 1,
      stderr: FFMPEG.diskFull,
    });
    assert.equal(serverFaultOf(new Error("cannot redact the audio", { cause: ended })), "storage-full");
    const bad = Object.assign(new Error("ffmpeg exited with code 1"), { exitCode: 1, stderr: FFMPEG.badWav });
    assert.equal(serverFaultOf(new Error("cannot decode", { cause: bad })), undefined);
  });
  it("stops on a cycle of causes", () => {
    const a = new Error("a");
    const b = new Error("b", { cause: a });
    (a as { cause?: unknown }).cause = b;
    assert.equal(serverFaultOf(a), undefined);
  });
});

/**
 * What a crashed process leaves in the data directory is removed when a process starts: partial uploads
 * older than HARK_UPLOAD_TIMEOUT_SECONDS (no upload lasts longer), and transcription temp directories of
 * processes that are gone. What another live process may still be writing is left alone.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { redactFilePrefix, transcribeDirPrefix } from "../src/pipeline/temp-dirs.ts";
import { startTestHark, type TestHark } from "./support/harness.ts";

const HOUR = 3600 * 1000;

/** A pid that no process has: a child's, once it has exited. */
function deadPid(): number {
  return Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"]));
}

async function place(file: string, ageMs: number, dir = false): Promise<string> {
  if (dir) {
    await fs.mkdir(file, { recursive: true });
    await fs.writeFile(path.join(file, "decoded.wav"), "RIFF");
  } else {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, "some bytes of an upload");
  }
  const when = new Date(Date.now() - ageMs);
  await fs.utimes(file, when, when);
  return file;
}

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

describe("leftovers of a crash, at start", () => {
  let hark: TestHark;
  const dataDir = path.join(os.tmpdir(), `hark-leftovers-${process.pid}`);
  const blobs = path.join(dataDir, "blobs", "media");
  const tmp = path.join(dataDir, "tmp");
  const files: Record<string, string> = {};
  before(async () => {
    await fs.rm(dataDir, { recursive: true, force: true });
    files.oldPartial = await place(path.join(blobs, "a", "original.1111.partial"), 2 * HOUR);
    files.freshPartial = await place(path.join(blobs, "b", "original.2222.partial"), 60_000);
    files.blob = await place(path.join(blobs, "c", "original"), 48 * HOUR);
    files.deadProcess = await place(path.join(tmp, `${transcribeDirPrefix(deadPid())}abc123`), 0, true);
    files.ourPid = await place(path.join(tmp, `${transcribeDirPrefix(process.pid)}def456`), 0, true);
    files.liveProcess = await place(path.join(tmp, `${transcribeDirPrefix(process.ppid)}ghi789`), 0, true);
    files.oldUnowned = await place(path.join(tmp, "hark-transcribe-Xy12Ab"), 48 * HOUR, true);
    files.freshUnowned = await place(path.join(tmp, "hark-transcribe-Zz34Cd"), HOUR, true);
    files.otherHost = await place(path.join(tmp, "hark-transcribe-1-elsewhere-jkl012"), HOUR, true);
    const id = "0b6f4c2e-8a1d-4f3b-9c5e-2d7a6b1e0f93";
    files.redactDead = await place(path.join(tmp, `${redactFilePrefix(deadPid())}${id}`), 0);
    files.redactLive = await place(path.join(tmp, `${redactFilePrefix(process.ppid)}${id}`), 0);
    // Named by earlier releases (no process in the name), and S3's downloads for ffmpeg.
    files.oldRedacted = await place(path.join(tmp, `${id}-redacted`), 48 * HOUR);
    files.freshRedacted = await place(path.join(tmp, `${id.replace("0b", "1c")}-redacted`), HOUR);
    files.oldS3Download = await place(path.join(tmp, `${id}.blob`), 48 * HOUR);
    files.freshS3Download = await place(path.join(tmp, `${id.replace("0b", "1c")}.blob`), HOUR);
    hark = await startTestHark({ HARK_DATA_DIR: dataDir, HARK_UPLOAD_TIMEOUT_SECONDS: "3600" });
  });
  after(async () => {
    await hark.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  test("partial uploads older than the upload timeout are removed; younger ones and blobs stay", async () => {
    assert.equal(await exists(files.oldPartial as string), false);
    assert.equal(await exists(files.freshPartial as string), true);
    assert.equal(await exists(files.blob as string), true);
  });

  test("temp directories of processes gone (or of this pid, before it made any) are removed", async () => {
    assert.equal(await exists(files.deadProcess as string), false);
    assert.equal(await exists(files.ourPid as string), false);
    assert.equal(await exists(files.liveProcess as string), true);
  });

  test("temp directories of no known process are removed only once a day old", async () => {
    assert.equal(await exists(files.oldUnowned as string), false);
    assert.equal(await exists(files.freshUnowned as string), true);
    assert.equal(await exists(files.otherHost as string), true);
  });

  test("redacted-audio files of processes gone are removed, as are day-old ones no process names", async () => {
    assert.equal(await exists(files.redactDead as string), false);
    assert.equal(await exists(files.redactLive as string), true);
    assert.equal(await exists(files.oldRedacted as string), false);
    assert.equal(await exists(files.freshRedacted as string), true);
    assert.equal(await exists(files.oldS3Download as string), false);
    assert.equal(await exists(files.freshS3Download as string), true);
  });
});

/**
 * A fault of Hark's own (here: a full disk under the temp directory) is retried and reported as Hark's,
 * never as the customer's media; and no failure message shows a server path or a heap address.
 *
 * The full disk is real: a 64 KiB tmpfs mounted over the data directory's `tmp`, so that the real ffmpeg
 * runs out of space while decoding. Mounting needs root (CAP_SYS_ADMIN); where it is not allowed the test
 * is skipped and says so.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import { run } from "../../src/pipeline/run.ts";
import { tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";

const exec = promisify(execFile);

/** What no client-facing message may show: a server path (the API's own `/v3/…` is fine), a heap address, a pid. */
const LEAK =
  /\/(tmp|work|root|home|var|usr|dev|proc|data)\b|node_modules|hark-transcribe|0x[0-9a-f]{6,}|\bpid\b/i;

/** Mounts a `size` tmpfs at `dir`; resolves to how to unmount it, or to why it could not. */
async function tinyDisk(dir: string, size: string): Promise<(() => Promise<void>) | string> {
  try {
    await exec("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]);
  } catch (error) {
    return `cannot mount a tmpfs here (${(error as Error).message.split("\n")[0]})`;
  }
  return async () => {
    await exec("umount", [dir]);
  };
}

describe("server faults while processing", () => {
  let hark: TestHark;
  let token: string;
  let dir: string;
  let cleanup: () => Promise<void>;
  let clip: string;
  let unmount: (() => Promise<void>) | undefined;
  const logLines: string[] = [];

  before(async () => {
    ({ dir, cleanup } = await tempDir());
    // 44.1 kHz stereo MP3, so that the pipeline decodes it; 20 s decode to 640 KB, ten times the disk.
    clip = path.join(dir, "tone.mp3");
    await run("ffmpeg", [
      "-nostdin",
      "-v",
      "error",
      "-f",
      "lavfi",
      "-i",
      "sine=frequency=440:sample_rate=44100:duration=20",
      "-ac",
      "2",
      "-c:a",
      "libmp3lame",
      clip,
    ]);
    hark = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_CONCURRENCY: "0",
      },
      { workers: true, logLines },
    );
    token = await hark.createAccount();
  });
  after(async () => {
    await unmount?.();
    await hark.close();
    await cleanup();
  });

  async function uploadAndWait(media: string | Uint8Array) {
    const response = await hark.upload(token, {
      media,
      configuration: { publish: { callbacks: [{ url: "https://example.com/analytics" }] } },
    });
    assert.equal(response.statusCode, 200, response.body);
    const { mediaId } = response.json();
    const status = await hark.ended(mediaId);
    const doc = (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json();
    const { rows } = await hark.services.db.query<{ state: string; body: Buffer | null }>(
      "select state, body from deliveries where media_id = $1 order by position",
      [mediaId],
    );
    return { mediaId, status, doc, deliveries: rows };
  }

  test("a truly undecodable upload is the customer's fault (10201), named without server paths", async () => {
    // A WAV header cut short: ffmpeg's complaint names its demuxer by a heap address ("[wav @ 0x…]").
    const header = Buffer.from("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00", "latin1");
    const { status, doc, deliveries } = await uploadAndWait(Buffer.concat([header, randomBytes(100)]));
    assert.equal(status, "failed");
    assert.equal(doc.errors[0].code, 10201);
    assert.doesNotMatch(doc.errors[0].error, LEAK);
    assert.ok(!doc.errors[0].error.includes(hark.dataDir), doc.errors[0].error);
    assert.equal(deliveries[0]?.state, "pending");
    const body = JSON.parse(deliveries[0]?.body?.toString("utf8") ?? "{}");
    assert.equal(body.errors[0].code, 10201);
    assert.doesNotMatch(body.errors[0].error, LEAK);
  });

  test("a full disk while decoding is retried, then ends failed as Hark's storage fault", async (t) => {
    const tmp = path.join(hark.dataDir, "tmp");
    await fs.mkdir(tmp, { recursive: true });
    const mounted = await tinyDisk(tmp, "64k");
    if (typeof mounted === "string") {
      t.skip(mounted);
      return;
    }
    unmount = mounted;
    const { mediaId, status, doc, deliveries } = await uploadAndWait(clip);
    assert.equal(status, "failed");
    const attempts = logLines
      .map((line) => JSON.parse(line))
      .filter((line) => line.mediaId === mediaId && line.msg === "processing started");
    assert.deepEqual(
      attempts.map((line) => line.retry),
      [0, 1, 2],
      "every attempt pg-boss allows is made",
    );
    assert.equal(doc.errors.length, 1);
    assert.equal(doc.errors[0].code, 11994, doc.errors[0].error);
    assert.doesNotMatch(doc.errors[0].error, LEAK);
    assert.ok(!doc.errors[0].error.includes(hark.dataDir), doc.errors[0].error);
    // The callbacks still go out, saying what happened.
    assert.equal(deliveries[0]?.state, "pending");
    const body = JSON.parse(deliveries[0]?.body?.toString("utf8") ?? "{}");
    assert.equal(body.status, "failed");
    assert.equal(body.errors[0].code, 11994);
    assert.doesNotMatch(body.errors[0].error, LEAK);
    // The operator's log keeps the detail.
    assert.ok(
      logLines.some((line) => line.includes(mediaId) && line.includes("No space left on device")),
      "the log names the cause",
    );
  });
});

/**
 * Media longer than HARK_MAX_MEDIA_SECONDS, and media deleted while it is processed: neither may cost
 * the server more than a short look. A 100 KB WAV at one sample a second claims 28 hours (16 kHz PCM of
 * it: 3.2 GB of temp space); a deleted item's recogniser processes must stop, not run to the end.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { once } from "node:events";
import { watch } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { tempDir } from "../pipeline/speech.ts";
import { refused, startTestHark, type TestHark } from "../support/harness.ts";

/** Seconds of audio this file's Hark accepts. */
const MAX_SECONDS = 600;
const CALLBACKS = { publish: { callbacks: [{ url: "https://example.com/a" }] } };

/** A PCM WAV header (8-bit mono at `rate` samples a second) claiming `dataBytes`, followed by them. */
function wavBomb(rate: number, dataBytes: number): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // bytes a second
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write("data", 36);
  header.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([header, Buffer.alloc(dataBytes, 128)]);
}

/** Writes the lavfi `source` as Opus in WebM through a pipe, as a browser records: no duration in it. */
async function streamed(file: string, source: string): Promise<void> {
  const out = await fs.open(file, "w");
  try {
    execFileSync(
      "ffmpeg",
      [
        "-nostdin",
        "-v",
        "error",
        "-f",
        "lavfi",
        "-i",
        source,
        "-c:a",
        "libopus",
        "-b:a",
        "6k",
        "-f",
        "webm",
        "pipe:1",
      ],
      { stdio: ["ignore", out.fd, "inherit"] },
    );
  } finally {
    await out.close();
  }
}

/** The ffmpeg and pocketsphinx processes this test process has started (through Hark's pipeline). */
function pipelineChildren(): string[] {
  const out = execFileSync("ps", ["-o", "comm=", "--ppid", String(process.pid)], { encoding: "utf8" });
  return out.split("\n").filter((name) => /ffmpeg|ffprobe|pocketsphinx/.test(name));
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true }).catch(() => []);
  return entries.map(String);
}

describe("long media and deleted media", () => {
  let hark: TestHark;
  let token: string;
  let dir: string;
  let cleanup: () => Promise<void>;

  before(async () => {
    ({ dir, cleanup } = await tempDir());
    hark = await startTestHark(
      { HARK_MAX_MEDIA_SECONDS: String(MAX_SECONDS), HARK_CALLBACK_CONCURRENCY: "0" },
      { workers: true },
    );
    token = await hark.createAccount();
  });
  after(async () => {
    await hark?.close();
    await cleanup?.();
  });

  test("a WAV bomb (100 KB claiming 28 hours) is refused at upload with 413, and nothing is kept", async () => {
    const response = await hark.upload(token, { media: wavBomb(1, 100_000), configuration: CALLBACKS });
    const message = refused(response, 413, 11103);
    assert.match(message, /100000 s long; at most 600 s/);
    const { rows } = await hark.services.db.query("select count(*)::int as n from media");
    assert.equal(rows[0]?.n, 0);
    assert.deepEqual(await filesUnder(path.join(hark.dataDir, "blobs")), ["media"]);
  });

  test("media that does not say its length fails at once with 11103, with its callback", async () => {
    // A streamed WebM has no duration: the upload cannot know, processing measures it (and stops early).
    const webm = path.join(dir, "long.webm");
    await streamed(webm, `sine=d=${MAX_SECONDS + 60}:r=8000`);
    const declared = execFileSync("ffprobe", [
      "-v",
      "error",
      "-show_entries",
      "format=duration",
      "-of",
      "csv=p=0",
      webm,
    ]);
    assert.equal(String(declared).trim(), "N/A", "the test's WebM must not say its length");
    const response = await hark.upload(token, {
      media: webm,
      mediaType: "audio/webm",
      configuration: CALLBACKS,
    });
    assert.equal(response.statusCode, 200, response.body);
    const { mediaId } = response.json();
    assert.equal(await hark.ended(mediaId), "failed");
    const doc = (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json();
    assert.equal(doc.errors[0].code, 11103);
    assert.match(doc.errors[0].error, /at most 600 s is accepted/);
    assert.equal(doc.transcript, undefined);
    const { rows } = await hark.services.db.query("select state from deliveries where media_id = $1", [
      mediaId,
    ]);
    assert.deepEqual(
      rows.map((row) => row.state),
      ["pending"],
    );
  });

  test("DELETE of an item being transcribed stops its engine processes and leaves nothing of it", async () => {
    // Five minutes of noise at the recogniser's own rate: minutes of pocketsphinx work on two cores.
    const noise = path.join(dir, "noise.wav");
    execFileSync(
      "ffmpeg",
      ["-nostdin", "-v", "error", "-f", "lavfi", "-i", "anoisesrc=d=300:r=16000:a=0.3"].concat([
        "-ac",
        "1",
        "-c:a",
        "pcm_s16le",
        noise,
      ]),
    );
    const tmp = path.join(hark.dataDir, "tmp");
    await fs.mkdir(tmp, { recursive: true });
    // The first piece cut for the recogniser says transcription is under way.
    const watcher = watch(tmp, { recursive: true });
    const pieceCut = once(watcher, "change", {}).then(async function wait(event): Promise<void> {
      if (/piece-\d+\.wav$/.test(String(event[1]))) return;
      return wait(await once(watcher, "change"));
    });
    const response = await hark.upload(token, { media: noise, configuration: CALLBACKS });
    assert.equal(response.statusCode, 200, response.body);
    const { mediaId } = response.json();
    await pieceCut;
    watcher.close();

    const cancelled = new Promise<void>((resolve) => {
      const listener = (event: { mediaId: string }) => {
        if (event.mediaId !== mediaId) return;
        hark.services.events.off("media.cancelled", listener);
        resolve();
      };
      hark.services.events.on("media.cancelled", listener);
    });
    const deletedAt = Date.now();
    assert.equal((await hark.api(token, "DELETE", `/v3/media/${mediaId}`)).statusCode, 204);
    await cancelled;
    // The watch looks once a second; the rest is killing the children and removing the files.
    assert.ok(Date.now() - deletedAt < 10_000, `cancelled after ${Date.now() - deletedAt} ms`);

    assert.deepEqual(pipelineChildren(), []);
    assert.deepEqual(await filesUnder(tmp), []);
    assert.deepEqual(await filesUnder(path.join(hark.dataDir, "blobs", "media", mediaId)), []);
    assert.equal((await hark.api(token, "GET", `/v3/media/${mediaId}`)).statusCode, 404);
    const { rows } = await hark.services.db.query("select 1 from deliveries where media_id = $1", [mediaId]);
    assert.equal(rows.length, 0, "no callback is owed for a deleted item");
  });
});

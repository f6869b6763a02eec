/**
 * Media longer than HARK_MAX_MEDIA_SECONDS,: it may cost the server no more than a short look. A 100 KB WAV at one sample a second claims 28 hours (16 kHz PCM of
 * it: 3.2 GB of temp space); a deleted item's recogniser processes must stop, not run to the end.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
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
});

/** Reading, listing and deleting media, and what one account can see of another's (nothing). */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { startTestHark, type TestHark } from "../support/harness.ts";

const AUDIO = randomBytes(4096);

describe("reading media", () => {
  let hark: TestHark;
  let token: string;
  let other: string;
  before(async () => {
    hark = await startTestHark({ HARK_PUBLIC_URL: "https://hark.example.com/" });
    token = await hark.createAccount();
    other = await hark.createAccount();
  });
  after(() => hark.close());

  const get = (url: string, as = token) =>
    hark.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${as}` } });
  async function upload(metadata?: unknown): Promise<string> {
    const response = await hark.upload(token, {
      media: AUDIO,
      mediaType: "audio/mpeg",
      ...(metadata !== undefined && { metadata }),
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().mediaId;
  }

  test("GET /v3/media/{id} answers the media document with links under HARK_PUBLIC_URL", async () => {
    const mediaId = await upload({ title: "t" });
    const response = await get(`/v3/media/${mediaId}`);
    assert.equal(response.statusCode, 200);
    const doc = response.json();
    assert.equal(doc._links.self.href, `https://hark.example.com/v3/media/${mediaId}`);
    assert.equal(doc.status, "accepted");
    assert.equal(doc.mediaContentType, "audio/mpeg");
    assert.deepEqual(doc.metadata, { title: "t" });
    assert.equal(doc.streams.length, 1);
    assert.equal(doc.streams[0].status, 200, "the Swagger's integer: what fetching it answers");
    assert.equal(doc.streams[0].streamName, "original");
    assert.match(
      doc.streams[0].streamLocation,
      new RegExp(
        `^https://hark\\.example\\.com/v3/media/${mediaId}/streams/original\\?expires=\\d+&signature=`,
      ),
    );
    assert.equal(doc.transcript, undefined, "no transcript before processing");
  });

  test("another account's media does not exist for you, for every route", async () => {
    const mediaId = await upload();
    for (const suffix of [
      "",
      "/transcript",
      "/transcript/srt",
      "/streams",
      "/streams/original",
      "/progress",
    ]) {
      const response = await get(`/v3/media/${mediaId}${suffix}`, other);
      assert.equal(response.statusCode, 404, suffix);
      assert.equal(response.json().errors[0].code, 10205);
    }
    const deleted = await hark.app.inject({
      method: "DELETE",
      url: `/v3/media/${mediaId}`,
      headers: { authorization: `Bearer ${other}` },
    });
    assert.equal(deleted.statusCode, 404);
    assert.equal((await get(`/v3/media/${mediaId}`)).statusCode, 200, "still there for its owner");
    assert.equal((await get("/v3/media", other)).json().media.length, 0);
  });

  test("an unknown or malformed id is a 404", async () => {
    assert.equal((await get("/v3/media/00000000-0000-4000-8000-000000000000")).statusCode, 404);
    assert.equal((await get("/v3/media/not-an-id")).statusCode, 404);
  });

  test("GET /v3/media lists newest first, with limit and externalId", async () => {
    const first = await upload({ externalId: "call-a" });
    const second = await upload({ externalId: "call-b" });
    const third = await upload({ externalId: "call-a" });
    const all = (await get("/v3/media")).json().media.map((m: { mediaId: string }) => m.mediaId);
    assert.deepEqual(all.slice(0, 3), [third, second, first]);
    const limited = (await get("/v3/media?limit=2")).json().media;
    assert.equal(limited.length, 2);
    const byExternalId = (await get("/v3/media?externalId=call-a")).json().media;
    assert.deepEqual(
      byExternalId.map((m: { mediaId: string }) => m.mediaId),
      [third, first],
    );
    assert.equal(byExternalId[0].metadata.externalId, "call-a");
    for (const bad of ["limit=0", "limit=1001", "limit=ten", "sort=asc"]) {
      const response = await get(`/v3/media?${bad}`);
      assert.equal(response.statusCode, 400, bad);
      assert.equal(response.json().errors[0].code, 11005);
    }
  });

  test("results wait for processing: transcript is a 409 until finished", async () => {
    const mediaId = await upload();
    for (const suffix of ["/transcript", "/transcript/text", "/transcript/dfxp"]) {
      const response = await get(`/v3/media/${mediaId}${suffix}`);
      assert.equal(response.statusCode, 409, suffix);
      assert.equal(response.json().errors[0].code, 10301);
      assert.match(response.json().errors[0].error, /this media is accepted/);
    }
    assert.equal((await get(`/v3/media/${mediaId}/transcript/pdf`)).statusCode, 404);
  });

  test("streams: the original bytes, as uploaded, with their type and length", async () => {
    const mediaId = await upload();
    const list = (await get(`/v3/media/${mediaId}/streams`)).json();
    assert.deepEqual(
      list.streams.map((s: { streamName: string }) => s.streamName),
      ["original"],
    );
    const response = await get(`/v3/media/${mediaId}/streams/original`);
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers["content-type"], "audio/mpeg");
    assert.equal(response.headers["content-length"], String(AUDIO.length));
    assert.ok(response.rawPayload.equals(AUDIO));
    const redacted = await get(`/v3/media/${mediaId}/streams/redacted-audio`);
    assert.equal(redacted.statusCode, 404);
    assert.match(redacted.json().errors[0].error, /it has original/);
  });

  test("progress lists the tasks", async () => {
    const mediaId = await upload();
    const progress = (await get(`/v3/media/${mediaId}/progress`)).json();
    assert.equal(progress.status, "accepted");
    assert.deepEqual(
      progress.progress.tasks.map((t: { taskId: string; status: string }) => [t.taskId, t.status]),
      [
        ["ingest", "pending"],
        ["transcribe", "pending"],
        ["analyse", "pending"],
      ],
    );
  });

  test("DELETE removes the media, its deliveries and its bytes", async () => {
    const response = await hark.upload(token, {
      media: AUDIO,
      configuration: { publish: { callbacks: [{ url: "https://example.com/cb" }] } },
    });
    const mediaId = response.json().mediaId;
    const blobDir = path.join(hark.dataDir, "blobs", "media", mediaId);
    await fs.access(blobDir);
    const deleted = await hark.app.inject({
      method: "DELETE",
      url: `/v3/media/${mediaId}`,
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(deleted.statusCode, 204);
    assert.equal((await get(`/v3/media/${mediaId}`)).statusCode, 404);
    await assert.rejects(fs.access(blobDir), { code: "ENOENT" });
    const { rows } = await hark.services.db.query(
      "select count(*)::int as n from deliveries where media_id = $1",
      [mediaId],
    );
    assert.equal(rows[0]?.n, 0);
  });

  test("an unknown route answers the error envelope", async () => {
    const response = await get("/v3/nothing-here");
    assert.equal(response.statusCode, 404);
    assert.equal(response.json().errors[0].code, 10000);
  });
});

/**
 * `HARK_MAX_METADATA_BYTES`: metadata larger than the cap, as compact JSON, is refused with VoiceBase's
 * 10800 (413) at upload, at reprocess and by `PUT .../metadata`, and nothing of it is stored; metadata
 * stored before the cap (or under a larger one) is still read and listed.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { startProcessing } from "../../src/store/media.ts";
import { finishWith } from "../support/finish.ts";
import { refused, startTestHark, type TestHark } from "../support/harness.ts";

const CAP = 4096;

/** Metadata whose compact JSON is exactly `bytes` long. */
function metadataOf(bytes: number): { extended: { notes: string } } {
  const overhead = JSON.stringify({ extended: { notes: "" } }).length;
  return { extended: { notes: "n".repeat(bytes - overhead) } };
}

describe("metadata size cap", () => {
  let hark: TestHark;
  let token: string;
  before(async () => {
    hark = await startTestHark({ HARK_MAX_METADATA_BYTES: String(CAP) });
    token = await hark.createAccount();
  });
  after(() => hark.close());

  const count = async () => {
    const { rows } = await hark.services.db.query<{ count: string }>("select count(*) from media");
    return Number(rows[0]?.count);
  };

  async function upload(metadata: unknown) {
    return hark.upload(token, { media: randomBytes(1024), mediaType: "audio/mpeg", metadata });
  }

  test("an upload at the cap is kept; one byte over is refused with 10800 and nothing is stored", async () => {
    const atCap = await upload(metadataOf(CAP));
    assert.equal(atCap.statusCode, 200, atCap.body);
    const stored = await count();

    const message = refused(await upload(metadataOf(CAP + 1)), 413, 10800);
    assert.match(message, new RegExp(`metadata is ${CAP + 1} bytes.*${CAP}.*HARK_MAX_METADATA_BYTES`));
    assert.equal(await count(), stored, "no media item was stored");
    // Whitespace the client sent does not count: what is kept is compact JSON.
    const spaced = JSON.stringify(metadataOf(CAP), null, 8);
    assert.ok(Buffer.byteLength(spaced) > CAP);
    assert.equal((await upload(spaced)).statusCode, 200);
  });

  test("PUT .../metadata over the cap is refused with 10800 and the metadata is unchanged", async () => {
    const response = await upload({ title: "kept" });
    const mediaId = response.json().mediaId as string;
    const url = `/v3/media/${mediaId}/metadata`;
    refused(await hark.api(token, "PUT", url, metadataOf(CAP + 1)), 413, 10800);
    assert.deepEqual((await hark.api(token, "GET", url)).json(), { title: "kept" });
    assert.equal((await hark.api(token, "PUT", url, metadataOf(CAP))).statusCode, 200);
  });

  test("a reprocess with metadata over the cap is refused with 10800 and changes nothing", async () => {
    const mediaId = (await upload({ title: "kept" })).json().mediaId as string;
    await hark.services.db.transaction(async (sql) => {
      await startProcessing(sql, mediaId);
      assert.ok(await finishWith(sql, mediaId, { status: "finished", sections: {}, messages: [] }));
    });
    const form = new FormData();
    form.append("metadata", JSON.stringify(metadataOf(CAP + 1)));
    const response = await hark.app.inject({
      method: "POST",
      url: `/v3/media/${mediaId}`,
      headers: { authorization: `Bearer ${token}` },
      payload: form,
    });
    refused(response, 413, 10800);
    const media = (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json();
    assert.equal(media.status, "finished", "not queued again");
    assert.deepEqual(media.metadata, { title: "kept" });
  });

  test("metadata stored before the cap is still read and listed", async () => {
    const mediaId = (await upload({ title: "small" })).json().mediaId as string;
    const large = metadataOf(CAP * 8);
    await hark.services.db.query("update media set metadata = $2 where media_id = $1", [
      mediaId,
      JSON.stringify(large),
    ]);
    assert.deepEqual((await hark.api(token, "GET", `/v3/media/${mediaId}/metadata`)).json(), large);
    assert.deepEqual((await hark.api(token, "GET", `/v3/media/${mediaId}`)).json().metadata, large);
    const listed = (await hark.api(token, "GET", "/v3/media?limit=1000")).json();
    const item = listed.media.find((m: { mediaId: string }) => m.mediaId === mediaId);
    assert.deepEqual(item.metadata, large);
  });
});

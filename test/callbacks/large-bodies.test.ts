/**
 * Callback bodies over `HARK_CALLBACK_INLINE_BODY_BYTES` live in the blob store, not in their delivery
 * rows; receivers cannot tell: the same bytes on every try, the same headers. Here the limit is tiny, so
 * a short call's analytics body is "large" and its plain-text transcript is not.
 */
import assert from "node:assert/strict";
import { buffer } from "node:stream/consumers";
import { after, before, describe, test } from "node:test";
import { callbackBodyKey } from "../../src/blobs/blob-store.ts";
import { spokenFile } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

const INLINE_LIMIT = 100;

describe("callback bodies too large for their rows", () => {
  let hark: TestHark;
  let token: string;
  let receiver: Receiver;
  let audio: { file: string; cleanup: () => Promise<void> };

  before(async () => {
    audio = await spokenFile("please cancel my order");
    receiver = await startReceiver();
    hark = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_SCHEDULE: "0,1s",
        HARK_CALLBACK_BURST: "2",
        HARK_CALLBACK_INLINE_BODY_BYTES: String(INLINE_LIMIT),
      },
      { workers: true },
    );
    token = await hark.createAccount();
  });
  after(async () => {
    await hark?.close();
    await receiver?.close();
    await audio?.cleanup();
  });

  test("a large body is kept in the blob store and sent byte for byte on every try", async () => {
    receiver.answer("/analytics", [{ status: 503 }, { status: 200 }]);
    const response = await hark.upload(token, {
      media: audio.file,
      configuration: {
        publish: {
          callbacks: [
            { url: `${receiver.url}/analytics` },
            { url: `${receiver.url}/text`, type: "transcript", format: "text" },
          ],
        },
      },
    });
    assert.equal(response.statusCode, 200, response.body);
    const mediaId = response.json().mediaId as string;
    const [first, second] = [await receiver.next("/analytics"), await receiver.next("/analytics")];
    const text = await receiver.next("/text");

    const { rows } = await hark.services.db.query<{ position: number; inline: boolean; body_blob: string }>(
      "select position, body is not null as inline, body_blob from deliveries where media_id = $1 order by position",
      [mediaId],
    );
    assert.deepEqual(rows, [
      { position: 0, inline: false, body_blob: callbackBodyKey(mediaId, 0) },
      { position: 1, inline: true, body_blob: null },
    ]);
    const stored = await buffer(await hark.services.blobs.read(callbackBodyKey(mediaId, 0)));
    assert.ok(stored.length > INLINE_LIMIT);
    assert.ok(first.body.equals(stored), "the first try sends the stored bytes");
    assert.ok(second.body.equals(stored), "so does the second");
    assert.equal(first.headers["content-length"], String(stored.length));
    assert.equal(JSON.parse(stored.toString("utf8")).mediaId, mediaId);
    assert.ok(text.body.length <= INLINE_LIMIT, "the small transcript stayed in its row");

    const deleted = await hark.api(token, "DELETE", `/v3/media/${mediaId}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal(
      await hark.services.blobs.size(callbackBodyKey(mediaId, 0)),
      undefined,
      "gone with the item",
    );
  });
});

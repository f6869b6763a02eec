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

  test("a body gone from the blob store ends its delivery exhausted, with one try recorded saying so", async () => {
    receiver.answer("/gone", { status: 503 });
    const response = await hark.upload(token, {
      media: audio.file,
      configuration: { publish: { callbacks: [{ url: `${receiver.url}/gone` }] } },
    });
    assert.equal(response.statusCode, 200, response.body);
    const mediaId = response.json().mediaId as string;
    const [deliveryId] = (await hark.api(token, "GET", `/v3/media/${mediaId}/callbacks`))
      .json()
      .callbacks.map((c: { deliveryId: string }) => c.deliveryId);
    const states: string[] = [];
    const exhausted = new Promise<void>((resolve) => {
      const listener = (event: { deliveryId: string; state: string }) => {
        if (event.deliveryId !== deliveryId) return;
        states.push(event.state);
        if (event.state === "will-retry") {
          // The first scheduled attempt failed; its body vanishes before the second.
          void hark.services.blobs.delete(callbackBodyKey(mediaId, 0));
        }
        if (event.state !== "exhausted") return;
        hark.services.events.off("delivery.burst-ended", listener);
        resolve();
      };
      hark.services.events.on("delivery.burst-ended", listener);
    });
    await exhausted;
    assert.deepEqual(states, ["will-retry", "exhausted"], "ended, not claimed again and again");

    const [entry] = (await hark.api(token, "GET", `/v3/media/${mediaId}/callbacks`)).json().callbacks;
    assert.equal(entry.state, "exhausted");
    const tries = entry.attempts;
    assert.equal(tries.length, 3, "two tries that reached the receiver, and the one that found no body");
    const last = tries[2];
    assert.equal(last.scheduledAttempt, 1);
    assert.equal(last.succeeded, false);
    assert.equal(last.statusCode, undefined, "nothing was sent");
    assert.match(last.errorMessage, /body .*gone/);
    assert.equal(last.errorKind, "body-missing");
    assert.doesNotMatch(last.errorMessage, /media\//, "no storage key in what the client reads");
    assert.equal(
      receiver.received.filter((r) => r.path === "/gone").length,
      2,
      "nothing sent without a body",
    );

    const { rows } = await hark.services.db.query<{ due: boolean }>(
      "select due_at is not null as due from deliveries where delivery_id = $1",
      [deliveryId],
    );
    assert.deepEqual(rows, [{ due: false }], "no dispatcher takes it again");
  });
});

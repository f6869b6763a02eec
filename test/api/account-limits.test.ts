/**
 * Per-account limits and fairness, end to end: uploads and redeliveries over an account's per-minute
 * limit are refused with 429 and `Retry-After`, and one account's queued or stalled work (a `mediaUrl`
 * that never finishes arriving) does not hold up another account's. `priority` orders an account's own
 * work only.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { spokenFile } from "../pipeline/speech.ts";
import { refused, startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

describe("per-account upload and reprocess limit", () => {
  let hark: TestHark;

  before(async () => {
    hark = await startTestHark({ HARK_ACCOUNT_UPLOADS_PER_MINUTE: "3" });
  });
  after(async () => {
    await hark?.close();
  });

  const upload = (token: string) => hark.upload(token, { media: new Uint8Array([1, 2, 3, 4]) });
  const listed = async (token: string) =>
    (await hark.api(token, "GET", "/v3/media?limit=100")).json().media.length as number;

  test("the upload over the limit is refused with 429 and Retry-After, and nothing is stored", async () => {
    const token = await hark.createAccount();
    for (let i = 0; i < 3; i++) assert.equal((await upload(token)).statusCode, 200);
    const over = await upload(token);
    const message = refused(over, 429, 11403);
    assert.match(message, /uploads? per minute/i);
    const retryAfter = Number(over.headers["retry-after"]);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${over.headers["retry-after"]}`);
    assert.equal(await listed(token), 3, "the refused upload stored no media item");

    const other = await hark.createAccount();
    assert.equal((await upload(other)).statusCode, 200, "another account's limit is its own");
  });

  test("concurrent uploads do not slip under the limit together", async () => {
    const token = await hark.createAccount();
    const answers = await Promise.all(Array.from({ length: 10 }, () => upload(token)));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    assert.deepEqual(statuses, [200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    assert.equal(await listed(token), 3);
  });
});

describe("per-account redelivery limit", () => {
  let hark: TestHark;
  let receiver: Receiver;
  let audio: { file: string; cleanup: () => Promise<void> };

  before(async () => {
    audio = await spokenFile("hello");
    receiver = await startReceiver();
    hark = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_SCHEDULE: "0",
        HARK_CALLBACK_BURST: "1",
        HARK_ACCOUNT_REDELIVERIES_PER_MINUTE: "2",
        HARK_ACCOUNT_UPLOADS_PER_MINUTE: "2",
      },
      { workers: true, recognizeOnce: true },
    );
  });
  after(async () => {
    await hark?.close();
    await receiver?.close();
    await audio?.cleanup();
  });

  test("redeliveries over the account's limit are refused with 429, whichever callback", async () => {
    const token = await hark.createAccount();
    const paths = ["/one", "/two", "/three"];
    // Each callback's first burst is recorded as ended before it is redelivered.
    const succeeded = new Set<string>();
    let allSucceeded: () => void = () => {};
    const firstBursts = new Promise<void>((resolve) => (allSucceeded = resolve));
    hark.services.events.on("delivery.burst-ended", (event: { deliveryId: string; state: string }) => {
      if (event.state === "succeeded") succeeded.add(event.deliveryId);
      if (succeeded.size === paths.length) allSucceeded();
    });
    const response = await hark.upload(token, {
      media: audio.file,
      configuration: { publish: { callbacks: paths.map((path) => ({ url: `${receiver.url}${path}` })) } },
    });
    assert.equal(response.statusCode, 200, response.body);
    const { mediaId } = response.json();
    await firstBursts;
    const log = (await hark.api(token, "GET", `/v3/media/${mediaId}/callbacks`)).json();
    const redeliver = (deliveryId: string) =>
      hark.api(token, "POST", `/v3/media/${mediaId}/callbacks/${deliveryId}/redeliver`);
    const [one, two, three] = log.callbacks.map((c: { deliveryId: string }) => c.deliveryId);
    assert.equal((await redeliver(one)).statusCode, 202);
    assert.equal((await redeliver(two)).statusCode, 202);
    const over = await redeliver(three);
    assert.match(refused(over, 429, 11404), /redeliveries per minute/i);
    const retryAfter = Number(over.headers["retry-after"]);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After: ${over.headers["retry-after"]}`);
    const after = (await hark.api(token, "GET", `/v3/media/${mediaId}/callbacks`)).json();
    assert.equal(after.callbacks[2].state, "succeeded", "the refused redelivery scheduled nothing");
  });

  test("a reprocess counts against the account's upload limit", async () => {
    const token = await hark.createAccount();
    const response = await hark.upload(token, { media: audio.file });
    assert.equal(response.statusCode, 200, response.body);
    const { mediaId } = response.json();
    await hark.ended(mediaId);
    const reprocess = () => {
      const form = new FormData();
      form.append("metadata", "{}");
      return hark.app.inject({
        method: "POST",
        url: `/v3/media/${mediaId}`,
        headers: { authorization: `Bearer ${token}` },
        payload: form,
      });
    };
    const again = await reprocess();
    assert.equal(again.statusCode, 200, again.body);
    await hark.ended(mediaId);
    refused(await reprocess(), 429, 11403);
  });
});

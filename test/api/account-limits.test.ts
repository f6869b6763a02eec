/**
 * Per-account limits and fairness, end to end: uploads and redeliveries over an account's per-minute
 * limit are refused with 429 and `Retry-After`, and one account's queued or stalled work (a `mediaUrl`
 * that never finishes arriving) does not hold up another account's. `priority` orders an account's own
 * work only.
 */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import { spokenFile } from "../pipeline/speech.ts";
import { refused, startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

/** A media server whose answers start and then stall, each until released (then it breaks off). */
interface StallingServer {
  url: string;
  /** Resolves when a download of `path` has started. */
  requested(path: string): Promise<void>;
  /** How many downloads have started. */
  started(): number;
  /** Breaks off the download of `path`: the item fails, and its worker slot is free again. */
  release(path: string): void;
  close(): Promise<void>;
}

async function startStallingServer(): Promise<StallingServer> {
  const held = new Map<string, http.ServerResponse>();
  const waiting = new Map<string, () => void>();
  let count = 0;
  const server = http.createServer((request, response) => {
    const path = request.url ?? "/";
    count++;
    // Headers and a first piece of a large body, then nothing: a download that neither ends nor fails.
    response.writeHead(200, { "content-type": "audio/x-wav", "content-length": "10000000" });
    response.write(Buffer.alloc(1000));
    held.set(path, response);
    waiting.get(path)?.();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requested: (path) =>
      held.has(path) ? Promise.resolve() : new Promise((resolve) => waiting.set(path, resolve)),
    started: () => count,
    release(path) {
      held.get(path)?.destroy();
    },
    async close() {
      for (const response of held.values()) response.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

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

describe("fairness between accounts in processing", () => {
  let hark: TestHark;
  let media: StallingServer;
  let audio: { file: string; cleanup: () => Promise<void> };
  const ended: string[] = [];

  before(async () => {
    audio = await spokenFile("hello");
    media = await startStallingServer();
    hark = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_CONCURRENCY: "0",
        HARK_WORKER_CONCURRENCY: "2",
        HARK_ACCOUNT_MAX_PROCESSING: "1",
        HARK_MEDIA_URL_TIMEOUT_SECONDS: "120",
      },
      { workers: true, recognizeOnce: true },
    );
    hark.services.events.on("media.ended", (event: { mediaId: string }) => ended.push(event.mediaId));
  });
  after(async () => {
    await media?.close();
    await hark?.close();
    await audio?.cleanup();
  });

  async function accepted(token: string, parts: Parameters<TestHark["upload"]>[1]): Promise<string> {
    const response = await hark.upload(token, parts);
    assert.equal(response.statusCode, 200, response.body);
    return response.json().mediaId as string;
  }
  const status = async (token: string, mediaId: string) =>
    (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json().status as string;

  test("an account's stalled high-priority downloads do not hold up another account's clip", async () => {
    const a = await hark.createAccount();
    const b = await hark.createAccount();
    const stalled: string[] = [];
    for (const path of ["/a1", "/a2", "/a3"]) {
      stalled.push(
        await accepted(a, { mediaUrl: `${media.url}${path}`, configuration: { priority: "high" } }),
      );
    }
    await media.requested("/a1");
    const clip = await accepted(b, { media: audio.file });
    assert.equal(await hark.ended(clip), "finished");
    for (const mediaId of stalled) {
      assert.ok(
        ["accepted", "running"].includes(await status(a, mediaId)),
        "A's downloads are still waiting",
      );
    }
    assert.equal(media.started(), 1, "account A ran one download at a time, its limit");
    for (const path of ["/a1", "/a2", "/a3"]) {
      await media.requested(path);
      media.release(path);
    }
    for (const mediaId of stalled) assert.equal(await hark.ended(mediaId), "failed");
  });

  test("deleting an item stops its stalled mediaUrl download at once, freeing the slot", async () => {
    const a = await hark.createAccount();
    const stalled = await accepted(a, { mediaUrl: `${media.url}/deleted` });
    await media.requested("/deleted");
    const cancelled = new Promise<void>((resolve) => {
      const listener = (event: { mediaId: string }) => {
        if (event.mediaId !== stalled) return;
        hark.services.events.off("media.cancelled", listener);
        resolve();
      };
      hark.services.events.on("media.cancelled", listener);
    });
    const deletedAt = Date.now();
    assert.equal((await hark.api(a, "DELETE", `/v3/media/${stalled}`)).statusCode, 204);
    await cancelled;
    // The download is called off, not waited out to HARK_MEDIA_URL_TIMEOUT_SECONDS (120 s).
    assert.ok(Date.now() - deletedAt < 60_000, `cancelled ${Date.now() - deletedAt} ms after the DELETE`);
    const clip = await accepted(a, { media: audio.file });
    assert.equal(await hark.ended(clip), "finished", "the account's one slot is free again");
  });

  test("an account's high upload runs before its own earlier normal ones", async () => {
    const a = await hark.createAccount();
    const blocking = await accepted(a, { mediaUrl: `${media.url}/own-block` });
    await media.requested("/own-block");
    const normal = await accepted(a, { media: audio.file });
    const high = await accepted(a, { media: audio.file, configuration: { priority: "high" } });
    assert.equal(await status(a, normal), "accepted", "the account's one slot is taken");
    media.release("/own-block");
    await Promise.all([hark.ended(blocking), hark.ended(normal), hark.ended(high)]);
    const order = ended.filter((mediaId) => [normal, high].includes(mediaId));
    assert.deepEqual(order, [high, normal]);
  });

  test("a job queued by an earlier release (no group, a pg-boss priority) still runs", async () => {
    const a = await hark.createAccount();
    const blocking = await accepted(a, { mediaUrl: `${media.url}/old-block` });
    await media.requested("/old-block");
    const clip = await accepted(a, { media: audio.file });
    // As the previous release queued it: no group, priority 5 ("normal"), a payload without priority.
    const { rowCount } = await hark.services.db.query(
      `update pgboss.job set group_id = null, priority = 5, data = data - 'priority'
       where name = 'process' and data->>'mediaId' = $1 and state = 'created'`,
      [clip],
    );
    assert.equal(rowCount, 1);
    // Its account is at its limit, but a job without a group is not held to one: a free worker takes it.
    assert.equal(await hark.ended(clip), "finished");
    media.release("/old-block");
    assert.equal(await hark.ended(blocking), "failed");
  });

  test("one account's high upload does not jump ahead of another account's earlier work", async () => {
    // Both workers busy with two other accounts' stalled downloads; then B queues a normal clip, and A a
    // high one. The first worker to come free takes B's: it was queued first.
    const x = await hark.createAccount();
    const y = await hark.createAccount();
    const a = await hark.createAccount();
    const b = await hark.createAccount();
    const xBlock = await accepted(x, { mediaUrl: `${media.url}/x-block` });
    const yBlock = await accepted(y, { mediaUrl: `${media.url}/y-block` });
    await Promise.all([media.requested("/x-block"), media.requested("/y-block")]);
    const fromB = await accepted(b, { media: audio.file });
    const fromA = await accepted(a, { media: audio.file, configuration: { priority: "high" } });
    media.release("/x-block");
    const first = await Promise.race(
      [hark.ended(fromB), hark.ended(fromA)].map(async (p, i) => (await p, i)),
    );
    assert.equal(first, 0, "B's earlier normal clip ran before A's later high one");
    assert.equal(await status(a, fromA), "accepted");
    media.release("/y-block");
    await Promise.all([hark.ended(xBlock), hark.ended(yBlock), hark.ended(fromA)]);
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

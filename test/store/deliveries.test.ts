/**
 * The deliveries table as the delivery queue: which rows a dispatcher claims, when a claim lapses, and
 * how a burst's outcome is recorded, on a real PostgreSQL.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, afterEach, before, describe, it } from "node:test";
import type { AttemptRecord, BurstEnd } from "../../src/domain/delivery.ts";
import { parseConfiguration } from "../../src/intake/configuration.ts";
import { createAccount } from "../../src/store/accounts.ts";
import { type Database, openDatabase } from "../../src/store/database.ts";
import { claimDue, deliveriesOf, endBursts, recordAttempt, redeliver } from "../../src/store/deliveries.ts";
import { insertMedia, startProcessing } from "../../src/store/media.ts";
import { freshDatabase, type TestDatabase } from "../support/database.ts";
import { finishWith } from "../support/finish.ts";

const T0 = new Date("2025-06-01T12:00:00Z");
const MINUTE = 60_000;
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe("deliveries as a queue", () => {
  let database: TestDatabase;
  let db: Database;
  let accountId: string;

  before(async () => {
    database = await freshDatabase();
    db = openDatabase(database.url, 4);
    const account = await createAccount(db, `deliveries-${randomUUID()}`);
    assert.ok(account);
    accountId = account.accountId;
  });

  // Each test's deliveries would be due in the next one's claims.
  afterEach(() => db.query("delete from media"));

  after(async () => {
    await db?.close();
    await database?.drop();
  });

  /** A media item whose processing ended at `endedAt`, with one pending analytics callback. */
  async function pendingDelivery(endedAt: Date): Promise<string> {
    const parsed = parseConfiguration(
      JSON.stringify({ publish: { callbacks: [{ url: "https://receiver.example.com/hook" }] } }),
      { allowHttp: false, allowPrivate: false },
    );
    assert.ok(parsed.ok);
    const mediaId = randomUUID();
    const deliveryId = randomUUID();
    await insertMedia(db, {
      mediaId,
      accountId,
      configuration: parsed.value,
      metadata: undefined,
      mediaUrl: undefined,
      mediaContentType: "audio/x-wav",
      originalBlob: undefined,
      originalBytes: undefined,
      timeToLiveSeconds: 3600,
      dateCreated: endedAt,
      deliveryIds: [deliveryId],
    });
    await startProcessing(db, mediaId);
    assert.equal(
      await finishWith(db, mediaId, { status: "finished", sections: {}, messages: [] }, endedAt),
      true,
    );
    return deliveryId;
  }

  async function stateOf(deliveryId: string) {
    const { rows } = await db.query<{ state: string; due_at: Date | null; scheduled_attempt: number }>(
      "select state, due_at, scheduled_attempt from deliveries where delivery_id = $1",
      [deliveryId],
    );
    return rows[0];
  }

  function lastTry(deliveryId: string, succeeded: boolean): AttemptRecord {
    return {
      deliveryId,
      scheduledAttempt: 0,
      try: 0,
      startedAt: T0,
      durationMs: 12,
      succeeded,
      ...(succeeded ? { statusCode: 200 } : { statusCode: 503, errorKind: "http-status" as const }),
    };
  }

  it("claims only due deliveries, oldest first, at most as many as asked, each once", async () => {
    const base = 1000;
    const later = await pendingDelivery(at(base + 2));
    const first = await pendingDelivery(at(base));
    const notYet = await pendingDelivery(at(base + 60));
    const claimed = await claimDue(db, at(base + 5), 1, at(base + 40));
    assert.deepEqual(
      claimed.map((d) => d.deliveryId),
      [first],
    );
    const [delivery] = claimed;
    assert.equal(delivery?.state, "trying");
    assert.equal(delivery?.contentType, "application/json");
    assert.equal(
      JSON.parse(String(delivery?.body)).status,
      "finished",
      "the body rendered at the end comes along",
    );
    assert.deepEqual(delivery?.firstTryAt, at(base));

    const rest = await claimDue(db, at(base + 5), 10, at(base + 40));
    assert.deepEqual(
      rest.map((d) => d.deliveryId),
      [later],
      "the claimed one is not due again, the future one not yet",
    );
    assert.notEqual(rest[0]?.claim, delivery?.claim);
    assert.equal((await stateOf(notYet))?.state, "pending");
  });

  it("a lapsed claim makes the delivery due again; the stale claim's outcome is not applied", async () => {
    const base = 2000;
    const deliveryId = await pendingDelivery(at(base));
    const [dead] = await claimDue(db, at(base), 10, at(base + 30));
    assert.ok(dead);
    assert.deepEqual(await claimDue(db, at(base + 29), 10, at(base + 59)), [], "still held");
    const [taken] = await claimDue(db, at(base + 30), 10, at(base + 60));
    assert.equal(taken?.deliveryId, deliveryId, "due again when the claim lapses");
    assert.ok(taken);

    const stale: BurstEnd = {
      deliveryId,
      claim: dead.claim,
      outcome: { state: "exhausted", at: at(base + 31) },
      lastTry: lastTry(deliveryId, false),
    };
    await endBursts(db, [stale]);
    assert.equal((await stateOf(deliveryId))?.state, "trying", "the stale outcome changed nothing");
    await endBursts(db, [
      {
        deliveryId,
        claim: taken.claim,
        outcome: { state: "succeeded", at: at(base + 32) },
        lastTry: lastTry(deliveryId, true),
      },
    ]);
    const [record] = await deliveriesOf(db, (await mediaOf(deliveryId)) ?? "");
    assert.equal(record?.state, "succeeded");
    assert.deepEqual(record?.endedAt, at(base + 32));
    assert.equal((await stateOf(deliveryId))?.due_at, null, "never due again");
    assert.equal(await attemptCount(deliveryId), 2, "both bursts' tries are recorded: they happened");
  });

  it("a try that does not end the burst is recorded and extends the claim", async () => {
    const base = 3000;
    const deliveryId = await pendingDelivery(at(base));
    const [delivery] = await claimDue(db, at(base), 10, at(base + 30));
    assert.ok(delivery);
    await recordAttempt(db, lastTry(deliveryId, false), { claim: delivery.claim, until: at(base + 50) });
    assert.deepEqual((await stateOf(deliveryId))?.due_at, at(base + 50));
    assert.equal(await attemptCount(deliveryId), 1);
  });

  it("records many bursts in one statement: next attempts scheduled, ended ones closed", async () => {
    const base = 4000;
    const ids = [
      await pendingDelivery(at(base)),
      await pendingDelivery(at(base)),
      await pendingDelivery(at(base)),
    ];
    const claimed = await claimDue(db, at(base), 10, at(base + 30));
    assert.equal(claimed.length, 3);
    const claimOf = (id: string) => claimed.find((d) => d.deliveryId === id)?.claim ?? "";
    const [retry, done, exhausted] = ids as [string, string, string];
    await endBursts(db, [
      {
        deliveryId: retry,
        claim: claimOf(retry),
        outcome: { state: "will-retry", nextIndex: 1, nextAt: at(base + 900) },
        lastTry: lastTry(retry, false),
      },
      {
        deliveryId: done,
        claim: claimOf(done),
        outcome: { state: "succeeded", at: at(base + 1) },
        lastTry: lastTry(done, true),
      },
      {
        deliveryId: exhausted,
        claim: claimOf(exhausted),
        outcome: { state: "exhausted", at: at(base + 1) },
        lastTry: lastTry(exhausted, false),
      },
    ]);
    assert.deepEqual(await stateOf(retry), {
      state: "will-retry",
      due_at: at(base + 900),
      scheduled_attempt: 1,
    });
    assert.deepEqual(await stateOf(done), { state: "succeeded", due_at: null, scheduled_attempt: 0 });
    assert.deepEqual(await stateOf(exhausted), { state: "exhausted", due_at: null, scheduled_attempt: 0 });
    assert.deepEqual(await claimDue(db, at(base + 899), 10, at(base + 930)), []);
    const [next] = await claimDue(db, at(base + 900), 10, at(base + 930));
    assert.equal(next?.deliveryId, retry, "the next scheduled attempt is due at its time");
    assert.equal(next?.scheduledAttempt, 1);
  });

  it("redelivery starts the schedule afresh from now, unless there is nothing to send, it is due, a burst runs or the last redelivery was under a minute ago", async () => {
    const base = 5000;
    const deliveryId = await pendingDelivery(at(base));
    const mediaId = (await mediaOf(deliveryId)) ?? "";
    const [claimed] = await claimDue(db, at(base), 10, at(base + 30));
    assert.ok(claimed);
    assert.deepEqual(await redeliver(db, mediaId, deliveryId, at(base + 1), MINUTE), { state: "trying" });
    await endBursts(db, [
      {
        deliveryId,
        claim: claimed.claim,
        outcome: { state: "succeeded", at: at(base + 1) },
        lastTry: lastTry(deliveryId, true),
      },
    ]);

    const again = await redeliver(db, mediaId, deliveryId, at(base + 600), MINUTE);
    assert.ok(again && "deliveryId" in again, JSON.stringify(again));
    assert.equal(again.state, "pending");
    assert.deepEqual(again.nextTryAt, at(base + 600));
    assert.equal(again.endedAt, undefined);
    const [next] = await claimDue(db, at(base + 600), 10, at(base + 630));
    assert.equal(next?.deliveryId, deliveryId, "due at once");
    assert.equal(next?.scheduledAttempt, 0, "the schedule starts again");
    assert.deepEqual(next?.firstTryAt, at(base + 600), "counted from the redelivery");
    assert.equal(JSON.parse(String(next?.body)).mediaId, mediaId, "the same body");
    await endBursts(db, [
      {
        deliveryId,
        claim: next?.claim ?? "",
        outcome: { state: "succeeded", at: at(base + 601) },
        lastTry: { ...lastTry(deliveryId, true), startedAt: at(base + 600) },
      },
    ]);
    assert.deepEqual(
      await redeliver(db, mediaId, deliveryId, at(base + 630), MINUTE),
      { retryAfterMs: 30_000 },
      "a minute between redeliveries",
    );
    const later = await redeliver(db, mediaId, deliveryId, at(base + 660), MINUTE);
    assert.ok(later && "deliveryId" in later, "a minute after the last redelivery");
    assert.deepEqual(
      await redeliver(db, mediaId, deliveryId, at(base + 660), MINUTE),
      { state: "pending" },
      "not while it is due already",
    );

    assert.equal(
      await redeliver(db, randomUUID(), deliveryId, at(base), MINUTE),
      undefined,
      "another item's delivery",
    );
    await db.query("update deliveries set state = 'skipped', due_at = null where delivery_id = $1", [
      deliveryId,
    ]);
    assert.deepEqual(await redeliver(db, mediaId, deliveryId, at(base + 700), MINUTE), { state: "skipped" });
    await db.query("update deliveries set state = 'waiting' where delivery_id = $1", [deliveryId]);
    assert.deepEqual(await redeliver(db, mediaId, deliveryId, at(base + 700), MINUTE), { state: "waiting" });
  });

  async function mediaOf(deliveryId: string): Promise<string | undefined> {
    const { rows } = await db.query<{ media_id: string }>(
      "select media_id from deliveries where delivery_id = $1",
      [deliveryId],
    );
    return rows[0]?.media_id;
  }

  async function attemptCount(deliveryId: string): Promise<number> {
    const { rows } = await db.query<{ count: number }>(
      "select count(*)::int as count from delivery_attempts where delivery_id = $1",
      [deliveryId],
    );
    return rows[0]?.count ?? 0;
  }
});

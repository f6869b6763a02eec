import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { deliveryFates } from "../../src/callbacks/prepare.ts";
import type { Account } from "../../src/domain/account.ts";
import type { Configuration } from "../../src/domain/configuration.ts";
import { parseConfiguration } from "../../src/intake/configuration.ts";
import { endedMedia, type ProcessingOutcome } from "../../src/processing/end-processing.ts";
import { createAccount } from "../../src/store/accounts.ts";
import { type Database, openDatabase } from "../../src/store/database.ts";
import {
  deleteMedia,
  finishProcessing,
  getMedia,
  insertMedia,
  type NewMedia,
  startProcessing,
} from "../../src/store/media.ts";
import { searchMedia } from "../../src/store/media-search.ts";
import { freshDatabase, type TestDatabase } from "../support/database.ts";
import { finishWith, TEST_LINKS } from "../support/finish.ts";

const CALLBACKS = [
  { url: "https://receiver.example.com/analytics", type: "analytics" },
  { url: "https://receiver.example.com/transcript", type: "transcript", format: "srt" },
  { url: "https://receiver.example.com/media", type: "media", method: "put" },
];

function configuration(raw: Record<string, unknown>): Configuration {
  const parsed = parseConfiguration(JSON.stringify(raw), { allowHttp: false, allowPrivate: false });
  if (!parsed.ok) throw new Error(`test configuration refused: ${JSON.stringify(parsed.errors)}`);
  return parsed.value;
}

/** The account's media, newest first, as `GET /v3/media` lists them. */
async function listMedia(db: Database, accountId: string, query: { limit: number; externalId?: string }) {
  return (
    await searchMedia(db, accountId, {
      sortOrder: "desc",
      extended: [],
      pageMetadataBytes: 4 * 1024 ** 2,
      ...query,
    })
  ).media;
}

async function newAccount(db: Database, prefix: string): Promise<Account> {
  const created = await createAccount(db, `${prefix}-${randomUUID()}`);
  if (!created) throw new Error("account name taken");
  return { accountId: created.accountId, accountName: created.accountName };
}

const transcript = { confidence: 0, words: [], voiceActivity: [], alternateFormats: [] };
const WITH_CALLBACKS = configuration({ publish: { callbacks: CALLBACKS } });
const DAY = 86_400;

describe("media store", () => {
  let database: TestDatabase;
  let db: Database;
  let account: Account;
  let otherAccount: Account;

  before(async () => {
    database = await freshDatabase();
    db = openDatabase(database.url, 4);
    account = await newAccount(db, "media-test");
    otherAccount = await newAccount(db, "media-test-other");
  });

  after(async () => {
    await db?.close();
    await database?.drop();
  });

  function newMedia(overrides: Partial<NewMedia> = {}): NewMedia {
    const config = overrides.configuration ?? WITH_CALLBACKS;
    return {
      mediaId: randomUUID(),
      accountId: account.accountId,
      configuration: config,
      metadata: undefined,
      mediaUrl: undefined,
      mediaContentType: "audio/x-wav",
      originalBlob: undefined,
      originalBytes: undefined,
      timeToLiveSeconds: DAY,
      dateCreated: new Date("2025-03-01T10:00:00Z"),
      deliveryIds: config.callbacks.map(() => randomUUID()),
      ...overrides,
    };
  }

  async function deliveries(mediaId: string) {
    const { rows } = await db.query<{ delivery_id: string; position: number; state: string; type: string }>(
      "select delivery_id, position, state, callback ->> 'type' as type from deliveries where media_id = $1 order by position",
      [mediaId],
    );
    return rows;
  }

  it("stores a media item with one waiting delivery per callback, in order", async () => {
    const media = newMedia({ metadata: { title: "Call", externalId: "crm-1" } });
    await insertMedia(db, media);

    const found = await getMedia(db, media.mediaId, account.accountId);
    assert.ok(found);
    assert.equal(found.status, "accepted");
    assert.deepEqual(found.account, account);
    assert.deepEqual(found.configuration, WITH_CALLBACKS);
    assert.deepEqual(found.metadata, { title: "Call", externalId: "crm-1" });
    assert.deepEqual(found.dateCreated, media.dateCreated);
    assert.deepEqual(
      found.expiresOn,
      new Date("2025-03-02T10:00:00Z"),
      "dateCreated + TTL until processing ends",
    );
    assert.equal(found.dateFinished, undefined);

    const rows = await deliveries(media.mediaId);
    assert.deepEqual(
      rows.map((row) => [row.delivery_id, row.position, row.state, row.type]),
      [
        [media.deliveryIds[0], 0, "waiting", "analytics"],
        [media.deliveryIds[1], 1, "waiting", "transcript"],
        [media.deliveryIds[2], 2, "waiting", "media"],
      ],
    );
  });

  it("a finished item makes every delivery pending, due at once with its body", async () => {
    const media = newMedia({ originalBlob: "media/x/original" });
    await insertMedia(db, media);
    assert.equal(await startProcessing(db, media.mediaId), true);
    const dateFinished = new Date("2025-03-01T10:05:00Z");
    const ended = await finishWith(
      db,
      media.mediaId,
      { status: "finished", sections: { transcript }, messages: [] },
      dateFinished,
    );
    assert.equal(ended, true);
    const rows = await db.query<{
      state: string;
      due_at: Date;
      content_type: string;
      body: Buffer | null;
      body_blob: string | null;
    }>(
      "select state, due_at, content_type, body, body_blob from deliveries where media_id = $1 order by position",
      [media.mediaId],
    );
    assert.deepEqual(
      rows.rows.map((row) => [row.state, row.due_at, row.content_type, row.body_blob]),
      [
        ["pending", dateFinished, "application/json", null],
        ["pending", dateFinished, "text/srt", null],
        ["pending", dateFinished, "application/octet-stream", "media/x/original"],
      ],
    );
    assert.equal(
      JSON.parse(String(rows.rows[0]?.body)).mediaId,
      media.mediaId,
      "the analytics body is stored",
    );
    const found = await getMedia(db, media.mediaId);
    assert.equal(found?.status, "finished");
    assert.deepEqual(found?.sections, { transcript });
    assert.deepEqual(found?.dateFinished, dateFinished);
    assert.deepEqual(found?.expiresOn, new Date(dateFinished.getTime() + DAY * 1000), "dateFinished + TTL");
  });

  it("a failed item sends only the analytics callback; the others are skipped", async () => {
    const media = newMedia({ timeToLiveSeconds: 3600 });
    await insertMedia(db, media);
    await startProcessing(db, media.mediaId);
    const dateFinished = new Date("2025-03-01T11:00:00Z");
    const ended = await finishWith(
      db,
      media.mediaId,
      {
        status: "failed",
        sections: {},
        errors: [{ code: 10101, error: "the media could not be decoded" }],
        messages: [],
      },
      dateFinished,
    );
    assert.equal(ended, true);
    assert.deepEqual(
      (await deliveries(media.mediaId)).map((row) => [row.type, row.state]),
      [
        ["analytics", "pending"],
        ["transcript", "skipped"],
        ["media", "skipped"],
      ],
    );
    const found = await getMedia(db, media.mediaId);
    assert.equal(found?.status, "failed");
    assert.deepEqual(found?.errors, [{ code: 10101, error: "the media could not be decoded" }]);
    assert.deepEqual(found?.expiresOn, new Date("2025-03-01T12:00:00Z"));
  });

  it("processing ends once: finishing twice changes nothing and sends no callback twice", async () => {
    const media = newMedia();
    await insertMedia(db, media);
    const outcome: ProcessingOutcome = { status: "finished", sections: { transcript }, messages: [] };
    assert.equal(await finishWith(db, media.mediaId, outcome), false, "not running yet: nothing ends");
    await startProcessing(db, media.mediaId);
    // Both read the item while it was running; only the first statement ends it.
    const running = await getMedia(db, media.mediaId);
    assert.ok(running);
    assert.equal(await finishWith(db, media.mediaId, outcome), true);
    const failed = endedMedia(
      running,
      { ...outcome, status: "failed", errors: [{ code: 1, error: "late" }] },
      new Date(),
    );
    assert.equal(await finishProcessing(db, failed, deliveryFates(failed, TEST_LINKS)), false);
    assert.deepEqual(
      (await deliveries(media.mediaId)).map((row) => row.state),
      ["pending", "pending", "skipped"],
      "the first end's fates stand (no original stream: the media callback is skipped)",
    );
    assert.equal((await getMedia(db, media.mediaId))?.status, "finished", "the first end stands");
    assert.equal(await startProcessing(db, media.mediaId), false, "an ended item does not start again");
  });

  it("lists an account's media newest first, honouring limit and externalId", async () => {
    const lister = await newAccount(db, "lister");
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      const media = newMedia({
        accountId: lister.accountId,
        dateCreated: new Date(Date.UTC(2025, 0, 1 + i)),
        metadata: { externalId: i % 2 === 0 ? "even" : "odd" },
      });
      await insertMedia(db, media);
      ids.push(media.mediaId);
    }
    // Another account's media with the same external id must not show up.
    await insertMedia(db, newMedia({ accountId: otherAccount.accountId, metadata: { externalId: "even" } }));

    const all = await listMedia(db, lister.accountId, { limit: 100 });
    assert.deepEqual(
      all.map((m) => m.mediaId),
      [...ids].reverse(),
    );
    const firstTwo = await listMedia(db, lister.accountId, { limit: 2 });
    assert.deepEqual(
      firstTwo.map((m) => m.mediaId),
      [ids[3], ids[2]],
    );
    const even = await listMedia(db, lister.accountId, { limit: 100, externalId: "even" });
    assert.deepEqual(
      even.map((m) => m.mediaId),
      [ids[2], ids[0]],
    );
    assert.deepEqual(await listMedia(db, lister.accountId, { limit: 100, externalId: "none" }), []);
  });

  it("hides one account's media from another", async () => {
    const media = newMedia();
    await insertMedia(db, media);
    assert.equal(await getMedia(db, media.mediaId, otherAccount.accountId), undefined);
    assert.ok(
      (await listMedia(db, otherAccount.accountId, { limit: 1000 })).every(
        (m) => m.mediaId !== media.mediaId,
      ),
    );
    assert.equal(await deleteMedia(db, media.mediaId, otherAccount.accountId), false);
    assert.ok(await getMedia(db, media.mediaId, account.accountId), "still there for its owner");
  });

  it("deleting a media item deletes its deliveries", async () => {
    const media = newMedia();
    await insertMedia(db, media);
    assert.equal((await deliveries(media.mediaId)).length, 3);
    assert.equal(await deleteMedia(db, media.mediaId, account.accountId), true);
    assert.equal(await getMedia(db, media.mediaId), undefined);
    assert.deepEqual(await deliveries(media.mediaId), []);
    assert.equal(
      await deleteMedia(db, media.mediaId, account.accountId),
      false,
      "a second delete finds nothing",
    );
  });

  it("a transaction that throws leaves neither the media item nor its deliveries", async () => {
    const media = newMedia();
    await assert.rejects(
      db.transaction(async (sql) => {
        await insertMedia(sql, media);
        assert.ok(await getMedia(sql, media.mediaId), "visible inside the transaction");
        throw new Error("enqueueing the job failed");
      }),
      /enqueueing the job failed/,
    );
    assert.equal(await getMedia(db, media.mediaId), undefined);
    assert.deepEqual(await deliveries(media.mediaId), []);
  });

  it("stores a media item without callbacks", async () => {
    const media = newMedia({ configuration: configuration({}) });
    await insertMedia(db, media);
    assert.deepEqual(await deliveries(media.mediaId), []);
    await startProcessing(db, media.mediaId);
    assert.equal(
      await finishWith(db, media.mediaId, { status: "finished", sections: {}, messages: [] }),
      true,
    );
    assert.equal((await getMedia(db, media.mediaId))?.status, "finished");
  });
});

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { after, before, beforeEach, describe, it } from "node:test";
import type { BlobStore } from "../../src/blobs/blob-store.ts";
import { mediaPrefix, originalKey } from "../../src/blobs/blob-store.ts";
import { filesystemBlobStore } from "../../src/blobs/filesystem-blob-store.ts";
import type { Configuration } from "../../src/domain/configuration.ts";
import { parseConfiguration } from "../../src/intake/configuration.ts";
import { sweepExpired } from "../../src/processing/sweeper.ts";
import type { Clock } from "../../src/services.ts";
import { createAccount } from "../../src/store/accounts.ts";
import { type Database, openDatabase } from "../../src/store/database.ts";
import { getMedia, insertMedia, startProcessing } from "../../src/store/media.ts";
import { freshDatabase, type TestDatabase } from "../support/database.ts";
import { finishWith } from "../support/finish.ts";

function configuration(raw: Record<string, unknown>): Configuration {
  const parsed = parseConfiguration(JSON.stringify(raw), { allowHttp: false, allowPrivate: false });
  if (!parsed.ok) throw new Error(`test configuration refused: ${JSON.stringify(parsed.errors)}`);
  return parsed.value;
}

const NO_CALLBACKS = configuration({});
const ONE_CALLBACK = configuration({
  publish: { callbacks: [{ url: "https://receiver.example.com/hook" }] },
});
const CREATED = new Date("2025-05-01T00:00:00Z");
const HOUR = 3600;

/** A clock that says whatever the test last set. */
function fixedClock(): Clock & { set(date: Date): void } {
  let now = new Date(0);
  return {
    now: () => now,
    set(date) {
      now = date;
    },
  };
}

describe("sweepExpired", () => {
  let database: TestDatabase;
  let db: Database;
  let blobDir: string;
  let blobs: BlobStore;
  let accountId: string;
  const clock = fixedClock();
  const sweep = () => sweepExpired({ db, blobs, clock });

  before(async () => {
    database = await freshDatabase();
    db = openDatabase(database.url, 4);
    blobDir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-sweeper-"));
    blobs = filesystemBlobStore(blobDir);
    const account = await createAccount(db, "sweeper-test");
    assert.ok(account);
    accountId = account.accountId;
  });

  beforeEach(async () => {
    await db.query("delete from media");
  });

  after(async () => {
    await db?.close();
    await database?.drop();
    if (blobDir) await fs.rm(blobDir, { recursive: true, force: true });
  });

  /** A media item with its original bytes stored, living `ttlSeconds` from CREATED. */
  async function media(ttlSeconds: number, config = NO_CALLBACKS): Promise<string> {
    const mediaId = randomUUID();
    await blobs.put(originalKey(mediaId), Readable.from([Buffer.from(`bytes of ${mediaId}`)]));
    await blobs.put(`${mediaPrefix(mediaId)}streams/mono.wav`, Readable.from([Buffer.from("derived")]));
    await insertMedia(db, {
      mediaId,
      accountId,
      configuration: config,
      metadata: undefined,
      mediaUrl: undefined,
      mediaContentType: "audio/x-wav",
      originalBlob: originalKey(mediaId),
      originalBytes: 45,
      timeToLiveSeconds: ttlSeconds,
      dateCreated: CREATED,
      deliveryIds: config.callbacks.map(() => randomUUID()),
    });
    return mediaId;
  }

  async function exists(mediaId: string): Promise<{ row: boolean; blob: boolean }> {
    return {
      row: (await getMedia(db, mediaId)) !== undefined,
      blob: (await blobs.size(originalKey(mediaId))) !== undefined,
    };
  }

  it("deletes media past their time to live, with their blobs, and keeps the others", async () => {
    const expired = await media(HOUR);
    const expiresNow = await media(2 * HOUR);
    const notYet = await media(2 * HOUR + 1);
    clock.set(new Date(CREATED.getTime() + 2 * HOUR * 1000));

    const deleted = await sweep();

    assert.deepEqual(deleted.sort(), [expired, expiresNow].sort());
    assert.deepEqual(await exists(expired), { row: false, blob: false });
    assert.deepEqual(await exists(expiresNow), { row: false, blob: false });
    assert.deepEqual(
      await fs.readdir(path.join(blobDir, "media")),
      [notYet],
      "no directory left of deleted media",
    );
    assert.deepEqual(await exists(notYet), { row: true, blob: true });
    assert.equal(await blobs.size(`${mediaPrefix(notYet)}streams/mono.wav`), 7);
  });

  it("deletes nothing before anything expired, and nothing twice", async () => {
    const mediaId = await media(HOUR);
    clock.set(new Date(CREATED.getTime() + HOUR * 1000 - 1));
    assert.deepEqual(await sweep(), []);
    assert.deepEqual(await exists(mediaId), { row: true, blob: true });
    clock.set(new Date(CREATED.getTime() + HOUR * 1000));
    assert.deepEqual(await sweep(), [mediaId]);
    assert.deepEqual(await sweep(), []);
  });

  it("measures the time to live from the end of processing once processing has ended", async () => {
    const mediaId = await media(HOUR);
    await startProcessing(db, mediaId);
    await finishWith(
      db,
      mediaId,
      { status: "finished", sections: {}, messages: [] },
      new Date(CREATED.getTime() + 30 * 60 * 1000),
    );
    clock.set(new Date(CREATED.getTime() + HOUR * 1000));
    assert.deepEqual(await sweep(), [], "created an hour ago, but finished only half an hour ago");
    clock.set(new Date(CREATED.getTime() + 90 * 60 * 1000));
    assert.deepEqual(await sweep(), [mediaId]);
  });

  it("keeps an expired media item while a callback is still to be delivered, then deletes it", async () => {
    const mediaId = await media(HOUR, ONE_CALLBACK);
    await startProcessing(db, mediaId);
    assert.equal(
      await finishWith(db, mediaId, { status: "finished", sections: {}, messages: [] }, CREATED),
      true,
    );
    clock.set(new Date(CREATED.getTime() + 10 * HOUR * 1000));

    for (const state of ["pending", "trying", "will-retry"]) {
      await db.query("update deliveries set state = $2 where media_id = $1", [mediaId, state]);
      assert.deepEqual(await sweep(), [], `kept while the delivery is ${state}`);
      assert.deepEqual(await exists(mediaId), { row: true, blob: true });
    }

    await db.query("update deliveries set state = 'succeeded' where media_id = $1", [mediaId]);
    assert.deepEqual(await sweep(), [mediaId]);
    assert.deepEqual(await exists(mediaId), { row: false, blob: false });
    const { rows } = await db.query("select 1 from deliveries where media_id = $1", [mediaId]);
    assert.equal(rows.length, 0);
  });

  it("keeps an expired item whose processing has not ended (its callbacks are still waiting)", async () => {
    const mediaId = await media(HOUR, ONE_CALLBACK);
    clock.set(new Date(CREATED.getTime() + 10 * HOUR * 1000));
    assert.deepEqual(await sweep(), []);
    assert.deepEqual(await exists(mediaId), { row: true, blob: true });
  });

  it("deletes a backlog larger than one batch in one pass", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 230; i++) {
      const mediaId = randomUUID();
      ids.push(mediaId);
      await insertMedia(db, {
        mediaId,
        accountId,
        configuration: NO_CALLBACKS,
        metadata: undefined,
        mediaUrl: undefined,
        mediaContentType: undefined,
        originalBlob: undefined,
        originalBytes: undefined,
        timeToLiveSeconds: 1 + i,
        dateCreated: CREATED,
        deliveryIds: [],
      });
    }
    clock.set(new Date(CREATED.getTime() + HOUR * 1000));
    assert.deepEqual((await sweep()).sort(), ids.sort());
    const { rows } = await db.query("select count(*)::int as n from media");
    assert.equal(rows[0]?.n, 0);
  });
});

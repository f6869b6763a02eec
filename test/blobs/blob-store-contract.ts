/**
 * The behaviour every `BlobStore` must have, as a suite each store's test file runs with its own
 * subject (filesystem-blob-store.test.ts, s3-blob-store.test.ts). Not a `.test.ts` file, so the test
 * runner does not run it on its own.
 */
import assert from "node:assert/strict";
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import { Readable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { BlobNotFoundError, type BlobStore, mediaPrefix, originalKey } from "../../src/blobs/blob-store.ts";

export interface ContractSubject {
  store: BlobStore;
  /** Every object the backend holds, by its backend name (file path, object key), partial ones included. */
  listAll(): Promise<string[]>;
  dispose(): Promise<void>;
}

const CHUNK = 64 * 1024;

/**
 * `bytes` of deterministic, non-repeating content, produced one chunk at a time (nothing holds the
 * whole), and a promise of its SHA-256 once fully produced. With `failAfter`, the stream errors once
 * that many bytes have gone out.
 */
export function generated(bytes: number, options: { seed?: string; failAfter?: number } = {}) {
  const hash = createHash("sha256");
  let sent = 0;
  let counter = 0;
  const stream = new Readable({
    read() {
      if (options.failAfter !== undefined && sent >= options.failAfter) {
        this.destroy(new Error("source broke mid-way"));
        return;
      }
      if (sent >= bytes) {
        this.push(null);
        return;
      }
      const size = Math.min(CHUNK, bytes - sent);
      const chunk = Buffer.alloc(size);
      for (let offset = 0; offset < size; offset += 32) {
        createHash("sha256")
          .update(`${options.seed ?? "blob"}:${counter++}`)
          .digest()
          .copy(chunk, offset);
      }
      hash.update(chunk);
      sent += size;
      this.push(chunk);
    },
  });
  return { stream, digest: () => hash.digest("hex") };
}

export async function sha256Of(stream: Readable): Promise<{ hex: string; bytes: number }> {
  const hash = createHash("sha256");
  let bytes = 0;
  for await (const chunk of stream) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { hex: hash.digest("hex"), bytes };
}

/** The behaviour every `BlobStore` must have; an S3 store runs the same suite with its own subject. */
export function blobStoreContract(name: string, makeStore: () => Promise<ContractSubject>): void {
  describe(`${name} (BlobStore contract)`, () => {
    let subject: ContractSubject;
    let store: BlobStore;
    before(async () => {
      subject = await makeStore();
      store = subject.store;
    });
    after(() => subject.dispose());

    it("stores a multi-megabyte stream and streams it back byte for byte", async () => {
      const mediaId = randomUUID();
      const bytes = 5 * 1024 * 1024 + 123;
      const source = generated(bytes);
      assert.equal(await store.put(originalKey(mediaId), source.stream), bytes);
      const expected = source.digest();
      assert.equal(await store.size(originalKey(mediaId)), bytes);
      const readBack = await sha256Of(await store.read(originalKey(mediaId)));
      assert.equal(readBack.bytes, bytes);
      assert.equal(readBack.hex, expected);
    });

    it("stores an empty blob", async () => {
      const key = `${mediaPrefix(randomUUID())}empty`;
      assert.equal(await store.put(key, Readable.from([])), 0);
      assert.equal(await store.size(key), 0);
      assert.equal((await sha256Of(await store.read(key))).bytes, 0);
    });

    it("replaces a blob put again under the same key", async () => {
      const key = originalKey(randomUUID());
      await store.put(key, generated(300_000, { seed: "first" }).stream);
      const second = generated(100_000, { seed: "second" });
      assert.equal(await store.put(key, second.stream), 100_000);
      assert.equal(await store.size(key), 100_000);
      assert.equal((await sha256Of(await store.read(key))).hex, second.digest());
    });

    it("lends a local file holding the bytes", async () => {
      const key = originalKey(randomUUID());
      const source = generated(1_000_000);
      await store.put(key, source.stream);
      const expected = source.digest();
      const seen = await store.withLocalFile(key, async (file) => {
        const content = await fs.readFile(file);
        return { bytes: content.length, hex: createHash("sha256").update(content).digest("hex") };
      });
      assert.deepEqual(seen, { bytes: 1_000_000, hex: expected });
    });

    it("passes on what the work returns and what it throws", async () => {
      const key = originalKey(randomUUID());
      await store.put(key, Readable.from([Buffer.from("abc")]));
      assert.equal(await store.withLocalFile(key, async () => 42), 42);
      await assert.rejects(
        store.withLocalFile(key, async () => {
          throw new Error("tool failed");
        }),
        /tool failed/,
      );
    });

    it("reports a missing blob: read and withLocalFile reject with BlobNotFoundError, size is undefined", async () => {
      const key = originalKey(randomUUID());
      await assert.rejects(store.read(key), BlobNotFoundError);
      assert.equal(await store.size(key), undefined);
      let called = false;
      await assert.rejects(
        store.withLocalFile(key, async () => {
          called = true;
        }),
        BlobNotFoundError,
      );
      assert.equal(called, false);
    });

    it("deletePrefix removes every blob of a media item and nothing else", async () => {
      const doomed = randomUUID();
      const kept = randomUUID();
      for (const key of [
        originalKey(doomed),
        `${mediaPrefix(doomed)}streams/mono.wav`,
        `${mediaPrefix(doomed)}a/b/c`,
      ]) {
        await store.put(key, Readable.from([Buffer.from(key)]));
      }
      await store.put(originalKey(kept), Readable.from([Buffer.from("kept")]));
      await store.deletePrefix(mediaPrefix(doomed));
      for (const key of [
        originalKey(doomed),
        `${mediaPrefix(doomed)}streams/mono.wav`,
        `${mediaPrefix(doomed)}a/b/c`,
      ]) {
        assert.equal(await store.size(key), undefined, key);
        await assert.rejects(store.read(key), BlobNotFoundError);
      }
      assert.equal(await store.size(originalKey(kept)), 4);
      assert.equal((await subject.listAll()).filter((name) => name.includes(doomed)).length, 0);
    });

    it("deletePrefix treats the prefix as a folder, with or without its trailing slash", async () => {
      const mediaId = randomUUID();
      const folder = mediaPrefix(mediaId).replace(/\/$/, "");
      const inside = [`${folder}/original`, `${folder}/streams/mono.wav`];
      const beside = [`${folder}-other/original`, `${folder}x`];
      for (const key of [...inside, ...beside]) await store.put(key, Readable.from([Buffer.from(key)]));
      await store.deletePrefix(folder);
      for (const key of inside) assert.equal(await store.size(key), undefined, key);
      for (const key of beside) assert.equal(await store.size(key), Buffer.byteLength(key), key);
    });

    it("delete removes that one blob, not one whose key merely starts the same", async () => {
      const mediaId = randomUUID();
      await store.put(originalKey(mediaId), Readable.from([Buffer.from("plain")]));
      await store.put(`${originalKey(mediaId)}-encrypted`, Readable.from([Buffer.from("sealed")]));
      await store.delete(originalKey(mediaId));
      await store.delete(originalKey(mediaId));
      assert.equal(await store.size(originalKey(mediaId)), undefined);
      assert.equal(await store.size(`${originalKey(mediaId)}-encrypted`), 6);
    });

    it("deletePrefix of a prefix with nothing under it is a no-op", async () => {
      const before = await subject.listAll();
      await store.deletePrefix(mediaPrefix(randomUUID()));
      await store.deletePrefix(mediaPrefix(randomUUID()));
      assert.deepEqual(await subject.listAll(), before);
    });

    it("a source that fails mid-way leaves no blob and no partial object behind", async () => {
      const mediaId = randomUUID();
      const key = originalKey(mediaId);
      await assert.rejects(
        store.put(key, generated(4 * 1024 * 1024, { failAfter: 1024 * 1024 }).stream),
        /mid-way/,
      );
      assert.equal(await store.size(key), undefined);
      await assert.rejects(store.read(key), BlobNotFoundError);
      const leftovers = (await subject.listAll()).filter((name) => name.includes(mediaId));
      assert.deepEqual(leftovers, []);
    });

    it("a failed put over an existing blob leaves the old blob whole", async () => {
      const key = originalKey(randomUUID());
      const first = generated(200_000, { seed: "old" });
      await store.put(key, first.stream);
      const expected = first.digest();
      await assert.rejects(
        store.put(key, generated(1024 * 1024, { failAfter: 512 * 1024 }).stream),
        /mid-way/,
      );
      assert.equal(await store.size(key), 200_000);
      assert.equal((await sha256Of(await store.read(key))).hex, expected);
    });

    it("refuses keys that climb out with .. or are absolute", async () => {
      const before = await subject.listAll();
      for (const key of [
        "../escaped",
        "media/../../escaped",
        "media/x/../../../escaped",
        "/tmp/escaped",
        "/etc/passwd",
        "..",
      ]) {
        await assert.rejects(store.put(key, Readable.from([Buffer.from("x")])), Error, `put ${key}`);
        await assert.rejects(store.read(key), Error, `read ${key}`);
        await assert.rejects(store.size(key), Error, `size ${key}`);
        await assert.rejects(
          store.withLocalFile(key, async () => {}),
          Error,
          `withLocalFile ${key}`,
        );
        await assert.rejects(store.deletePrefix(key), Error, `deletePrefix ${key}`);
      }
      assert.deepEqual(await subject.listAll(), before);
    });
  });
}

import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { paginateListObjectsV2, S3Client } from "@aws-sdk/client-s3";
import { BlobNotFoundError, originalKey } from "../../src/blobs/blob-store.ts";
import { s3BlobStore } from "../../src/blobs/s3-blob-store.ts";
import { startS3Server, type TestS3Server } from "../support/s3-server.ts";
import { blobStoreContract, generated, sha256Of } from "./blob-store-contract.ts";

async function listKeys(server: TestS3Server): Promise<string[]> {
  const client = new S3Client({
    endpoint: server.endpoint,
    region: server.region,
    forcePathStyle: server.forcePathStyle,
    credentials: server,
  });
  try {
    const keys: string[] = [];
    for await (const page of paginateListObjectsV2({ client }, { Bucket: server.bucket })) {
      for (const { Key } of page.Contents ?? []) if (Key !== undefined) keys.push(Key);
    }
    return keys.sort();
  } finally {
    client.destroy();
  }
}

async function startStore(options: { bucket?: string } = {}) {
  const server = await startS3Server();
  const tempDir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-s3-blobs-"));
  const store = s3BlobStore({ ...server, bucket: options.bucket ?? server.bucket, tempDir });
  return {
    server,
    store,
    tempDir,
    async dispose() {
      store.close();
      await server.stop();
      await fs.rm(tempDir, { recursive: true, force: true });
    },
  };
}

// An S3 server never lists an unfinished multipart upload as an object, so "no partial object" is the
// object list holding nothing under the key.
blobStoreContract("s3BlobStore", async () => {
  const started = await startStore();
  return {
    store: started.store,
    listAll: () => listKeys(started.server),
    dispose: () => started.dispose(),
  };
});

describe("s3BlobStore", () => {
  let started: Awaited<ReturnType<typeof startStore>>;
  before(async () => {
    started = await startStore();
  });
  after(() => started.dispose());

  it("stores a blob of several multipart parts and streams it back byte for byte", async () => {
    const key = originalKey(randomUUID());
    const bytes = 20 * 1024 * 1024 + 7;
    const source = generated(bytes, { seed: "parts" });
    assert.equal(await started.store.put(key, source.stream), bytes);
    const expected = source.digest();
    assert.equal(await started.store.size(key), bytes);
    assert.deepEqual(await sha256Of(await started.store.read(key)), { hex: expected, bytes });
  });

  it("a source that breaks after parts have gone up reports its own error and leaves no object", async () => {
    const mediaId = randomUUID();
    const key = originalKey(mediaId);
    await assert.rejects(
      started.store.put(key, generated(24 * 1024 * 1024, { failAfter: 18 * 1024 * 1024 }).stream),
      /mid-way/,
    );
    assert.equal(await started.store.size(key), undefined);
    assert.deepEqual(
      (await listKeys(started.server)).filter((name) => name.includes(mediaId)),
      [],
    );
  });

  it("withLocalFile leaves no file behind in tempDir, whether the work succeeds or throws", async () => {
    const key = originalKey(randomUUID());
    await started.store.put(key, Readable.from([Buffer.from("audio")]));
    let lent = "";
    await started.store.withLocalFile(key, async (file) => {
      lent = file;
      assert.equal(path.dirname(file), started.tempDir);
      assert.equal(await fs.readFile(file, "utf8"), "audio");
    });
    await assert.rejects(
      started.store.withLocalFile(key, async () => {
        throw new Error("ffmpeg failed");
      }),
      /ffmpeg failed/,
    );
    await assert.rejects(
      started.store.withLocalFile(originalKey(randomUUID()), async () => {}),
      BlobNotFoundError,
    );
    await assert.rejects(fs.stat(lent), { code: "ENOENT" });
    assert.deepEqual(await fs.readdir(started.tempDir), []);
  });

  it("names the bucket and server when the bucket does not exist, instead of reporting blobs missing", async () => {
    const missing = await startStore({ bucket: "no-such-bucket" });
    try {
      const key = originalKey(randomUUID());
      const named = (error: unknown) => {
        assert.ok(error instanceof Error && !(error instanceof BlobNotFoundError));
        assert.match(error.message, /no bucket "no-such-bucket" at http:\/\/127\.0\.0\.1:\d+/);
        return true;
      };
      await assert.rejects(missing.store.put(key, Readable.from([Buffer.from("x")])), named);
      await assert.rejects(missing.store.read(key), named);
      await assert.rejects(missing.store.size(key), named);
      await assert.rejects(
        missing.store.withLocalFile(key, async () => {}),
        named,
      );
      await assert.rejects(missing.store.deletePrefix("media/x/"), named);
    } finally {
      await missing.dispose();
    }
  });
});

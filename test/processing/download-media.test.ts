/**
 * `mediaUrl` downloads go through the same address guard as callbacks: a host that resolves, at download
 * time, to an address that is not public is never contacted, and nothing is stored. Against a real
 * local server on 127.0.0.1, reached through invented names and an injected resolver.
 */
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { BlobStore } from "../../src/blobs/blob-store.ts";
import { filesystemBlobStore } from "../../src/blobs/filesystem-blob-store.ts";
import type { GuardOptions, Resolver } from "../../src/net/guard.ts";
import {
  type DownloadLimits,
  downloadMedia,
  MediaDownloadError,
} from "../../src/processing/download-media.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

const loopback: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];

function limits(guard: Partial<GuardOptions>): DownloadLimits {
  return { maxBytes: 1_000_000, timeoutMs: 5000, guard: { allowPrivate: false, allowCidrs: [], ...guard } };
}

describe("downloadMedia's address guard", () => {
  let receiver: Receiver;
  let port: string;
  let dir: string;
  let blobs: BlobStore;

  before(async () => {
    receiver = await startReceiver();
    port = new URL(receiver.url).port;
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-download-"));
    blobs = filesystemBlobStore(dir);
  });
  after(async () => {
    await receiver?.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** Asserts that downloading `url` is refused as unreachable, and that nothing arrived or was stored. */
  async function assertRefused(url: string, guard: Partial<GuardOptions>, key: string): Promise<void> {
    await assert.rejects(downloadMedia(url, blobs, key, limits(guard)), (error: unknown) => {
      assert.ok(error instanceof MediaDownloadError, String(error));
      assert.equal(error.kind, "unreachable");
      assert.match(error.message, /not a public address|an address that is not public/);
      return true;
    });
    assert.equal(receiver.received.filter((r) => r.path === new URL(url).pathname).length, 0);
    assert.equal(await blobs.size(key), undefined);
  }

  test("a name that resolves to a loopback address is refused and never contacted", async () => {
    await assertRefused(`http://media.test:${port}/named.wav`, { resolve: loopback }, "refused/named");
  });

  test("a loopback literal, however spelled, is refused", async () => {
    for (const host of ["127.0.0.1", "127.1", "2130706433", "[::ffff:127.0.0.1]"]) {
      await assertRefused(`http://${host}:${port}/literal.wav`, {}, "refused/literal");
    }
  });

  test("an allowed network is downloaded from, at the address the guard looked up", async () => {
    receiver.answer("/allowed.wav", {
      status: 200,
      body: "RIFF-bytes",
      headers: { "content-type": "audio/wav" },
    });
    const stored = await downloadMedia(
      `http://media.test:${port}/allowed.wav`,
      blobs,
      "allowed/original",
      limits({ resolve: loopback, allowCidrs: ["127.0.0.0/8"] }),
    );
    assert.deepEqual(stored, { bytes: 10, contentType: "audio/wav" });
    assert.equal((await receiver.next("/allowed.wav")).headers.host, `media.test:${port}`);
  });

  test("with private addresses allowed (development) the guard is off", async () => {
    receiver.answer("/dev.wav", { status: 200, body: "abc" });
    const stored = await downloadMedia(
      `${receiver.url}/dev.wav`,
      blobs,
      "dev/original",
      limits({ allowPrivate: true }),
    );
    assert.equal(stored.bytes, 3);
  });

  test("a redirect is not followed", async () => {
    receiver.answer("/moved.wav", { status: 302, headers: { location: `${receiver.url}/elsewhere.wav` } });
    await assert.rejects(
      downloadMedia(`${receiver.url}/moved.wav`, blobs, "moved/original", limits({ allowPrivate: true })),
      (error: unknown) => error instanceof MediaDownloadError && error.kind === "status",
    );
    assert.equal(receiver.received.filter((r) => r.path === "/elsewhere.wav").length, 0);
  });
});

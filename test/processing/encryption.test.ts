/**
 * Client-supplied encryption end to end: the client's OpenPGP public key uploaded, a call processed for
 * real, and everything the client receives or fetches decrypted with the private key, which Hark never
 * sees. Nothing of the results is served or kept in the clear.
 */
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import * as openpgp from "openpgp";
import { processMedia } from "../../src/processing/process-media.ts";
import { buildSpeech, tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { type Received, type Receiver, startReceiver } from "../support/receiver.ts";

describe("client-supplied encryption", () => {
  let hark: TestHark;
  let token: string;
  let receiver: Receiver;
  let dir: { dir: string; cleanup: () => Promise<void> };
  let audio: Buffer;
  let privateKey: openpgp.PrivateKey;
  let publicKeyId: string;
  let mediaId: string;
  let analytics: Received;
  let transcript: Received;
  let media: Received;

  const call = (method: "GET" | "POST", url: string, payload?: string | Buffer) =>
    hark.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(payload !== undefined && { "content-type": "application/octet-stream" }),
      },
      ...(payload !== undefined && { payload }),
    });

  async function decrypt(message: Buffer | string): Promise<Buffer> {
    const read =
      typeof message === "string"
        ? await openpgp.readMessage({ armoredMessage: message })
        : await openpgp.readMessage({ binaryMessage: message });
    const { data } = await openpgp.decrypt({ message: read, decryptionKeys: privateKey, format: "binary" });
    return Buffer.from(data as Uint8Array);
  }

  before(async () => {
    dir = await tempDir();
    const file = path.join(dir.dir, "call.wav");
    await buildSpeech([{ text: "my account number is private please keep it safe" }], file);
    audio = await fs.readFile(file);
    const keys = await openpgp.generateKey({ type: "curve25519", userIDs: [{ name: "Client" }] });
    privateKey = await openpgp.readPrivateKey({ armoredKey: keys.privateKey });
    receiver = await startReceiver();
    hark = await startTestHark(
      { HARK_CALLBACK_ALLOW_HTTP: "true", HARK_CALLBACK_ALLOW_PRIVATE: "true" },
      { workers: true },
    );
    token = await hark.createAccount();
    const stored = await call("POST", "/v3/security/public-keys", keys.publicKey);
    assert.equal(stored.statusCode, 200, stored.body);
    publicKeyId = stored.json().publicKeyId;

    const response = await hark.upload(token, {
      media: file,
      configuration: {
        encryption: { publicKeyId },
        publish: {
          callbacks: [
            { url: `${receiver.url}/analytics` },
            { url: `${receiver.url}/transcript`, type: "transcript", format: "text" },
            { url: `${receiver.url}/media`, type: "media" },
          ],
        },
      },
      metadata: { title: "Private call", externalId: "crm-secret" },
    });
    assert.equal(response.statusCode, 200, response.body);
    mediaId = response.json().mediaId;
    [analytics, transcript, media] = await Promise.all([
      receiver.next("/analytics"),
      receiver.next("/transcript"),
      receiver.next("/media"),
    ]);
  });

  after(async () => {
    await hark?.close();
    await receiver?.close();
    await dir?.cleanup();
  });

  test("the analytics callback: the envelope and the key's id and hash in the clear, the results sealed", async () => {
    assert.equal(analytics.headers["content-type"], "application/json");
    const body = JSON.parse(analytics.body.toString("utf8"));
    assert.equal(body.mediaId, mediaId);
    assert.equal(body.status, "finished");
    assert.equal(body.encryption.publishKeyId, publicKeyId);
    assert.match(body.encryption.publicKeyHash, /^[0-9a-f]{64}$/);
    assert.equal(body.transcript, undefined);
    assert.equal(body.metadata, undefined);
    // A word of the call as the transcript holds it, quoted (quotes never occur in an armored message).
    assert.ok(!analytics.body.toString("utf8").includes('"keep"'), "no word of the call in the clear");
    const document = JSON.parse((await decrypt(body.encrypted)).toString("utf8"));
    assert.equal(document.mediaId, mediaId);
    assert.equal(document.metadata.externalId, "crm-secret");
    const words = document.transcript.words
      .filter((w: { m?: string }) => !w.m)
      .map((w: { w: string }) => w.w);
    assert.ok(words.map((w: string) => w.toLowerCase()).includes("keep"), words.join(" "));
  });

  test("the transcript and media callbacks are OpenPGP messages of the rendering and of the original", async () => {
    assert.equal(transcript.headers["content-type"], "application/octet-stream");
    assert.ok(!transcript.body.toString("latin1").includes("account"));
    assert.match((await decrypt(transcript.body)).toString("utf8").toLowerCase(), /account/);
    assert.equal(media.headers["content-type"], "application/octet-stream");
    assert.deepEqual(await decrypt(media.body), audio);
  });

  test("GET shows no results; the transcript is a 404; the results are at .../encrypted", async () => {
    const document = (await call("GET", `/v3/media/${mediaId}`)).json();
    assert.equal(document.status, "finished");
    assert.equal(document.transcript, undefined);
    assert.equal(document.metadata, undefined);
    assert.equal(document.encryption.publishKeyId, publicKeyId);
    assert.equal((await call("GET", `/v3/media/${mediaId}/transcript`)).statusCode, 404);
    assert.equal((await call("GET", `/v3/media/${mediaId}/transcript/text`)).statusCode, 404);
    const sealed = await call("GET", `/v3/media/${mediaId}/encrypted`);
    assert.equal(sealed.statusCode, 200);
    const results = JSON.parse((await decrypt(sealed.rawPayload)).toString("utf8"));
    assert.equal(results.mediaId, mediaId);
    assert.ok(results.transcript.words.length > 0);
  });

  test("the streams are the encrypted copies; the plaintext original is gone", async () => {
    const { streams } = (await call("GET", `/v3/media/${mediaId}/streams`)).json();
    assert.deepEqual(
      streams.map((stream: { streamName: string }) => stream.streamName),
      ["original-encrypted"],
    );
    const stream = await call("GET", `/v3/media/${mediaId}/streams/original-encrypted`);
    assert.equal(stream.statusCode, 200);
    assert.deepEqual(await decrypt(stream.rawPayload), audio);
    assert.equal((await call("GET", `/v3/media/${mediaId}/streams/original`)).statusCode, 404);
    const files = await fs.readdir(path.join(hark.dataDir, "blobs", "media", mediaId));
    assert.deepEqual(files.sort(), ["encrypted", "original-encrypted"]);
  });

  test("a key deleted before processing ends fails the item: nothing is delivered unencrypted", async () => {
    const idle = await startTestHark({
      HARK_CALLBACK_ALLOW_HTTP: "true",
      HARK_CALLBACK_ALLOW_PRIVATE: "true",
    });
    try {
      const owner = await idle.createAccount();
      const keys = await openpgp.generateKey({ type: "curve25519", userIDs: [{ name: "Client" }] });
      const stored = await idle.app.inject({
        method: "POST",
        url: "/v3/security/public-keys",
        headers: { authorization: `Bearer ${owner}`, "content-type": "application/octet-stream" },
        payload: keys.publicKey,
      });
      const keyId = stored.json().publicKeyId as string;
      const uploaded = await idle.upload(owner, {
        media: audio,
        configuration: {
          encryption: { publicKeyId: keyId },
          publish: {
            callbacks: [
              { url: `${receiver.url}/deleted-key` },
              { url: `${receiver.url}/x`, type: "transcript" },
            ],
          },
        },
      });
      const id = uploaded.json().mediaId as string;
      assert.equal((await idle.api(owner, "DELETE", `/v3/security/public-keys/${keyId}`)).statusCode, 204);
      await processMedia(idle.services, id, { retryCount: 0 });
      const document = (await idle.api(owner, "GET", `/v3/media/${id}`)).json();
      assert.equal(document.status, "failed");
      assert.equal(document.errors[0].code, 11502);
      assert.equal(document.transcript, undefined);
      assert.deepEqual(
        document.callbacks.map((c: { state: string }) => c.state),
        ["pending", "skipped"],
        "only the analytics callback, which carries the failure and no results",
      );
    } finally {
      await idle.close();
    }
  });

  test("an upload naming a key the account does not have is refused, storing nothing", async () => {
    const response = await hark.upload(token, {
      media: audio,
      configuration: { encryption: { publicKeyId: "8c0e6f0e-0000-4000-8000-000000000000" } },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.match(response.json().errors[0].error, /not a public key of this account/);
  });
});

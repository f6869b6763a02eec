/**
 * Signed callbacks end to end: real processing (pocketsphinx decodes the one recording once; the other
 * uploads of it reuse its words), a real receiver, the real sender. A receiver holding the account's
 * signing secret verifies every try: a JSON body with the `standardwebhooks` library, a media body (bytes
 * the library would read as text) with the spec's HMAC over the raw bytes. A rotation sends one signature
 * per active secret until the old one expires; an account without secrets gets no signature, and never
 * one made with another account's secrets.
 */
import assert from "node:assert/strict";
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { IncomingHttpHeaders } from "node:http";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { buildSpeech, tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, type Received, startReceiver } from "../support/receiver.ts";

const SECRETS = "/v3/security/signing-secrets";

/** The three Standard Webhooks headers of a received try, as the library takes them. */
function webhookHeaders(headers: IncomingHttpHeaders): {
  "webhook-id": string;
  "webhook-timestamp": string;
  "webhook-signature": string;
} {
  return {
    "webhook-id": String(headers["webhook-id"]),
    "webhook-timestamp": String(headers["webhook-timestamp"]),
    "webhook-signature": String(headers["webhook-signature"]),
  };
}

/** A receiver's own check over the raw body bytes, as the spec describes it (constant-time compare). */
function verifiesBytes(secret: string, call: Received): boolean {
  const {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": header,
  } = webhookHeaders(call.headers);
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.`).update(call.body).digest();
  return header.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    const given = Buffer.from(signature ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Whether the library accepts the call for `secret`. */
function libraryVerifies(secret: string, call: Received): boolean {
  try {
    new Webhook(secret).verify(call.body.toString("utf8"), webhookHeaders(call.headers));
    return true;
  } catch (error) {
    if (error instanceof WebhookVerificationError) return false;
    throw error;
  }
}

describe("signed callback delivery", () => {
  let hark: TestHark;
  let receiver: Receiver;
  let audio: { file: string; bytes: Buffer; cleanup: () => Promise<void> };

  before(async () => {
    const dir = await tempDir();
    const file = path.join(dir.dir, "hello.wav");
    await buildSpeech([{ text: "please cancel my order" }], file);
    audio = { file, bytes: await readFile(file), cleanup: dir.cleanup };
    receiver = await startReceiver();
    hark = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_SCHEDULE: "0,1s,2s",
        HARK_CALLBACK_BURST: "2",
        HARK_CALLBACK_TIMEOUT: "2",
      },
      { workers: true, recognizeOnce: true },
    );
  });
  after(async () => {
    await hark?.close();
    await receiver?.close();
    await audio?.cleanup();
  });

  const call = (token: string, method: "POST" | "GET", url: string, payload?: unknown) =>
    hark.api(token, method, url, payload);
  async function createSecret(token: string): Promise<{ secretId: string; secret: string }> {
    const response = await call(token, "POST", SECRETS);
    assert.equal(response.statusCode, 201, response.body);
    return response.json();
  }
  async function upload(token: string, callbacks: unknown[]) {
    const response = await hark.upload(token, {
      media: audio.file,
      configuration: { publish: { callbacks } },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().mediaId as string;
  }
  const signaturesOf = (received: Received) => String(received.headers["webhook-signature"]).split(" ");

  test("every try of an analytics and a media callback carries a signature the receiver verifies", async () => {
    const token = await hark.createAccount();
    const { secret } = await createSecret(token);
    // The first try of each fails: the second try is signed afresh, for its own timestamp.
    receiver.answer("/signed-analytics", [{ status: 500 }, { status: 200 }]);
    receiver.answer("/signed-media", [{ status: 503 }, { status: 204 }]);
    await upload(token, [
      { url: `${receiver.url}/signed-analytics` },
      { url: `${receiver.url}/signed-media`, type: "media" },
    ]);
    const analytics = [await receiver.next("/signed-analytics"), await receiver.next("/signed-analytics")];
    const media = [await receiver.next("/signed-media"), await receiver.next("/signed-media")];

    for (const received of [...analytics, ...media]) {
      assert.deepEqual(received.rawHeaderNames.map((name) => name.toLowerCase()).sort(), [
        "connection",
        "content-length",
        "content-type",
        "host",
        "user-agent",
        "webhook-id",
        "webhook-signature",
        "webhook-timestamp",
      ]);
      assert.equal(signaturesOf(received).length, 1);
      assert.match(signaturesOf(received)[0] ?? "", /^v1,[A-Za-z0-9+/]{43}=$/);
    }
    for (const received of analytics) {
      assert.ok(libraryVerifies(secret, received), "standardwebhooks verifies the analytics body");
      assert.ok(verifiesBytes(secret, received));
    }
    for (const received of media) {
      assert.ok(received.body.equals(audio.bytes), "the media bytes, unchanged");
      assert.ok(verifiesBytes(secret, received), "the signature covers the exact media bytes");
    }
    // Signed for its own id: a signature moved to another callback does not verify.
    const moved = {
      ...analytics[0],
      headers: { ...analytics[0]?.headers, "webhook-id": media[0]?.headers["webhook-id"] },
    } as Received;
    assert.ok(!verifiesBytes(secret, moved));
    assert.ok(!libraryVerifies((await createSecret(token)).secret, analytics[0] as Received));
  });

  test("rotation: two active secrets give two signatures; once the old one expires, only the new one", async () => {
    const token = await hark.createAccount();
    const old = await createSecret(token);
    await upload(token, [{ url: `${receiver.url}/rotation-1` }]);
    const before = await receiver.next("/rotation-1");
    assert.equal(signaturesOf(before).length, 1);
    assert.ok(libraryVerifies(old.secret, before));

    const current = await createSecret(token);
    const expiring = await call(token, "POST", `${SECRETS}/${old.secretId}/expire`, { afterSeconds: 3600 });
    assert.equal(expiring.statusCode, 200, expiring.body);
    await upload(token, [
      { url: `${receiver.url}/rotation-2` },
      { url: `${receiver.url}/rotation-2-media`, type: "media" },
    ]);
    for (const received of [await receiver.next("/rotation-2"), await receiver.next("/rotation-2-media")]) {
      const signatures = signaturesOf(received);
      assert.equal(signatures.length, 2, "one signature per active secret");
      assert.notEqual(signatures[0], signatures[1]);
      for (const secret of [old.secret, current.secret]) {
        assert.ok(verifiesBytes(secret, received), "a receiver with either secret verifies");
        // Each signature is one secret's: kept alone, it verifies for that secret only.
        const alone = signatures.filter((signature) =>
          verifiesBytes(secret, {
            ...received,
            headers: { ...received.headers, "webhook-signature": signature },
          }),
        );
        assert.equal(alone.length, 1);
      }
      if (received.path === "/rotation-2") {
        assert.ok(libraryVerifies(old.secret, received));
        assert.ok(libraryVerifies(current.secret, received));
      }
    }

    const expired = await call(token, "POST", `${SECRETS}/${old.secretId}/expire`, { afterSeconds: 0 });
    assert.equal(expired.statusCode, 200, expired.body);
    await upload(token, [{ url: `${receiver.url}/rotation-3` }]);
    const after = await receiver.next("/rotation-3");
    assert.equal(signaturesOf(after).length, 1);
    assert.ok(libraryVerifies(current.secret, after));
    assert.ok(!libraryVerifies(old.secret, after), "an expired secret signs no more");
  });

  test("an account without secrets gets no signature, never another account's", async () => {
    const signed = await hark.createAccount();
    const { secret } = await createSecret(signed);
    const unsigned = await hark.createAccount();
    await upload(unsigned, [{ url: `${receiver.url}/unsigned` }]);
    await upload(signed, [{ url: `${receiver.url}/signed-too` }]);
    const plain = await receiver.next("/unsigned");
    assert.equal(plain.headers["webhook-signature"], undefined);
    assert.ok(!plain.rawHeaderNames.some((name) => name.toLowerCase() === "webhook-signature"));
    assert.ok(libraryVerifies(secret, await receiver.next("/signed-too")));

    // Deleting the last secret turns signing off.
    const [{ secretId }] = (await call(signed, "GET", SECRETS)).json().secrets;
    assert.equal((await call(signed, "GET", `${SECRETS}/${secretId}`)).json().secret, secret);
    const deleted = await hark.app.inject({
      method: "DELETE",
      url: `${SECRETS}/${secretId}`,
      headers: { authorization: `Bearer ${signed}` },
    });
    assert.equal(deleted.statusCode, 204);
    await upload(signed, [{ url: `${receiver.url}/signed-no-more` }]);
    assert.equal((await receiver.next("/signed-no-more")).headers["webhook-signature"], undefined);
  });
});

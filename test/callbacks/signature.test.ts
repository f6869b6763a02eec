/**
 * Standard Webhooks signatures: the spec's published test vector, one signature per secret, binary
 * bodies, the `standardwebhooks` library verifying what Hark signs, and the streaming variant agreeing
 * with the one over a buffer.
 */
import assert from "node:assert/strict";
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { Readable } from "node:stream";
import { test } from "node:test";
import { Webhook, WebhookVerificationError } from "standardwebhooks";
import {
  newSecret,
  secretKey,
  signatureHeader,
  signatureHeaderOfStream,
  signContent,
} from "../../src/callbacks/signature.ts";

// The test vector of the Standard Webhooks reference libraries ("sign function works").
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: Buffer.from('{"test": 2432232314}'),
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

/**
 * A receiver's verification as the spec describes it, over raw bytes: what a receiver of a media
 * callback does, since the library reads a body as text.
 */
function verifies(secret: string, id: string, timestamp: number, body: Buffer, header: string): boolean {
  const expected = createHmac("sha256", secretKey(secret))
    .update(Buffer.concat([Buffer.from(`${id}.${timestamp}.`), body]))
    .digest();
  return header.split(" ").some((entry) => {
    const [version, signature] = entry.split(",");
    const given = Buffer.from(signature ?? "", "base64");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

test("the spec's test vector", () => {
  assert.equal(signContent(VECTOR.secret, VECTOR.id, VECTOR.timestamp, VECTOR.body), VECTOR.signature);
  assert.equal(signatureHeader([VECTOR.secret], VECTOR.id, VECTOR.timestamp, VECTOR.body), VECTOR.signature);
});

test("id, timestamp and every byte of the body are signed", () => {
  const { secret, id, timestamp, body } = VECTOR;
  const changed = [
    signContent(secret, "msg_other", timestamp, body),
    signContent(secret, id, timestamp + 1, body),
    signContent(secret, id, timestamp, Buffer.from('{"test": 2432232315}')),
    signContent(newSecret(), id, timestamp, body),
  ];
  for (const signature of changed) assert.notEqual(signature, VECTOR.signature);
});

test("two secrets give two signatures, space-separated, each verifying with its own secret", () => {
  const other = newSecret();
  const header = signatureHeader([VECTOR.secret, other], VECTOR.id, VECTOR.timestamp, VECTOR.body);
  const [first, second, ...rest] = header.split(" ");
  assert.equal(first, VECTOR.signature);
  assert.equal(second, signContent(other, VECTOR.id, VECTOR.timestamp, VECTOR.body));
  assert.deepEqual(rest, []);
  assert.ok(verifies(other, VECTOR.id, VECTOR.timestamp, VECTOR.body, header));
  assert.ok(!verifies(newSecret(), VECTOR.id, VECTOR.timestamp, VECTOR.body, header));
});

test("no secrets, no signature", () => {
  assert.equal(signatureHeader([], VECTOR.id, VECTOR.timestamp, VECTOR.body), "");
});

test("a binary body is signed over its exact bytes, not a text decoding of them", () => {
  const secret = newSecret();
  // Bytes that are not UTF-8: decoding them as text would replace them and change the signature.
  const body = Buffer.from([0x52, 0x49, 0x46, 0x46, 0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, 0x0a, 0x00]);
  const signature = signContent(secret, "id-1", 1700000000, body);
  assert.ok(verifies(secret, "id-1", 1700000000, body, signature));
  const mangled = Buffer.from(body.toString("utf8"), "utf8");
  assert.notEqual(signContent(secret, "id-1", 1700000000, mangled), signature);
  assert.ok(!verifies(secret, "id-1", 1700000000, mangled, signature));
});

test("the standardwebhooks library verifies a signed JSON body, with either of two secrets", () => {
  const oldSecret = newSecret();
  const newer = newSecret();
  const id = "0b0c4a5e-1d7c-4a53-9d5b-2c6a1b8f9e10";
  const timestamp = Math.floor(Date.now() / 1000);
  const body = Buffer.from(JSON.stringify({ mediaId: id, status: "finished", words: ["näive", "€"] }));
  const headers = {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader([newer, oldSecret], id, timestamp, body),
  };
  for (const secret of [oldSecret, newer]) {
    assert.deepEqual(new Webhook(secret).verify(body.toString("utf8"), headers), JSON.parse(body.toString()));
  }
  assert.throws(
    () => new Webhook(newSecret()).verify(body.toString("utf8"), headers),
    WebhookVerificationError,
  );
  const tampered = Buffer.from(body.toString("utf8").replace("finished", "failed"));
  assert.throws(
    () => new Webhook(newer).verify(tampered.toString("utf8"), headers),
    WebhookVerificationError,
  );
});

test("the streaming variant equals the buffer variant, whatever the chunking", async () => {
  const secrets = [newSecret(), newSecret()];
  const body = randomBytes(300_000);
  const expected = signatureHeader(secrets, "id-2", 1700000001, body);
  const chunks = [];
  for (let at = 0; at < body.length; at += 65_536) chunks.push(body.subarray(at, at + 65_536));
  assert.equal(await signatureHeaderOfStream(secrets, "id-2", 1700000001, Readable.from(chunks)), expected);
  const oneByte = Readable.from([...body.subarray(0, 100)].map((byte) => Buffer.from([byte])));
  assert.equal(
    await signatureHeaderOfStream(secrets, "id-2", 1700000001, oneByte),
    signatureHeader(secrets, "id-2", 1700000001, body.subarray(0, 100)),
  );
  assert.equal(
    await signatureHeaderOfStream([VECTOR.secret], VECTOR.id, VECTOR.timestamp, Readable.from([VECTOR.body])),
    VECTOR.signature,
  );
});

test("a new secret is whsec_ and base64 of 32 random bytes, different each time", () => {
  const secret = newSecret();
  assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.equal(secretKey(secret).length, 32);
  assert.notEqual(newSecret(), secret);
  assert.equal(
    newSecret(() => Buffer.alloc(32, 1)),
    `whsec_${Buffer.alloc(32, 1).toString("base64")}`,
  );
  assert.throws(() => secretKey("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"), /whsec_/);
});

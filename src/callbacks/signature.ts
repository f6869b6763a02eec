/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com, symmetric scheme): a signing secret is
 * `whsec_` + base64 of random bytes, the HMAC-SHA256 key being those bytes; the signed content is
 * `${webhook-id}.${webhook-timestamp}.${body}` over the exact body bytes; a signature is `v1,` + base64 of
 * the HMAC; the `webhook-signature` header lists one per secret, space-separated, so a receiver holding
 * either the old or the new secret during a rotation verifies the call.
 *
 * The timestamp is part of the signed content and differs per try, so every try is signed afresh: a
 * rendered body from memory, a media body by one pass over its stream (never buffered).
 */
import { createHmac, type Hmac, randomBytes } from "node:crypto";

export const SECRET_PREFIX = "whsec_";

/** The spec asks for at least 24 random bytes; 32 match the strength of SHA-256's output. */
const SECRET_BYTES = 32;

export function newSecret(random: (size: number) => Buffer = randomBytes): string {
  return SECRET_PREFIX + random(SECRET_BYTES).toString("base64");
}

/** The HMAC key a `whsec_` secret stands for. Throws on anything else: a stored secret is always ours. */
export function secretKey(secret: string): Buffer {
  if (!secret.startsWith(SECRET_PREFIX)) throw new Error("a signing secret starts with whsec_");
  const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
  if (key.length === 0) throw new Error("a signing secret holds a key");
  return key;
}

function hmacOf(secret: string, id: string, timestampSeconds: number): Hmac {
  // The id and timestamp are Hark's own (a UUID, digits): neither can hold a "." that shifts the fields.
  return createHmac("sha256", secretKey(secret)).update(`${id}.${timestampSeconds}.`, "utf8");
}

const signatureOf = (hmac: Hmac) => `v1,${hmac.digest("base64")}`;

/** `v1,<base64>`: the signature of one try's body under one secret. */
export function signContent(secret: string, id: string, timestampSeconds: number, body: Buffer): string {
  return signatureOf(hmacOf(secret, id, timestampSeconds).update(body));
}

/** The `webhook-signature` value: one signature per secret, space-separated, in the order given. */
export function signatureHeader(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: Buffer,
): string {
  return secrets.map((secret) => signContent(secret, id, timestampSeconds, body)).join(" ");
}

/**
 * `signatureHeader` for a body read as a stream (a media callback's blob): every secret's HMAC is fed
 * from the same chunks, so the blob is read once per try however many secrets sign it.
 */
export async function signatureHeaderOfStream(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: AsyncIterable<Buffer | Uint8Array | string>,
): Promise<string> {
  const hmacs = secrets.map((secret) => hmacOf(secret, id, timestampSeconds));
  for await (const chunk of body) {
    for (const hmac of hmacs) hmac.update(chunk);
  }
  return hmacs.map(signatureOf).join(" ");
}

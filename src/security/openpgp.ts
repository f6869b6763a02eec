/**
 * Client-supplied encryption (VoiceBase): an account uploads an OpenPGP public key; results and media of an
 * upload that names it are stored and delivered encrypted to it, so only the holder of the private key can
 * read them. This module checks an uploaded key and encrypts with it; it keeps no state.
 *
 * Terms: the *key text* is the ASCII-armored public key exactly as the client sent it (kept and shown back
 * byte for byte; its SHA-256 is the `publicKeyHash` in callbacks); an *encryption-capable* key is one with a
 * primary key or subkey that may encrypt, is neither expired nor revoked, and is strong enough for openpgp.js.
 */
import { createHash } from "node:crypto";
import { Readable } from "node:stream";
import { ReadableStream } from "node:stream/web";
import { createMessage, encrypt, type Key, readKeys } from "openpgp";

export interface PublicKeyInfo {
  /** The key text exactly as given. */
  armored: string;
  /** The primary key's fingerprint, lower-case hex (what `gpg --fingerprint` shows, without spaces). */
  fingerprint: string;
  /** Lower-case hex SHA-256 of the key text as given (its UTF-8 bytes). */
  publicKeyHash: string;
}

/** The key text cannot be used to encrypt; the message says why and what to send instead. */
export class InvalidPublicKeyError extends Error {
  override name = "InvalidPublicKeyError";
}

const EXPORT_HINT = "export it with `gpg --armor --export <key id>`";

/**
 * Checks a client's key text and describes it. `now` is when it must be usable (expiry and revocation are
 * judged then); it is a parameter so tests can look at a key after it expires.
 */
export async function readPublicKey(text: string, now: Date = new Date()): Promise<PublicKeyInfo> {
  const key = await usableKey(text, now);
  return {
    armored: text,
    fingerprint: key.getFingerprint().toLowerCase(),
    publicKeyHash: createHash("sha256").update(text, "utf8").digest("hex"),
  };
}

/**
 * One OpenPGP message of `bytes` for the key's holder: binary, or ASCII-armored (`-----BEGIN PGP MESSAGE`)
 * as UTF-8 bytes when `armor`. Throws `InvalidPublicKeyError` when the key can no longer encrypt (it
 * expired or was revoked since it was uploaded).
 */
export async function encryptBytes(armoredKey: string, bytes: Uint8Array, armor: boolean): Promise<Buffer> {
  const key = await usableKey(armoredKey, new Date());
  const message = await createMessage({ binary: bytes });
  if (armor) {
    const text = await encrypt({ message, encryptionKeys: key, format: "armored" });
    return Buffer.from(text, "utf8");
  }
  const data = await encrypt({ message, encryptionKeys: key, format: "binary" });
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * A binary OpenPGP message of everything `source` gives, produced as it is read: the input is never held
 * whole (openpgp.js writes the literal data in partial-length packets), and a slow reader of the result
 * slows the reading of `source`. Returns at once; a key that cannot encrypt (`InvalidPublicKeyError`) or a
 * failing source makes the returned stream error. `source` is destroyed when the result ends early.
 */
export function encryptStream(armoredKey: string, source: Readable): Readable {
  // Not object mode: chunks are bytes, and the high-water mark counts bytes.
  return Readable.from(encryptedChunks(armoredKey, source), { objectMode: false });
}

async function* encryptedChunks(armoredKey: string, source: Readable): AsyncGenerator<Uint8Array> {
  let complete = false;
  try {
    const key = await usableKey(armoredKey, new Date());
    const message = await createMessage({ binary: webStreamOf(source) });
    const encrypted = (await encrypt({
      message,
      encryptionKeys: key,
      format: "binary",
    })) as unknown as ReadableStream<Uint8Array>;
    for await (const chunk of encrypted) yield chunk;
    complete = true;
  } finally {
    // A refused key, a failure or a reader that stopped early: the source is not read to its end, and
    // whatever it holds open (a file, a socket) is released here rather than left waiting.
    if (!complete && !source.destroyed) source.destroy();
  }
}

/**
 * `source` as the web stream openpgp.js v6 takes, read only when a chunk is wanted. Not `Readable.toWeb`:
 * its adapter keeps the source flowing and, when openpgp.js cancels the input (the reader of the result
 * stopped), enqueues into the closed stream and throws where nothing can catch it.
 */
function webStreamOf(source: Readable): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await chunks.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value as Uint8Array);
    },
    async cancel() {
      // Ends the iteration, which destroys the source.
      await chunks.return?.();
    },
  });
}

/** The one public key in `text`, checked to be able to encrypt at `now`. */
async function usableKey(text: string, now: Date): Promise<Key> {
  if (text.trim() === "")
    throw new InvalidPublicKeyError(`The key is empty; send the public key, ${EXPORT_HINT}`);
  // Refused before parsing: Hark never handles private key material, not even to read it.
  if (/-----BEGIN PGP PRIVATE KEY BLOCK-----/.test(text)) {
    throw new InvalidPublicKeyError(
      `This is a private key; send only the public key (${EXPORT_HINT}), and keep the private key to yourself`,
    );
  }
  if (!/-----BEGIN PGP PUBLIC KEY BLOCK-----/.test(text)) {
    const pem = /-----BEGIN ((?:RSA )?PUBLIC KEY|CERTIFICATE)-----/.exec(text);
    throw new InvalidPublicKeyError(
      pem
        ? `This is a PEM ${pem[1]}, not an OpenPGP key; create an OpenPGP key pair and ${EXPORT_HINT}`
        : `This is not an ASCII-armored OpenPGP public key (no "-----BEGIN PGP PUBLIC KEY BLOCK-----" line); ${EXPORT_HINT}`,
    );
  }
  // openpgp.js reads the first armored block and ignores the rest: a second key would be dropped unseen.
  const blocks = text.match(/-----BEGIN PGP /g)?.length ?? 0;
  if (blocks > 1) {
    throw new InvalidPublicKeyError(
      `The text holds ${blocks} armored blocks; upload one public key at a time (export it by its key id)`,
    );
  }
  let keys: Key[];
  try {
    keys = await readKeys({ armoredKeys: text });
  } catch (error) {
    throw new InvalidPublicKeyError(`The OpenPGP public key cannot be read: ${reason(error)}`);
  }
  const [key, ...others] = keys;
  if (!key) throw new InvalidPublicKeyError(`The key block holds no key; ${EXPORT_HINT}`);
  if (others.length > 0) {
    throw new InvalidPublicKeyError(
      `The key block holds ${keys.length} keys; upload one key at a time (export it by its key id)`,
    );
  }
  if (key.isPrivate()) {
    throw new InvalidPublicKeyError(
      `This is a private key; send only the public key (${EXPORT_HINT}), and keep the private key to yourself`,
    );
  }
  const fingerprint = key.getFingerprint().toLowerCase();
  if (await key.isRevoked(undefined, undefined, now)) {
    throw new InvalidPublicKeyError(`The key ${fingerprint} has been revoked; send a key that is in force`);
  }
  const expires = await key.getExpirationTime().catch(() => null);
  if (expires instanceof Date && expires.getTime() <= now.getTime()) {
    throw new InvalidPublicKeyError(
      `The key ${fingerprint} expired on ${expires.toISOString()}; extend its expiry (gpg --quick-set-expire) or send a new key`,
    );
  }
  try {
    await key.getEncryptionKey(undefined, now);
  } catch (error) {
    throw new InvalidPublicKeyError(
      `The key ${fingerprint} has no subkey that can encrypt now (${reason(error)}); send a key with a valid encryption subkey, e.g. RSA 2048 or more ("RSA and RSA") or Curve25519`,
    );
  }
  return key;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

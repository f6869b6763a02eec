/**
 * Client-supplied encryption's building blocks with real keys made here: which key texts are accepted and
 * why others are refused, and that what Hark encrypts decrypts with the private key to exactly the input,
 * whole or streamed, without a streamed input ever being held in memory.
 */
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { Readable, Transform } from "node:stream";
import type { ReadableStream } from "node:stream/web";
import { before, describe, test } from "node:test";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  armor,
  decrypt,
  enums,
  generateKey,
  readKey,
  readMessage,
  readPrivateKey,
  revokeKey,
  type PrivateKey,
} from "openpgp";
import {
  encryptBytes,
  encryptStream,
  InvalidPublicKeyError,
  readPublicKey,
} from "../../src/security/openpgp.ts";

// A full collection on demand, without running the whole test process with --expose-gc.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const USER = { name: "Receiver", email: "receiver@example.com" };

interface Pair {
  publicKey: string;
  privateKey: PrivateKey;
  privateArmored: string;
}

async function pair(options: { type: "ecc" | "rsa"; keyExpirationTime?: number }): Promise<Pair> {
  const generated = await generateKey({
    ...(options.type === "rsa" ? { type: "rsa", rsaBits: 2048 } : { type: "curve25519" }),
    userIDs: [USER],
    ...(options.keyExpirationTime !== undefined && { keyExpirationTime: options.keyExpirationTime }),
    format: "armored",
  });
  return {
    publicKey: generated.publicKey,
    privateKey: await readPrivateKey({ armoredKey: generated.privateKey }),
    privateArmored: generated.privateKey,
  };
}

async function decryptBinary(data: Uint8Array, privateKey: PrivateKey): Promise<Buffer> {
  const message = await readMessage({ binaryMessage: data });
  const { data: plain } = await decrypt({ message, decryptionKeys: privateKey, format: "binary" });
  return Buffer.from(plain);
}

async function refusal(text: string, now?: Date): Promise<string> {
  const error = await readPublicKey(text, now).then(
    () => assert.fail("the key text was accepted"),
    (error: unknown) => error,
  );
  assert.ok(error instanceof InvalidPublicKeyError, `not an InvalidPublicKeyError: ${String(error)}`);
  return error.message;
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("OpenPGP", () => {
  let ecc: Pair;
  let rsa: Pair;
  before(async () => {
    [ecc, rsa] = await Promise.all([pair({ type: "ecc" }), pair({ type: "rsa" })]);
  });

  describe("readPublicKey", () => {
    test("accepts an armored public key, RSA or Curve25519, and hashes the text exactly as given", async () => {
      for (const { publicKey, privateKey } of [ecc, rsa]) {
        const info = await readPublicKey(publicKey);
        assert.equal(info.armored, publicKey);
        assert.equal(info.fingerprint, privateKey.getFingerprint());
        assert.match(info.fingerprint, /^[0-9a-f]{40}$/);
        assert.equal(info.publicKeyHash, createHash("sha256").update(publicKey).digest("hex"));
      }
      // The same key sent with Windows line ends and a trailing blank line is kept (and hashed) as sent.
      const crlf = `${ecc.publicKey.replace(/\n/g, "\r\n")}\r\n`;
      const info = await readPublicKey(crlf);
      assert.equal(info.armored, crlf);
      assert.equal(info.fingerprint, ecc.privateKey.getFingerprint());
      assert.equal(info.publicKeyHash, createHash("sha256").update(crlf).digest("hex"));
      assert.notEqual(info.publicKeyHash, (await readPublicKey(ecc.publicKey)).publicKeyHash);
    });

    test("refuses what is not a public key, saying what it is", async () => {
      assert.match(await refusal(""), /empty/);
      assert.match(await refusal("  \n"), /empty/);
      assert.match(await refusal("hello, this is my key"), /not an ASCII-armored OpenPGP public key/);
      assert.match(
        await refusal(
          "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----\n",
        ),
        /PEM PUBLIC KEY, not an OpenPGP key/,
      );
      const garbled = ecc.publicKey.replace(/\n\n[A-Za-z0-9+/]{20}/, "\n\n!!!!garbage!!!!!!!!!");
      assert.match(await refusal(garbled), /cannot be read/);
      const truncated = ecc.publicKey.slice(0, 120) + "\n-----END PGP PUBLIC KEY BLOCK-----\n";
      assert.match(await refusal(truncated), /cannot be read/);
    });

    test("refuses a private key", async () => {
      assert.match(await refusal(ecc.privateArmored), /private key; send only the public key/);
      assert.match(await refusal(rsa.privateArmored), /private key/);
    });

    test("refuses an expired key, judged at the time given", async () => {
      const expiring = await pair({ type: "ecc", keyExpirationTime: 3600 });
      assert.ok(await readPublicKey(expiring.publicKey), "in force now");
      const message = await refusal(expiring.publicKey, new Date(Date.now() + 2 * 3600_000));
      assert.match(message, /expired on \d{4}-\d\d-\d\dT/);
    });

    test("refuses a revoked key", async () => {
      const { publicKey } = await revokeKey({ key: ecc.privateKey, format: "armored" });
      assert.match(await refusal(publicKey), /has been revoked/);
    });

    test("refuses a key with no subkey that can encrypt", async () => {
      // A primary key alone (Ed25519) can sign and certify, not encrypt.
      const signOnly = await generateKey({
        type: "curve25519",
        userIDs: [USER],
        subkeys: [],
        format: "armored",
      });
      const message = await refusal(signOnly.publicKey);
      assert.match(message, /no subkey that can encrypt/);
    });

    test("refuses a block of two keys", async () => {
      const two = ecc.publicKey + rsa.publicKey;
      assert.match(await refusal(two), /2 armored blocks; upload one public key at a time/);
      // Two keys inside one block (`gpg --armor --export` of two key ids).
      const first = await readKey({ armoredKey: ecc.publicKey });
      const second = await readKey({ armoredKey: rsa.publicKey });
      const both = new Uint8Array([...first.write(), ...second.write()]);
      const oneBlock = armor(enums.armor.publicKey, both);
      assert.match(await refusal(oneBlock), /holds 2 keys; upload one key at a time/);
    });
  });

  describe("encryptBytes", () => {
    const inputs = {
      text: Buffer.from('{"mediaId":"1","transcript":"héllo wörld"}', "utf8"),
      binary: randomBytes(100_000),
      empty: Buffer.alloc(0),
    };

    test("a binary message that decrypts to exactly the input", async () => {
      for (const { publicKey, privateKey } of [ecc, rsa]) {
        for (const [name, bytes] of Object.entries(inputs)) {
          const encrypted = await encryptBytes(publicKey, bytes, false);
          assert.ok(Buffer.isBuffer(encrypted));
          assert.ok(!encrypted.includes("-----BEGIN"), "binary, not armored");
          if (bytes.length > 16)
            assert.equal(encrypted.indexOf(bytes.subarray(0, 16)), -1, `${name} not in the clear`);
          assert.deepEqual(await decryptBinary(encrypted, privateKey), bytes, name);
        }
      }
    });

    test("armored: ASCII text of a PGP message that decrypts to exactly the input", async () => {
      const encrypted = await encryptBytes(ecc.publicKey, inputs.binary, true);
      const text = encrypted.toString("utf8");
      assert.match(text, /^-----BEGIN PGP MESSAGE-----\n/);
      assert.match(text, /-----END PGP MESSAGE-----\n$/);
      assert.ok(/^[\x20-\x7e\r\n]*$/.test(text), "ASCII only");
      const message = await readMessage({ armoredMessage: text });
      const { data } = await decrypt({ message, decryptionKeys: ecc.privateKey, format: "binary" });
      assert.deepEqual(Buffer.from(data), inputs.binary);
    });

    test("a key that can no longer encrypt is refused with InvalidPublicKeyError", async () => {
      const { publicKey } = await revokeKey({ key: rsa.privateKey, format: "armored" });
      await assert.rejects(encryptBytes(publicKey, inputs.text, false), InvalidPublicKeyError);
      await assert.rejects(encryptBytes("not a key", inputs.text, true), InvalidPublicKeyError);
    });
  });

  describe("encryptStream", () => {
    test("a binary message of the stream that decrypts to exactly the input", async () => {
      const bytes = randomBytes(3 * 1024 * 1024 + 17);
      // Small, uneven chunks, as a file or socket gives them.
      const chunks: Buffer[] = [];
      for (let at = 0; at < bytes.length; at += 65_531) chunks.push(bytes.subarray(at, at + 65_531));
      for (const { publicKey, privateKey } of [ecc, rsa]) {
        const encrypted = await collect(encryptStream(publicKey, Readable.from(chunks)));
        assert.deepEqual(await decryptBinary(encrypted, privateKey), bytes);
      }
      const empty = await collect(encryptStream(ecc.publicKey, Readable.from([])));
      assert.equal((await decryptBinary(empty, ecc.privateKey)).length, 0);
    });

    test("streams: 64 MiB made on the fly go through in little memory, output flowing before the input ends", async () => {
      const total = 64 * 1024 * 1024;
      const chunkSize = 64 * 1024;
      const inputHash = createHash("sha256");
      let produced = 0;
      const source = new Readable({
        read() {
          if (produced >= total) return void this.push(null);
          const chunk = randomBytes(chunkSize);
          inputHash.update(chunk);
          produced += chunk.length;
          this.push(chunk);
        },
      });
      // Input read but not yet out as ciphertext: what the encryption holds, whatever the garbage
      // collector does. Memory after a collection says the same from the outside, more noisily (freed
      // buffers' memory is returned a little later), hence the median of the samples.
      let encryptedOut = 0;
      let outBeforeInputEnded = 0;
      let maxInFlight = 0;
      const retainedSamples: number[] = [];
      let chunks = 0;
      const retained = () => {
        collectGarbage();
        const usage = process.memoryUsage();
        return usage.heapUsed + usage.arrayBuffers;
      };
      const baseline = retained();
      const tap = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          encryptedOut += chunk.length;
          if (produced < total) outBeforeInputEnded += chunk.length;
          maxInFlight = Math.max(maxInFlight, produced - encryptedOut);
          if (++chunks % 32 === 0) retainedSamples.push(retained() - baseline);
          done(null, chunk);
        },
      });
      // Decrypted as it comes, too, so the plaintext's hash is checked without holding it either.
      // (Streamed decryption of a message whose integrity is known only at its end must be allowed.)
      const encrypted = Readable.toWeb(encryptStream(rsa.publicKey, source).pipe(tap));
      const message = await readMessage({ binaryMessage: encrypted as ReadableStream<Uint8Array> as never });
      const { data } = await decrypt({
        message,
        decryptionKeys: rsa.privateKey,
        format: "binary",
        config: { allowUnauthenticatedStream: true },
      });
      const outputHash = createHash("sha256");
      let decrypted = 0;
      for await (const chunk of data as unknown as AsyncIterable<Uint8Array>) {
        outputHash.update(chunk);
        decrypted += chunk.length;
      }
      assert.equal(produced, total);
      assert.equal(decrypted, total);
      assert.equal(outputHash.digest("hex"), inputHash.digest("hex"), "decrypts to exactly the input");
      assert.ok(
        outBeforeInputEnded > total * 0.9,
        `${outBeforeInputEnded} bytes came out before the input ended`,
      );
      const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
      assert.ok(maxInFlight < 4 * 1024 * 1024, `${mib(maxInFlight)} of input held at once`);
      const median =
        retainedSamples.sort((a, b) => a - b)[Math.floor(retainedSamples.length / 2)] ?? Infinity;
      assert.ok(retainedSamples.length >= 10, `${retainedSamples.length} samples`);
      assert.ok(median < 16 * 1024 * 1024, `memory grew by ${mib(median)} (median) for a 64 MiB input`);
    });

    test("a refused key errors the stream and releases the source", async () => {
      const source = Readable.from([Buffer.from("secret")]);
      const { publicKey } = await revokeKey({ key: ecc.privateKey, format: "armored" });
      await assert.rejects(collect(encryptStream(publicKey, source)), InvalidPublicKeyError);
      assert.ok(source.destroyed);
    });

    test("a failing source errors the encrypted stream", async () => {
      const source = new Readable({
        read() {
          this.destroy(new Error("disk gone"));
        },
      });
      await assert.rejects(collect(encryptStream(ecc.publicKey, source)), /disk gone/);
    });

    test("a reader that stops early releases the source", async () => {
      let reads = 0;
      const source = new Readable({
        read() {
          reads++;
          this.push(randomBytes(64 * 1024));
        },
      });
      const encrypted = encryptStream(ecc.publicKey, source);
      for await (const chunk of encrypted) {
        assert.ok((chunk as Buffer).length > 0);
        break;
      }
      await new Promise((resolve) => setImmediate(resolve));
      assert.ok(source.destroyed, "an endless source is not read on after the reader left");
      const after = reads;
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(reads, after);
    });
  });
});

/**
 * The public-keys API on a real server: uploading an account's OpenPGP public keys, reading them back
 * exactly as sent, listing and deleting them, every fault a client can make, and what one account can see
 * of another's keys (nothing).
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { after, before, describe, test } from "node:test";
import type { LightMyRequestResponse } from "fastify";
import { generateKey } from "openpgp";
import { MAX_PUBLIC_KEY_BYTES } from "../../src/api/public-keys.ts";
import { accountByToken } from "../../src/store/accounts.ts";
import { getPublicKey } from "../../src/store/public-keys.ts";
import { startTestHark, type TestHark, refused } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

const PUBLIC_URL = "https://hark.example.com";
const KEYS = "/v3/security/public-keys";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING = "00000000-0000-4000-8000-000000000000";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("public keys API", () => {
  let hark: TestHark;
  let token: string;
  let other: string;
  let publicKey: string;
  let privateKey: string;
  let secondKey: string;
  before(async () => {
    hark = await startTestHark({ HARK_PUBLIC_URL: PUBLIC_URL });
    token = await hark.createAccount();
    other = await hark.createAccount();
    const user = { name: "Receiver", email: "receiver@example.com" };
    const [first, second] = await Promise.all([
      generateKey({ type: "curve25519", userIDs: [user], format: "armored" }),
      generateKey({ type: "rsa", rsaBits: 2048, userIDs: [user], format: "armored" }),
    ]);
    publicKey = first.publicKey;
    privateKey = first.privateKey;
    secondKey = second.publicKey;
  });
  after(() => hark.close());

  function call(
    method: "GET" | "POST" | "DELETE",
    url: string,
    body?: { payload: string | Buffer; type?: string },
    as = token,
  ): Promise<LightMyRequestResponse> {
    return hark.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${as}`,
        ...(body?.type !== undefined && { "content-type": body.type }),
      },
      ...(body !== undefined && { payload: body.payload }),
    });
  }
  const upload = (payload: string | Buffer, type = "application/octet-stream", as = token) =>
    call("POST", KEYS, { payload, type }, as);
  const get = (url: string, as = token) => call("GET", url, undefined, as);
  const del = (url: string, as = token) => call("DELETE", url, undefined, as);

  async function create(
    text = publicKey,
    as = token,
  ): Promise<{ publicKeyId: string; publicKeyHash: string }> {
    const response = await upload(text, "application/octet-stream", as);
    assert.equal(response.statusCode, 200, response.body);
    return response.json();
  }

  test("POST stores the key and answers its id and the SHA-256 of the text; GET answers the text as sent", async () => {
    const response = await upload(publicKey);
    assert.equal(response.statusCode, 200, response.body);
    const created = response.json();
    assert.match(created.publicKeyId, UUID);
    assert.equal(created.publicKeyHash, sha256(publicKey));
    assert.match(created.fingerprint, /^[0-9a-f]{40}$/);
    assert.ok(!Number.isNaN(Date.parse(created.dateCreated)));
    assert.deepEqual(created._links, { self: { href: `${PUBLIC_URL}${KEYS}/${created.publicKeyId}` } });
    await assertDescribedBy("PublicKey", created);

    const one = await get(`${KEYS}/${created.publicKeyId}`);
    assert.equal(one.statusCode, 200, one.body);
    assert.equal(one.body, publicKey, "byte for byte as uploaded");
    assert.match(String(one.headers["content-type"]), /^application\/pgp-keys/);

    // What processing reads: the same text and hash.
    const account = await accountByToken(hark.services.db, token);
    assert.ok(account);
    const stored = await getPublicKey(hark.services.db, account.accountId, created.publicKeyId);
    assert.equal(stored?.armored, publicKey);
    assert.equal(stored?.publicKeyHash, created.publicKeyHash);
    assert.equal(await getPublicKey(hark.services.db, account.accountId, "not-a-uuid"), undefined);
  });

  test("the key may be sent as application/pgp-keys or text/plain, and is kept exactly as sent", async () => {
    for (const type of ["application/pgp-keys", "text/plain", "text/plain; charset=utf-8"]) {
      const response = await upload(publicKey, type);
      assert.equal(response.statusCode, 200, `${type}: ${response.body}`);
    }
    const crlf = `${publicKey.replace(/\n/g, "\r\n")}\r\n\r\n`;
    const created = await create(crlf);
    assert.equal(
      created.publicKeyHash,
      sha256(crlf),
      "the hash is of the text as sent, not a normalised one",
    );
    assert.equal((await get(`${KEYS}/${created.publicKeyId}`)).body, crlf);
  });

  test("GET lists the account's keys with links", async () => {
    const account = await hark.createAccount();
    const empty = await get(KEYS, account);
    assert.equal(empty.statusCode, 200, empty.body);
    assert.deepEqual(empty.json(), { _links: { self: { href: `${PUBLIC_URL}${KEYS}` } }, keys: [] });

    const first = await create(publicKey, account);
    const second = await create(secondKey, account);
    const list = (await get(KEYS, account)).json();
    await assertDescribedBy("PublicKeyList", list);
    // Oldest first; two keys made within one millisecond may come in either order.
    const byId = (x: { publicKeyId: string }, y: { publicKeyId: string }) =>
      x.publicKeyId.localeCompare(y.publicKeyId);
    assert.deepEqual(
      list.keys
        .map((key: { publicKeyId: string; publicKeyHash: string; _links: unknown }) => ({
          publicKeyId: key.publicKeyId,
          publicKeyHash: key.publicKeyHash,
          _links: key._links,
        }))
        .sort(byId),
      [first, second]
        .map((key) => ({
          publicKeyId: key.publicKeyId,
          publicKeyHash: key.publicKeyHash,
          _links: { self: { href: `${PUBLIC_URL}${KEYS}/${key.publicKeyId}` } },
        }))
        .sort(byId),
    );
    assert.ok(!JSON.stringify(list).includes("BEGIN PGP"), "the list shows no key text");
  });

  test("DELETE removes the key: 204, then 404", async () => {
    const { publicKeyId } = await create();
    const deleted = await del(`${KEYS}/${publicKeyId}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, "");
    refused(await get(`${KEYS}/${publicKeyId}`), 404, 10205);
    refused(await del(`${KEYS}/${publicKeyId}`), 404, 10205);
    assert.ok(!(await get(KEYS)).body.includes(publicKeyId));
  });

  test("unknown ids are 404 with VoiceBase's code", async () => {
    for (const [id, reason] of [
      [MISSING, /no public key/],
      ["not-a-uuid", /publicKeyId must be a UUID/],
      ["x".repeat(300), /publicKeyId must be a UUID/],
    ] as const) {
      assert.match(refused(await get(`${KEYS}/${id}`), 404, 10205), reason);
      refused(await del(`${KEYS}/${id}`), 404, 10205);
    }
  });

  test("a body that is not a usable public key is refused with 11501 and the reason, and nothing is stored", async () => {
    const account = await hark.createAccount();
    const cases: [string | Buffer, RegExp][] = [
      ["", /empty/],
      ["my key", /not an ASCII-armored OpenPGP public key/],
      [privateKey, /private key; send only the public key/],
      [publicKey + secondKey, /2 armored blocks/],
      [publicKey.slice(0, 150) + "\n-----END PGP PUBLIC KEY BLOCK-----\n", /cannot be read/],
      [Buffer.from([0x99, 0x01, 0x0d, 0x04, 0xff, 0xfe]), /binary, not an ASCII-armored/],
    ];
    for (const [body, reason] of cases) {
      assert.match(refused(await upload(body, "application/octet-stream", account), 400, 11501), reason);
    }
    assert.deepEqual((await get(KEYS, account)).json().keys, []);
  });

  test("a body without one of the key content types is 415, a body over the limit 413", async () => {
    for (const type of [
      "application/json",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
    ]) {
      const message = refused(await upload(JSON.stringify({ publicKey }), type), 415, 11007);
      assert.match(message, /application\/octet-stream/);
    }
    const tooLarge = publicKey + " ".repeat(MAX_PUBLIC_KEY_BYTES);
    assert.match(refused(await upload(tooLarge), 413, 10800), /larger than this route takes/);
    const noBody = await call("POST", KEYS);
    assert.match(refused(noBody, 400, 11501), /empty/);
  });

  test("another account neither sees nor deletes a key; without a token nothing is reachable", async () => {
    const { publicKeyId } = await create();
    refused(await get(`${KEYS}/${publicKeyId}`, other), 404, 10205);
    refused(await del(`${KEYS}/${publicKeyId}`, other), 404, 10205);
    assert.ok(!(await get(KEYS, other)).body.includes(publicKeyId));
    const otherAccount = await accountByToken(hark.services.db, other);
    assert.ok(otherAccount);
    assert.equal(await getPublicKey(hark.services.db, otherAccount.accountId, publicKeyId), undefined);
    assert.equal((await get(`${KEYS}/${publicKeyId}`)).statusCode, 200, "still there for its account");

    for (const [method, url] of [
      ["GET", KEYS],
      ["POST", KEYS],
      ["GET", `${KEYS}/${publicKeyId}`],
      ["DELETE", `${KEYS}/${publicKeyId}`],
    ] as const) {
      const response = await hark.app.inject({ method, url });
      assert.equal(response.statusCode, 401, `${method} ${url}`);
    }
    assert.equal((await get(`${KEYS}/${publicKeyId}`)).statusCode, 200);
  });
});

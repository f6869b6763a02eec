/**
 * The signing-secrets API on a real server: creating, reading, listing, deleting and expiring an
 * account's secrets, every fault a client can make, and what one account can see or use of another's
 * secrets (nothing).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { MAX_EXPIRY_SECONDS } from "../../src/api/schemas/security.ts";
import { MAX_ACTIVE_SECRETS } from "../../src/api/signing-secrets.ts";
import { secretKey } from "../../src/callbacks/signature.ts";
import { accountByToken } from "../../src/store/accounts.ts";
import { activeSecrets } from "../../src/store/signing-secrets.ts";
import { startTestHark, type TestHark, refused } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

const PUBLIC_URL = "https://hark.example.com";
const SECRETS = "/v3/security/signing-secrets";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING = "00000000-0000-4000-8000-000000000000";
/** The API's clock stands here: dates it shows can be compared exactly. */
const NOW = "2026-03-02T09:30:00.000Z";

describe("signing secrets API", () => {
  let hark: TestHark;
  let token: string;
  let other: string;
  before(async () => {
    hark = await startTestHark({ HARK_PUBLIC_URL: PUBLIC_URL }, { clock: { now: () => new Date(NOW) } });
    token = await hark.createAccount();
    other = await hark.createAccount();
  });
  after(() => hark.close());

  const call = (method: "GET" | "POST" | "DELETE", url: string, payload?: unknown, as = token) =>
    hark.api(as, method, url, payload);
  const get = (url: string, as = token) => call("GET", url, undefined, as);
  const post = (url: string, payload?: unknown, as = token) => call("POST", url, payload, as);
  const del = (url: string, as = token) => call("DELETE", url, undefined, as);
  const expire = (secretId: string, afterSeconds: unknown, as = token) =>
    post(`${SECRETS}/${secretId}/expire`, { afterSeconds }, as);

  async function create(as = token): Promise<{ secretId: string; secret: string; dateCreated: string }> {
    const response = await post(SECRETS, undefined, as);
    assert.equal(response.statusCode, 201, response.body);
    assert.equal(response.headers["cache-control"], "no-store");
    return response.json();
  }

  test("POST creates a secret and shows it in full; GET of its id shows it again; the list only its end", async () => {
    const created = await create();
    assert.deepEqual(Object.keys(created).sort(), ["dateCreated", "secret", "secretId"]);
    assert.match(created.secretId, UUID);
    await assertDescribedBy("NewSigningSecret", created);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(secretKey(created.secret).length >= 24, "at least 24 bytes of key, as the spec asks");
    assert.equal(created.dateCreated, NOW);

    const one = await get(`${SECRETS}/${created.secretId}`);
    assert.equal(one.statusCode, 200, one.body);
    assert.deepEqual(one.json(), { ...created, active: true });
    await assertDescribedBy("SigningSecret", one.json());
    assert.equal(one.headers["cache-control"], "no-store", "a secret is kept by no cache");

    const list = await get(SECRETS);
    assert.equal(list.statusCode, 200, list.body);
    const body = list.json();
    assert.deepEqual(body._links, { self: { href: `${PUBLIC_URL}${SECRETS}` } });
    await assertDescribedBy("SigningSecretList", body);
    const entry = body.secrets.find((s: { secretId: string }) => s.secretId === created.secretId);
    assert.deepEqual(entry, {
      secretId: created.secretId,
      last4: created.secret.slice(-4),
      dateCreated: created.dateCreated,
      active: true,
    });
    assert.ok(!list.body.includes(created.secret.slice(6, 30)), "the list never shows the secret");

    assert.equal((await post(SECRETS, {})).statusCode, 201, "an empty object is no body");
  });

  test("every secret is new", async () => {
    const [a, b] = [await create(), await create()];
    assert.notEqual(a.secretId, b.secretId);
    assert.notEqual(a.secret, b.secret);
  });

  test("expire: both sign until the old one's time, then it is inactive and stays expired", async () => {
    const old = await create();
    const expiring = await expire(old.secretId, 3600);
    assert.equal(expiring.statusCode, 200, expiring.body);
    const body = expiring.json();
    assert.equal(body.secretId, old.secretId);
    assert.equal(body.active, true);
    assert.equal(body.last4, old.secret.slice(-4));
    assert.equal(body.secret, undefined, "expiring shows the summary, not the secret");
    await assertDescribedBy("SigningSecretSummary", body);
    assert.equal(body.dateExpires, "2026-03-02T10:30:00.000Z", "an hour from now");
    const expiresAt = Date.parse(body.dateExpires);

    // An expiring secret may be given another time, sooner or later.
    const sooner = (await expire(old.secretId, 60)).json();
    assert.ok(Date.parse(sooner.dateExpires) < expiresAt);
    assert.equal(sooner.active, true);

    const now = (await expire(old.secretId, 0)).json();
    assert.equal(now.active, false);
    const shown = (await get(`${SECRETS}/${old.secretId}`)).json();
    assert.equal(shown.active, false);
    assert.equal(shown.dateExpires, now.dateExpires);
    assert.equal(shown.secret, old.secret, "an expired secret can still be read");
    await assertDescribedBy("SigningSecret", shown, "an expired secret");

    const message = refused(await expire(old.secretId, 3600), 409, 11303);
    assert.match(message, /expired/);
    assert.equal((await get(`${SECRETS}/${old.secretId}`)).json().dateExpires, now.dateExpires, "unchanged");
    assert.equal(
      (await expire(old.secretId, MAX_EXPIRY_SECONDS)).statusCode,
      409,
      "not brought back by a long expiry either",
    );
  });

  test("expire takes afterSeconds from 0 to 7 days", async () => {
    const { secretId } = await create();
    assert.equal((await expire(secretId, MAX_EXPIRY_SECONDS)).statusCode, 200);
    for (const bad of [-1, MAX_EXPIRY_SECONDS + 1, 1.5, "60", null, true, [60]]) {
      const message = refused(await expire(secretId, bad), 400, 11302);
      assert.match(message, /afterSeconds/);
    }
    refused(await post(`${SECRETS}/${secretId}/expire`, {}), 400, 11302);
    refused(await post(`${SECRETS}/${secretId}/expire`, [{ afterSeconds: 60 }]), 400, 11302);
    refused(await post(`${SECRETS}/${secretId}/expire`, "60"), 400, 11302);
    refused(await post(`${SECRETS}/${secretId}/expire`), 400, 11302);
    assert.match(
      refused(await post(`${SECRETS}/${secretId}/expire`, { afterSeconds: 60, at: "now" }), 400, 11302),
      /\(at\) is not part of the body/,
    );
    assert.equal((await get(`${SECRETS}/${secretId}`)).json().active, true, "nothing refused changed it");
  });

  test("DELETE removes a secret: 204, then it is gone", async () => {
    const { secretId } = await create();
    const deleted = await del(`${SECRETS}/${secretId}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, "");
    refused(await get(`${SECRETS}/${secretId}`), 404, 10205);
    refused(await del(`${SECRETS}/${secretId}`), 404, 10205);
    refused(await expire(secretId, 0), 404, 10205);
    const list = (await get(SECRETS)).json();
    assert.ok(!list.secrets.some((s: { secretId: string }) => s.secretId === secretId));
  });

  test("an unknown or malformed id is 404 on every route", async () => {
    for (const id of [MISSING, "not-a-uuid", "1"]) {
      const message = refused(await get(`${SECRETS}/${id}`), 404, 10205);
      assert.match(message, new RegExp(`GET ${SECRETS}`));
      refused(await del(`${SECRETS}/${id}`), 404, 10205);
      refused(await expire(id, 60), 404, 10205);
    }
  });

  test("POST takes no options: a body with properties, or of another type, is refused", async () => {
    const count = (await get(SECRETS)).json().secrets.length;
    refused(await post(SECRETS, { secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw" }), 400, 11005);
    refused(await post(SECRETS, [1]), 400, 11005);
    refused(await post(SECRETS, "x"), 400, 11005);
    refused(
      await hark.app.inject({
        method: "POST",
        url: SECRETS,
        headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
        payload: "whsec_x",
      }),
      400,
      11005,
    );
    refused(
      await hark.app.inject({
        method: "POST",
        url: SECRETS,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/xml" },
        payload: "<secret/>",
      }),
      415,
      11007,
    );
    refused(
      await hark.app.inject({
        method: "POST",
        url: SECRETS,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        payload: "{",
      }),
      400,
      11005,
    );
    assert.equal((await get(SECRETS)).json().secrets.length, count, "none was created");
  });

  test(`an account has at most ${MAX_ACTIVE_SECRETS} active secrets; an expired one does not count`, async () => {
    const busy = await hark.createAccount();
    const made = [];
    for (let i = 0; i < MAX_ACTIVE_SECRETS; i++) made.push(await create(busy));
    const message = refused(await post(SECRETS, undefined, busy), 409, 11301);
    assert.match(message, /delete or expire/);
    await expire(made[0]?.secretId ?? "", 0, busy);
    await create(busy);
    refused(await post(SECRETS, undefined, busy), 409, 11301);
    await del(`${SECRETS}/${made[1]?.secretId}`, busy);
    await create(busy);
    assert.equal((await get(SECRETS, busy)).json().secrets.length, MAX_ACTIVE_SECRETS + 1);
  });

  test("another account can neither see nor change nor sign with an account's secrets", async () => {
    const mine = await create();
    const stranger = await hark.createAccount();
    assert.deepEqual((await get(SECRETS, stranger)).json().secrets, []);
    refused(await get(`${SECRETS}/${mine.secretId}`, stranger), 404, 10205);
    refused(await del(`${SECRETS}/${mine.secretId}`, stranger), 404, 10205);
    refused(await expire(mine.secretId, 0, stranger), 404, 10205);
    const still = (await get(`${SECRETS}/${mine.secretId}`)).json();
    assert.equal(still.active, true);
    assert.equal(still.dateExpires, undefined);

    const theirs = await create(other);
    const ids = await Promise.all(
      [token, other, stranger].map(async (t) => (await accountByToken(hark.services.db, t))?.accountId ?? ""),
    );
    const signing = await activeSecrets(hark.services.db, ids, new Date());
    assert.ok(signing.get(ids[0] ?? "")?.includes(mine.secret));
    assert.ok(!signing.get(ids[0] ?? "")?.includes(theirs.secret));
    assert.deepEqual(signing.get(ids[1] ?? ""), [theirs.secret]);
    assert.equal(signing.get(ids[2] ?? ""), undefined, "no secrets: nothing signs");
  });

  test("every route needs the account's token", async () => {
    for (const [method, url] of [
      ["GET", SECRETS],
      ["POST", SECRETS],
      ["GET", `${SECRETS}/${MISSING}`],
      ["DELETE", `${SECRETS}/${MISSING}`],
      ["POST", `${SECRETS}/${MISSING}/expire`],
    ] as const) {
      refused(await hark.app.inject({ method, url }), 401, 10002);
      refused(
        await hark.app.inject({ method, url, headers: { authorization: "Bearer hark_nope" } }),
        401,
        10003,
      );
    }
  });
});

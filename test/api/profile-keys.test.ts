/**
 * The keys API on a real server: an account makes, lists, reads and deletes API keys with its user token;
 * a key then works like that token until it expires (a fixed clock moved on) or is deleted, within its
 * scope, and never on the keys API itself. Every refusal VoiceBase documents (70000–70008, 10012).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { wavHeader } from "../../src/pipeline/wav.ts";
import { startTestHark, type TestHark, refused } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

const KEYS = "/v3/profile/keys";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MISSING = "00000000-0000-4000-8000-000000000000";
const START = new Date("2026-03-02T09:30:00.000Z");
const HOUR = 60 * 60 * 1000;
/** A second of silence: enough for an upload to be accepted. */
const SILENCE = Buffer.concat([wavHeader(32000, 16000), Buffer.alloc(32000)]);

describe("API keys", () => {
  let hark: TestHark;
  let user: string;
  let other: string;
  let now = START;
  before(async () => {
    hark = await startTestHark({}, { clock: { now: () => now } });
    user = await hark.createAccount();
    other = await hark.createAccount();
  });
  after(() => hark.close());

  const at = (offsetMs: number) => new Date(START.getTime() + offsetMs);

  async function create(configuration: unknown, as = user) {
    const response = await hark.api(as, "POST", KEYS, configuration);
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.headers["cache-control"], "no-store");
    return response.json();
  }

  test("POST makes a key and shows its token once; the list and GET of its id show the key, never the token", async () => {
    now = START;
    const created = await create({ ttlMillis: HOUR, ephemeral: true, scope: "media:get" });
    await assertDescribedBy("NewApiKey", created);
    assert.match(created.id, UUID);
    assert.deepEqual(created, {
      id: created.id,
      bearerToken: created.bearerToken,
      lastSix: created.bearerToken.slice(-6),
      issued: START.toISOString(),
      expirationDate: at(HOUR).toISOString(),
      expired: false,
      scope: "media:get",
      ephemeral: true,
    });
    assert.ok(created.bearerToken.length >= 40, "a token long enough not to be guessed");

    const { bearerToken, ...shown } = created;
    const one = await hark.api(user, "GET", `${KEYS}/${created.id}`);
    assert.equal(one.statusCode, 200, one.body);
    assert.deepEqual(one.json(), shown);
    await assertDescribedBy("ApiKey", one.json());

    const list = await hark.api(user, "GET", KEYS);
    assert.equal(list.statusCode, 200, list.body);
    await assertDescribedBy("ApiKeyList", list.json());
    assert.deepEqual(
      list.json().keys.find((key: { id: string }) => key.id === created.id),
      shown,
    );
    assert.ok(!list.body.includes(bearerToken.slice(0, 20)), "the list never shows a token");

    const stored = await hark.services.db.query("select * from api_keys where key_id = $1", [created.id]);
    assert.ok(!JSON.stringify(stored.rows).includes(bearerToken.slice(0, 20)), "the token is stored hashed");
  });

  test("a key without scope uploads and reads like the user token; the media is the account's", async () => {
    now = START;
    const { bearerToken: key } = await create({ ephemeral: false });
    const upload = await hark.upload(key, { media: SILENCE, mediaType: "audio/wav" });
    assert.equal(upload.statusCode, 200, upload.body);
    const { mediaId } = upload.json();
    const asKey = await hark.api(key, "GET", `/v3/media/${mediaId}`);
    assert.equal(asKey.statusCode, 200, asKey.body);
    assert.equal((await hark.api(user, "GET", `/v3/media/${mediaId}`)).statusCode, 200, "the user sees it");
    refused(await hark.api(other, "GET", `/v3/media/${mediaId}`), 404, 10205);
  });

  test("a key stops working at its expiry, and the list then shows it expired", async () => {
    now = START;
    const created = await create({ expirationDate: at(HOUR).toISOString() });
    assert.equal((await hark.api(created.bearerToken, "GET", "/v3/media")).statusCode, 200);
    now = at(HOUR - 1);
    assert.equal((await hark.api(created.bearerToken, "GET", "/v3/media")).statusCode, 200, "still in force");
    now = at(HOUR);
    refused(await hark.api(created.bearerToken, "GET", "/v3/media"), 401, 10003);
    const one = await hark.api(user, "GET", `${KEYS}/${created.id}`);
    assert.equal(one.json().expired, true);
    now = START;
  });

  test("a deleted key is refused from the next request on; deleting or reading it again is 70007", async () => {
    now = START;
    const created = await create({ ephemeral: false });
    assert.equal((await hark.api(created.bearerToken, "GET", "/v3/media")).statusCode, 200);
    const deleted = await hark.api(user, "DELETE", `${KEYS}/${created.id}`);
    assert.equal(deleted.statusCode, 204, deleted.body);
    refused(await hark.api(created.bearerToken, "GET", "/v3/media"), 401, 10003);
    refused(await hark.api(user, "GET", `${KEYS}/${created.id}`), 404, 70007);
    refused(await hark.api(user, "DELETE", `${KEYS}/${created.id}`), 404, 70007);
    const list = await hark.api(user, "GET", KEYS);
    assert.ok(!list.json().keys.some((key: { id: string }) => key.id === created.id));
  });

  test("unknown, malformed and another account's key ids are 70007", async () => {
    const mine = await create({ ephemeral: false });
    refused(await hark.api(user, "GET", `${KEYS}/${MISSING}`), 404, 70007);
    refused(await hark.api(user, "GET", `${KEYS}/not-a-uuid`), 404, 70007);
    refused(await hark.api(user, "DELETE", `${KEYS}/not-a-uuid`), 404, 70007);
    refused(await hark.api(other, "GET", `${KEYS}/${mine.id}`), 404, 70007);
    refused(await hark.api(other, "DELETE", `${KEYS}/${mine.id}`), 404, 70007);
    assert.equal((await hark.api(user, "GET", `${KEYS}/${mine.id}`)).statusCode, 200, "still there");
    assert.ok(
      !(await hark.api(other, "GET", KEYS)).body.includes(mine.id),
      "another account lists none of it",
    );
  });

  test("the keys API refuses every API key with 10012, whatever its scope", async () => {
    now = START;
    for (const configuration of [{ ephemeral: false }, { scope: "media:get" }]) {
      const { id, bearerToken: key } = await create(configuration);
      refused(await hark.api(key, "GET", KEYS), 403, 10012);
      refused(await hark.api(key, "POST", KEYS, { ephemeral: false }), 403, 10012);
      refused(await hark.api(key, "GET", `${KEYS}/${id}`), 403, 10012);
      refused(await hark.api(key, "DELETE", `${KEYS}/${id}`), 403, 10012);
      assert.equal((await hark.api(user, "GET", `${KEYS}/${id}`)).statusCode, 200, "the key is still there");
    }
  });

  test("a scoped key may send only what its scope names (10006 otherwise)", async () => {
    now = START;
    const { bearerToken: reader } = await create({ scope: "media:get usage:get" });
    assert.equal((await hark.api(reader, "GET", "/v3/media")).statusCode, 200);
    assert.equal((await hark.api(reader, "GET", "/v3/usage/months")).statusCode, 200);
    refused(await hark.upload(reader, { media: SILENCE, mediaType: "audio/wav" }), 403, 10006);
    refused(await hark.api(reader, "GET", "/v3/definition/spotting/groups"), 403, 10006);
    refused(await hark.api(reader, "DELETE", `/v3/media/${MISSING}`), 403, 10006);

    const { bearerToken: uploader } = await create({ scope: "media:post" });
    assert.equal((await hark.upload(uploader, { media: SILENCE, mediaType: "audio/wav" })).statusCode, 200);
    refused(await hark.api(uploader, "GET", "/v3/media"), 403, 10006);
  });

  test("each configuration VoiceBase refuses is refused with its code, and nothing is made", async () => {
    now = START;
    const before = (await hark.api(user, "GET", KEYS)).json().keys.length;
    const cases: [unknown, number][] = [
      [{}, 70000],
      [{ expirationDate: at(HOUR).toISOString(), ttlMillis: 1000 }, 70001],
      [{ expirationDate: START.toISOString() }, 70002],
      [{ expirationDate: at(-1000).toISOString() }, 70002],
      [{ expirationDate: at(2 * HOUR + 1).toISOString() }, 70003],
      [{ ttlMillis: 0 }, 70004],
      [{ ttlMillis: -5 }, 70004],
      [{ ttlMillis: 2 * HOUR + 1 }, 70005],
      [{ ephemeral: true }, 70006],
      [{ ephemeral: true, scope: "media:get" }, 70006],
      [{ scope: "media:get?extendedFilter=speakers:agent" }, 70008],
      [{ scope: "profile:get" }, 70008],
      [{ scope: "media:fly" }, 70008],
      [{ scope: "media" }, 70008],
      [{ scope: " " }, 70008],
      [{ ttlMillis: "3600000" }, 11005],
      [{ ephemeral: false, owner: "me" }, 11005],
      [{ expirationDate: "tomorrow" }, 11005],
    ];
    for (const [configuration, code] of cases) {
      const message = refused(await hark.api(user, "POST", KEYS, configuration), 400, code);
      assert.ok(message.length > 20, `${JSON.stringify(configuration)}: says what to change`);
    }
    const noBody = await hark.app.inject({
      method: "POST",
      url: KEYS,
      headers: { authorization: `Bearer ${user}` },
    });
    refused(noBody, 400, 70000);
    assert.equal((await hark.api(user, "GET", KEYS)).json().keys.length, before, "no key was made");

    // The limits are inclusive: exactly 2 hours is allowed.
    assert.equal((await create({ ttlMillis: 2 * HOUR })).expirationDate, at(2 * HOUR).toISOString());
    assert.equal(
      (await create({ expirationDate: at(2 * HOUR).toISOString() })).expirationDate,
      at(2 * HOUR).toISOString(),
    );
  });

  test("without a token, or with an unknown one, the keys API is 401", async () => {
    refused(await hark.app.inject({ method: "GET", url: KEYS }), 401, 10002);
    refused(await hark.api("hark_nonsense", "GET", KEYS), 401, 10003);
  });
});

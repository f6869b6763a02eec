/**
 * `GET /v3/media` as VoiceBase's search guide uses it: paging by `after` and `before`, date windows,
 * `extendedFilter`, full-text `query` over transcript and metadata, and what an encrypted item hides.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { generateKey } from "openpgp";
import { startProcessing } from "../../src/store/media.ts";
import { finishWith } from "../support/finish.ts";
import { refused, startTestHark, type TestHark } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

const PUBLIC_URL = "https://hark.example.com";
const AUDIO = randomBytes(2048);

describe("searching media", () => {
  let hark: TestHark;
  let now = new Date("2026-01-10T12:00:00Z");
  before(async () => {
    hark = await startTestHark({ HARK_PUBLIC_URL: `${PUBLIC_URL}/` }, { clock: { now: () => now } });
  });
  after(() => hark.close());

  async function upload(token: string, at: string, metadata?: unknown, configuration?: unknown) {
    now = new Date(at);
    const response = await hark.upload(token, {
      media: AUDIO,
      mediaType: "audio/mpeg",
      ...(metadata !== undefined && { metadata }),
      ...(configuration !== undefined && { configuration }),
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().mediaId as string;
  }
  /** The listing at `url` (a path, or a link the listing gave), as its mediaIds and the whole body. */
  async function list(token: string, url: string) {
    const response = await hark.api(token, "GET", url.replace(PUBLIC_URL, ""));
    assert.equal(response.statusCode, 200, response.body);
    const body = response.json();
    return { ids: body.media.map((m: { mediaId: string }) => m.mediaId) as string[], body };
  }
  const ids = async (token: string, url: string) => (await list(token, url)).ids;

  test("pages forward by after and back by before, each page bordering its cursor, with links", async () => {
    const token = await hark.createAccount();
    const items: string[] = [];
    for (let i = 0; i < 7; i++) items.push(await upload(token, `2026-01-10T12:0${i}:00Z`));

    const first = await list(token, "/v3/media?sortOrder=asc&limit=3");
    assert.deepEqual(first.ids, items.slice(0, 3));
    assert.deepEqual(first.body.pagination, {
      limit: 3,
      sortOrder: [
        { field: "dateCreated", direction: "asc" },
        { field: "mediaId", direction: "asc" },
      ],
    });
    assert.equal(first.body._links.self.href, `${PUBLIC_URL}/v3/media?sortOrder=asc&limit=3`);
    assert.equal(first.body._links.previous, undefined, "nothing precedes the first page");
    assert.equal(
      first.body._links.next.href,
      `${PUBLIC_URL}/v3/media?sortOrder=asc&limit=3&after=${items[2]}`,
    );

    await assertDescribedBy("MediaList", first.body);
    const second = await list(token, first.body._links.next.href);
    assert.deepEqual(second.ids, items.slice(3, 6));
    const third = await list(token, second.body._links.next.href);
    assert.deepEqual(third.ids, items.slice(6));
    assert.equal(third.body._links.next, undefined, "the last page has no next");

    // Back: before the first item of a page is the page before it, in the same order.
    assert.equal(
      third.body._links.previous.href,
      `${PUBLIC_URL}/v3/media?sortOrder=asc&limit=3&before=${items[6]}`,
    );
    const backOne = await list(token, third.body._links.previous.href);
    assert.deepEqual(backOne.ids, items.slice(3, 6));
    assert.deepEqual(await ids(token, backOne.body._links.previous.href), items.slice(0, 3));

    // Newest first (the default): the next page is before the last item.
    const newest = await list(token, "/v3/media?limit=3");
    assert.deepEqual(newest.ids, [items[6], items[5], items[4]]);
    assert.equal(newest.body.pagination.sortOrder[0].direction, "desc");
    assert.deepEqual(await ids(token, newest.body._links.next.href), [items[3], items[2], items[1]]);
    // after, newest first: the items nearest after the cursor, shown newest first.
    const afterNewestFirst = await list(token, `/v3/media?limit=2&after=${items[1]}`);
    assert.deepEqual(afterNewestFirst.ids, [items[3], items[2]]);
    // Its next page goes on to older items, its previous one to newer.
    assert.deepEqual(await ids(token, afterNewestFirst.body._links.next.href), [items[1], items[0]]);
    assert.deepEqual(await ids(token, afterNewestFirst.body._links.previous.href), [items[5], items[4]]);
    // Both: the window between them.
    assert.deepEqual(
      await ids(token, `/v3/media?sortOrder=asc&after=${items[1]}&before=${items[5]}`),
      items.slice(2, 5),
    );
  });

  test("items created at the same instant keep one order, by mediaId, across pages", async () => {
    const token = await hark.createAccount();
    const items: string[] = [];
    for (let i = 0; i < 4; i++) items.push(await upload(token, "2026-01-10T12:00:00Z"));
    const sorted = [...items].sort();
    assert.deepEqual(await ids(token, "/v3/media?sortOrder=asc"), sorted);
    const page = await list(token, "/v3/media?sortOrder=asc&limit=2");
    assert.deepEqual([...page.ids, ...(await ids(token, page.body._links.next.href))], sorted);
  });

  test("onOrAfterDate and onOrBeforeDate: a date is a whole UTC day, a date-time an instant", async () => {
    const token = await hark.createAccount();
    const lateOn9 = await upload(token, "2026-01-09T23:59:59.999Z");
    const startOf10 = await upload(token, "2026-01-10T00:00:00Z");
    const noonOf10 = await upload(token, "2026-01-10T12:00:00Z");
    const startOf11 = await upload(token, "2026-01-11T00:00:00Z");
    const asc = "/v3/media?sortOrder=asc";
    assert.deepEqual(await ids(token, `${asc}&onOrAfterDate=2026-01-10&onOrBeforeDate=2026-01-10`), [
      startOf10,
      noonOf10,
    ]);
    assert.deepEqual(await ids(token, `${asc}&onOrBeforeDate=2026-01-10T12:00:00Z`), [
      lateOn9,
      startOf10,
      noonOf10,
    ]);
    assert.deepEqual(await ids(token, `${asc}&onOrAfterDate=2026-01-10T13:00:00%2B01:00`), [
      noonOf10,
      startOf11,
    ]);
    assert.deepEqual(await ids(token, `${asc}&onOrAfterDate=2026-01-10T12:00:00.001Z`), [startOf11]);
    assert.deepEqual(await ids(token, `${asc}&onOrBeforeDate=2026-01-09T23:59Z`), []);
    assert.deepEqual(await ids(token, `${asc}&onOrAfterDate=2026-01-11&onOrBeforeDate=2026-01-09`), []);
  });

  test("extendedFilter: Name;Value or Name:Value, nested names, numbers, every filter must hold", async () => {
    const token = await hark.createAccount();
    const text = await upload(token, "2026-01-10T12:00:00Z", {
      extended: { customerId: "10101", call: { phone: "+1-307", time: "10:30" }, upselling: true },
    });
    const number = await upload(token, "2026-01-10T12:01:00Z", { extended: { customerId: 10101 } });
    await upload(token, "2026-01-10T12:02:00Z", { extended: { customerId: "20202" } });
    await upload(token, "2026-01-10T12:03:00Z");
    const asc = "/v3/media?sortOrder=asc";
    assert.deepEqual(await ids(token, `${asc}&extendedFilter=customerId%3A10101`), [text, number]);
    assert.deepEqual(await ids(token, `${asc}&extendedFilter=customerId%3B10101`), [text, number]);
    assert.deepEqual(await ids(token, `${asc}&extendedFilter=call.phone%3B%2B1-307`), [text]);
    assert.deepEqual(
      await ids(token, `${asc}&extendedFilter=call.time%3B10%3A30`),
      [text],
      "a colon in the value",
    );
    assert.deepEqual(await ids(token, `${asc}&extendedFilter=upselling%3Btrue`), [text]);
    assert.deepEqual(
      await ids(token, `${asc}&extendedFilter=customerId%3B10101&extendedFilter=upselling%3Btrue`),
      [text],
    );
    assert.deepEqual(await ids(token, `${asc}&extendedFilter=customerId%3B1010`), [], "whole values only");
  });

  test("query finds a transcript word and a metadata word; a field prefix keeps it to that field", async () => {
    const token = await hark.createAccount();
    const spoken = await upload(token, "2026-01-10T12:00:00Z", { title: "Inbound call" });
    await hark.services.db.transaction(async (sql) => {
      await startProcessing(sql, spoken);
      const words = ["Agent", "Thanks", "for", "calling", "about", "your", "refund"].map((w, p) => ({
        p,
        c: 1,
        s: p * 100,
        e: p * 100 + 90,
        w,
        ...(w === "Agent" && { m: "turn" }),
      }));
      const transcript = { confidence: 1, words, voiceActivity: [], alternateFormats: [] };
      assert.ok(
        await finishWith(sql, spoken, { status: "finished", sections: { transcript }, messages: [] }),
      );
    });
    const titled = await upload(token, "2026-01-10T12:01:00Z", {
      title: "Gathering Leaves by Robert Frost",
      description: "A refund request",
    });
    const asc = "/v3/media?sortOrder=asc&query=";
    assert.deepEqual(await ids(token, `${asc}calling`), [spoken], "a spoken word");
    assert.deepEqual(await ids(token, `${asc}frost`), [titled], "a title word, in any case");
    assert.deepEqual(
      await ids(token, `${asc}refund`),
      [spoken, titled],
      "spoken in one, described in the other",
    );
    assert.deepEqual(await ids(token, `${asc}transcript%3Arefund`), [spoken]);
    assert.deepEqual(await ids(token, `${asc}description%3Arefund`), [titled]);
    assert.deepEqual(await ids(token, `${asc}title%3AFrost`), [titled]);
    assert.deepEqual(await ids(token, `${asc}title%3Arefund`), []);
    assert.deepEqual(await ids(token, `${asc}refund%20-frost`), [spoken], "a word excluded");
    assert.deepEqual(await ids(token, `${asc}%22robert%20frost%22`), [titled], "a phrase");
    assert.deepEqual(await ids(token, `${asc}agent`), [], "a speaker's turn is not a spoken word");
    assert.deepEqual(
      await ids(token, `${asc}refund&onOrAfterDate=2026-01-10T12:00:30Z`),
      [titled],
      "with a date",
    );
  });

  test("query searches the extended fields the account made searchable, at once for media stored before", async () => {
    const token = await hark.createAccount();
    const item = await upload(token, "2026-01-10T12:00:00Z", {
      extended: { customerId: 10101, call: { agent: "Dana Scully" }, secret: "hidden" },
    });
    const asc = "/v3/media?sortOrder=asc&query=";
    assert.deepEqual(await ids(token, `${asc}scully`), [], "not searchable yet");
    const put = await hark.api(token, "PUT", "/v3/definition/media/search", {
      fields: ["extended.customerId", "extended.call.agent"],
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(await ids(token, `${asc}scully`), [item]);
    assert.deepEqual(await ids(token, `${asc}10101`), [item], "a number");
    assert.deepEqual(await ids(token, `${asc}hidden`), [], "a field not made searchable");
    assert.deepEqual(await ids(token, `${asc}extended.call.agent%3Adana`), [item]);
    assert.deepEqual(await ids(token, `${asc}extended.customerId%3Adana`), []);
    // A media item stored after the definition is searchable too.
    const later = await upload(token, "2026-01-10T12:01:00Z", {
      extended: { call: { agent: "Fox Mulder" } },
    });
    assert.deepEqual(await ids(token, `${asc}mulder`), [later]);
    // Metadata replaced: search follows.
    const replaced = await hark.api(token, "PUT", `/v3/media/${later}/metadata`, { title: "Mulder's call" });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual(await ids(token, `${asc}extended.call.agent%3Amulder`), []);
    assert.deepEqual(await ids(token, `${asc}title%3Amulder`), [later]);
  });

  test("an item uploaded with searchability.searchable false is listed but never matches a query", async () => {
    const token = await hark.createAccount();
    const hidden = await upload(
      token,
      "2026-01-10T12:00:00Z",
      { title: "Refund call" },
      {
        searchability: { searchable: false },
      },
    );
    const shown = await upload(
      token,
      "2026-01-10T12:01:00Z",
      { title: "Refund call" },
      {
        searchability: { searchable: true },
      },
    );
    assert.deepEqual(await ids(token, "/v3/media?sortOrder=asc&query=refund"), [shown]);
    assert.deepEqual(await ids(token, "/v3/media?sortOrder=asc"), [hidden, shown]);
  });

  test("an encrypted item shows no metadata, and neither query nor extendedFilter looks inside it", async () => {
    const token = await hark.createAccount();
    const keys = await generateKey({ type: "curve25519", userIDs: [{ name: "Client" }], format: "armored" });
    const key = await hark.app.inject({
      method: "POST",
      url: "/v3/security/public-keys",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/pgp-keys" },
      payload: keys.publicKey,
    });
    assert.equal(key.statusCode, 200, key.body);
    const metadata = { title: "confidential merger", externalId: "deal-1", extended: { deal: "acme" } };
    const sealed = await upload(token, "2026-01-10T12:00:00Z", metadata, {
      encryption: { publicKeyId: key.json().publicKeyId },
    });
    const plain = await upload(token, "2026-01-10T12:01:00Z", metadata);
    const listed = await list(token, "/v3/media?sortOrder=asc");
    assert.deepEqual(listed.ids, [sealed, plain]);
    assert.equal(listed.body.media[0].metadata, undefined, "as GET /v3/media/{id} hides it");
    assert.ok(listed.body.media[0].encryption);
    assert.deepEqual(listed.body.media[1].metadata, metadata);
    await assertDescribedBy("MediaList", listed.body);
    assert.deepEqual(await ids(token, "/v3/media?query=merger"), [plain]);
    assert.deepEqual(await ids(token, "/v3/media?extendedFilter=deal%3Bacme"), [plain]);
  });

  test("each bad parameter is a 400 that says what to send", async () => {
    const token = await hark.createAccount();
    const other = await hark.createAccount();
    const theirs = await upload(other, "2026-01-10T12:00:00Z");
    const bad = [
      "onOrAfterDate=2026-02-30",
      "onOrAfterDate=2026-01-10T12:00:00",
      "onOrBeforeDate=yesterday",
      "onOrBeforeDate=2026-1-5",
      "onOrBeforeDate=2026-01-10T24:00:00Z",
      "onOrAfterDate=2026-01-10&onOrAfterDate=2026-01-11",
      "limit=0",
      "limit=1001",
      "limit=ten",
      "sortOrder=up",
      "sortOrder=ASC",
      "extendedFilter=customerId",
      "extendedFilter=.a%3Bb",
      "query=",
      "query=%21%21%21",
      "query=extended.customerId%3A10101",
      "after=not-a-uuid",
      "after=00000000-0000-4000-8000-000000000000",
      `before=${theirs}`,
      "sort=asc",
    ];
    for (const query of bad) {
      const message = refused(await hark.api(token, "GET", `/v3/media?${query}`), 400, 11005);
      assert.ok(message.length > 20, `${query}: ${message}`);
    }
    const date = refused(await hark.api(token, "GET", "/v3/media?onOrAfterDate=2026-02-30"), 400, 11005);
    assert.match(date, /onOrAfterDate must be a date YYYY-MM-DD.*no such day/);
    const cursor = await hark.api(token, "GET", `/v3/media?before=${theirs}`);
    assert.match(cursor.json().errors[0].error, /before names no media item of this account/);
  });
});

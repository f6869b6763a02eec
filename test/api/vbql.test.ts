/**
 * VBQL end to end: categories written in VBQL computed on real uploads (a phrase, a speaker, a WHERE on
 * extended metadata), and `POST /v3/analytics/vbql` over two processed calls, one that matches and one
 * that does not.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { spokenFile } from "../pipeline/speech.ts";
import { refused, startTestHark, type TestHark } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

const VBQL = "/v3/analytics/vbql";

describe("VBQL", () => {
  let hark: TestHark;
  let token: string;
  let cancellation: string;
  let greeting: string;
  const audio: { file: string; cleanup: () => Promise<void> }[] = [];
  // Documents are read field by field, as a client's JSON.parse leaves them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  const documents = new Map<string, any>();

  const search = (statement: unknown, contentType = "application/json") =>
    hark.app.inject({
      method: "POST",
      url: VBQL,
      headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      payload: contentType === "application/json" ? JSON.stringify(statement) : String(statement),
    });

  async function upload(text: string, queue: string): Promise<string> {
    const spoken = await spokenFile(text);
    audio.push(spoken);
    const response = await hark.upload(token, {
      media: spoken.file,
      metadata: { title: `A ${queue} call`, externalId: `crm-${queue}`, extended: { queue } },
      configuration: { ingest: { speakerName: "Caller" }, categories: [{ allCategories: true }] },
    });
    assert.equal(response.statusCode, 200, response.body);
    const { mediaId } = response.json();
    assert.equal(await hark.ended(mediaId), "finished");
    return mediaId;
  }

  before(async () => {
    hark = await startTestHark({}, { workers: true });
    token = await hark.createAccount();
    const categories = {
      "cancel-billing": "SELECT * FROM media WHERE * SAYS 'cancel' AND extended.queue = 'billing'",
      "caller-cancels": "select * from media where 'caller' says 'cancel my subscription'",
      "agent-cancels": "SELECT * FROM media WHERE 'agent' SAYS 'cancel'",
      "sales-queue": "SELECT * FROM media WHERE extended.queue = 'sales'",
      "hark-language": '"cancel" AND NOT "thank you"',
    };
    for (const [name, query] of Object.entries(categories)) {
      const put = await hark.api(token, "PUT", `/v3/definition/categories/${name}`, { query });
      assert.equal(put.statusCode, 200, put.body);
    }
    [cancellation, greeting] = [
      await upload("I want to cancel my subscription", "billing"),
      await upload("thank you for calling have a nice day", "sales"),
    ];
    for (const mediaId of [cancellation, greeting])
      documents.set(mediaId, (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json());
  });
  after(async () => {
    await hark?.close();
    for (const spoken of audio) await spoken.cleanup();
  });

  const valuesOf = (mediaId: string) =>
    Object.fromEntries(
      documents
        .get(mediaId)
        .categories.map((c: { categoryName: string; categoryValue: number }) => [
          c.categoryName,
          c.categoryValue,
        ]),
    );

  test("categories written in VBQL are computed on the upload, WHERE reading its extended metadata", () => {
    assert.deepEqual(valuesOf(cancellation), {
      "agent-cancels": 0,
      "cancel-billing": 1,
      "caller-cancels": 1,
      "hark-language": 1,
      "sales-queue": 0,
    });
    assert.deepEqual(valuesOf(greeting), {
      "agent-cancels": 0,
      "cancel-billing": 0,
      "caller-cancels": 0,
      "hark-language": 0,
      "sales-queue": 1,
    });
    const [match] = documents
      .get(cancellation)
      .categories.find((c: { categoryName: string }) => c.categoryName === "caller-cancels").categoryMatches;
    assert.equal(match.speakerName, "Caller");
    assert.match(match.occurrences[0].exact, /cancel my subscription/i);
  });

  test("a statement Hark cannot read is refused when the category is defined, naming the clause", async () => {
    const put = await hark.api(token, "PUT", "/v3/definition/categories/near", {
      query: "SELECT * FROM media MATCH 'cancel' NEAR 'subscription'",
    });
    assert.match(refused(put, 400, 11203), /VBQL: the NEAR clause at column 36 is not supported/);
  });

  test("the search answers the matching item, its columns and where its phrase was said", async () => {
    const response = await search("SELECT mediaId, HITS(), extended.queue FROM media WHERE * SAYS 'cancel'");
    assert.equal(response.statusCode, 200, response.body);
    const result = response.json();
    await assertDescribedBy("StatementResult", result);
    assert.equal(result.totalResults, 1);
    assert.equal(result.limit, 100);
    assert.equal(result.offset, 0);
    assert.equal(typeof result.queryTimeMillis, "number");
    assert.deepEqual(result.rows, [{ mediaId: cancellation, hits: 1, "extended.queue": "billing" }]);
    assert.equal(result.hits.length, 1);
    const [hit] = result.hits[0];
    assert.deepEqual(hit.conditions, ["cancel"]);
    assert.equal(hit.fieldValues.speakerName, "Caller");
    assert.match(hit.fieldValues.exact, /cancel/i);
    assert.ok(hit.fieldValues.e > hit.fieldValues.s);
  });

  test("the statement may be sent as text/plain; SELECT * shows the item and its metadata", async () => {
    const response = await search("SELECT * FROM media WHERE extended.queue = 'sales'", "text/plain");
    assert.equal(response.statusCode, 200, response.body);
    const result = response.json();
    assert.equal(result.totalResults, 1);
    const [row] = result.rows;
    assert.equal(row.mediaId, greeting);
    assert.equal(row.title, "A sales call");
    assert.equal(row.externalId, "crm-sales");
    assert.deepEqual(row.extended, { queue: "sales" });
    assert.equal(row.dateCreated, documents.get(greeting).dateCreated);
    assert.deepEqual(result.hits, [[]], "a metadata comparison is said nowhere");
  });

  test("every item matches a statement without a condition; LIMIT and OFFSET page through them, newest first", async () => {
    const all = (await search("SELECT mediaId FROM media")).json();
    assert.equal(all.totalResults, 2);
    assert.deepEqual(all.rows, [{ mediaId: greeting }, { mediaId: cancellation }]);
    const second = (await search("SELECT mediaId FROM media LIMIT 1 OFFSET 1")).json();
    assert.deepEqual(
      [second.totalResults, second.limit, second.offset, second.rows],
      [2, 1, 1, [{ mediaId: cancellation }]],
    );
  });

  test("another account's media are never searched", async () => {
    const other = await hark.createAccount();
    const response = await hark.app.inject({
      method: "POST",
      url: VBQL,
      headers: { authorization: `Bearer ${other}`, "content-type": "application/json" },
      payload: JSON.stringify("SELECT * FROM media"),
    });
    assert.deepEqual([response.json().totalResults, response.json().rows], [0, []]);
  });

  test("bad statements and bodies are refused with what to change", async () => {
    assert.match(refused(await search("SELECT * FROM media ORDER BY title"), 400, 11203), /ORDER BY clause/);
    assert.match(
      refused(await search("SELECT * FROM media LIMIT 5000"), 400, 11203),
      /LIMIT 5000 is more than 1000/,
    );
    const notAString = refused(await search({ query: "SELECT * FROM media" }), 400, 11203);
    assert.match(
      notAString,
      /must be a VBQL statement, SELECT … FROM media …, as a JSON string or as text\/plain/,
    );
    assert.match(refused(await search("", "text/plain"), 400, 11203), /must be a VBQL statement/);
    refused(await search("SELECT * FROM media", "application/xml"), 415, 11007);
    const anonymous = await hark.app.inject({ method: "POST", url: VBQL, payload: "SELECT * FROM media" });
    refused(anonymous, 401, 10002);
  });
});

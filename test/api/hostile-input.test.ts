/**
 * JSON that parses but that PostgreSQL cannot store (a NUL, a lone surrogate) or that nests without end:
 * every route that takes it answers a 4xx in the envelope with its own code, and stores nothing.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { refused, startTestHark, type TestHark } from "../support/harness.ts";

/** Values JSON carries and PostgreSQL's text and jsonb refuse. */
const BAD_STRINGS = { nul: "a\u0000b", "lone surrogate": "a\ud800b" } as const;
/** `[[[…]]]` 5,000 deep, as JSON text. */
const DEEP = `${"[".repeat(5000)}${"]".repeat(5000)}`;

describe("hostile JSON values", () => {
  let hark: TestHark;
  let token: string;
  before(async () => {
    hark = await startTestHark({}, { workers: true });
    token = await hark.createAccount();
  });
  after(() => hark.close());

  const mediaCount = async () =>
    Number((await hark.services.db.query<{ n: string }>("select count(*) as n from media")).rows[0]?.n);
  /** A JSON body given as text, so that it may hold what JSON.stringify would not make. */
  const send = (method: "PUT" | "POST" | "GET", url: string, body?: string) =>
    hark.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body !== undefined && { "content-type": "application/json" }),
      },
      ...(body !== undefined && { payload: body }),
    });

  test("an upload's configuration or metadata with a NUL, a lone surrogate or deep nesting is refused; nothing stored", async () => {
    const before = await mediaCount();
    const media = randomBytes(1024);
    for (const [kind, bad] of Object.entries(BAD_STRINGS)) {
      const configuration = { publish: { callbacks: [{ url: `https://example.com/${bad}` }] } };
      const message = refused(await hark.upload(token, { media, configuration }), 400, 10007);
      assert.match(message, /configuration\.publish\.callbacks\[0\]\.url/, kind);
      for (const metadata of [{ title: bad }, { extended: { [bad]: 1 } }, { extended: { list: [bad] } }]) {
        assert.match(refused(await hark.upload(token, { media, metadata }), 400, 10107), /metadata/, kind);
      }
    }
    const deepMetadata = `{"extended": {"x": ${DEEP}}}`;
    assert.match(
      refused(await hark.upload(token, { media, metadata: deepMetadata }), 400, 10107),
      /^metadata\.extended\.x holds arrays and objects nested more than 64 deep/,
    );
    refused(await hark.upload(token, { media, configuration: `{"x": ${DEEP}}` }), 400, 10007);
    assert.equal(await mediaCount(), before);
  });

  test("the same in file parts, and a NUL in a part name, a mediaUrl or a media type, are refused", async () => {
    const before = await mediaCount();
    const form = (parts: [string, Blob | string, string?][]) => {
      const data = new FormData();
      for (const [name, value, fileName] of parts) {
        if (typeof value === "string") data.append(name, value);
        else data.append(name, value, fileName);
      }
      return hark.app.inject({
        method: "POST",
        url: "/v3/media",
        headers: { authorization: `Bearer ${token}` },
        payload: data,
      });
    };
    const media = new Blob([randomBytes(1024)], { type: "audio/mpeg" });
    const metadataFile = new Blob([JSON.stringify({ title: "a\u0000b" })], { type: "application/json" });
    refused(
      await form([
        ["media", media, "a.mp3"],
        ["metadata", metadataFile, "metadata.json"],
      ]),
      400,
      10107,
    );
    const deepFile = new Blob([`{"extended": ${DEEP}}`], { type: "application/json" });
    refused(
      await form([
        ["media", media, "a.mp3"],
        ["metadata", deepFile, "metadata.json"],
      ]),
      400,
      10107,
    );
    refused(
      await form([
        ["media", media, "a.mp3"],
        ["meta\u0000data", "{}"],
      ]),
      400,
      10001,
    );
    refused(await form([["mediaUrl", "https://example.com/a\u0000b.mp3"]]), 400, 10204);
    // A Blob drops a type with a NUL, so this body is written by hand.
    const raw = await hark.app.inject({
      method: "POST",
      url: "/v3/media",
      headers: { authorization: `Bearer ${token}`, "content-type": "multipart/form-data; boundary=b" },
      payload: Buffer.concat([
        Buffer.from(
          '--b\r\nContent-Disposition: form-data; name="media"; filename="a.mp3"\r\nContent-Type: audio/mp\u0000eg\r\n\r\n',
        ),
        randomBytes(1024),
        Buffer.from("\r\n--b--\r\n"),
      ]),
    });
    refused(raw, 400, 10001);
    assert.equal(await mediaCount(), before);
  });

  test("a reprocess's transcript with a NUL is refused; the item is not run again", async () => {
    const upload = await hark.upload(token, { media: randomBytes(1024) });
    assert.equal(upload.statusCode, 200, upload.body);
    const { mediaId } = upload.json();
    assert.equal(await hark.ended(mediaId), "failed"); // not audio: ended, so it may be reprocessed
    const form = new FormData();
    form.append("transcript", "hello\u0000world");
    const reprocess = await hark.app.inject({
      method: "POST",
      url: `/v3/media/${mediaId}`,
      headers: { authorization: `Bearer ${token}` },
      payload: form,
    });
    assert.match(refused(reprocess, 400, 11005), /NUL/);
    assert.equal((await send("GET", `/v3/media/${mediaId}`)).json().status, "failed");
  });

  test("PUT metadata with a NUL, a lone surrogate or deep nesting is refused; the metadata is kept", async () => {
    const upload = await hark.upload(token, { media: randomBytes(1024), metadata: { title: "Kept" } });
    assert.equal(upload.statusCode, 200, upload.body);
    const url = `/v3/media/${upload.json().mediaId}/metadata`;
    for (const bad of Object.values(BAD_STRINGS)) {
      refused(await send("PUT", url, JSON.stringify({ title: bad })), 400, 10107);
      refused(await send("PUT", url, JSON.stringify({ extended: { deep: { [bad]: true } } })), 400, 10107);
    }
    refused(await send("PUT", url, `{"extended": {"x": ${DEEP}}}`), 400, 10107);
    assert.deepEqual((await send("GET", url)).json(), { title: "Kept" });
  });

  test("definitions with a NUL, a lone surrogate or deep nesting are refused with their own codes", async () => {
    const groups = "/v3/definition/spotting/groups";
    const categories = "/v3/definition/categories";
    const classifiers = "/v3/definition/prediction/classifiers";
    const vocabularies = "/v3/definition/vocabularies";
    const examples = (bad: string) => [
      { text: `I want to cancel ${bad}`, label: "churn" },
      { text: "please close my subscription", label: "churn" },
      { text: "thanks for the help", label: "stay" },
      { text: "works perfectly", label: bad },
    ];
    for (const [kind, bad] of Object.entries(BAD_STRINGS)) {
      const message = refused(
        await send("PUT", `${groups}/g`, JSON.stringify({ keywords: [`cancel ${bad}`] })),
        400,
        80103,
      );
      assert.match(message, /keywords\[0\]/, kind);
      for (const body of [
        { query: `"a${bad}"` },
        { query: '"a"', notes: bad },
        { query: '"a"', tags: [bad] },
      ]) {
        refused(await send("PUT", `${categories}/c`, JSON.stringify(body)), 400, 11202);
      }
      refused(await send("PUT", `${classifiers}/k`, JSON.stringify({ examples: examples(bad) })), 400, 11204);
      refused(await send("PUT", `${vocabularies}/v`, JSON.stringify({ terms: [{ term: bad }] })), 400, 80203);
    }
    refused(await send("PUT", `${groups}/g`, `{"keywords": ${DEEP}}`), 400, 80103);
    refused(await send("PUT", `${categories}/c`, `{"query": "\\"a\\"", "notes": ${DEEP}}`), 400, 11202);
    refused(await send("PUT", `${classifiers}/k`, `{"examples": ${DEEP}}`), 400, 11204);
    refused(await send("PUT", `${vocabularies}/v`, `{"terms": ${DEEP}}`), 400, 80203);
    for (const url of [`${groups}/g`, `${categories}/c`, `${classifiers}/k`, `${vocabularies}/v`]) {
      refused(await send("GET", url), 404, 10205);
    }
  });

  test("a NUL or a lone surrogate in a query string or a path is a 4xx, never a 500", async () => {
    refused(await send("GET", "/v3/media?query=a%00b"), 400, 11005);
    refused(await send("GET", "/v3/media?externalId=a%00b"), 400, 11005);
    // Percent-encoded UTF-8 cannot spell a lone surrogate: the decoder makes it U+FFFD, which is kept.
    for (const bad of ["%00", "%ED%A0%80"]) {
      const search = await send("GET", `/v3/media?query=a${bad}b`);
      assert.ok(search.statusCode < 500, search.body);
      const byId = await send("GET", `/v3/media/a${bad}b`);
      assert.ok(byId.statusCode >= 400 && byId.statusCode < 500, byId.body);
      const group = await send("GET", `/v3/definition/spotting/groups/a${bad}b`);
      assert.ok(group.statusCode >= 400 && group.statusCode < 500, group.body);
    }
  });
});

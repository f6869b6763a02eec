/**
 * `GET`/`PUT /v3/media/{mediaId}/metadata` and `GET`/`PUT /v3/definition/media/search`: a media item's
 * metadata on its own, and the account's searchable fields, with VoiceBase's codes for bad bodies.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, before, describe, test } from "node:test";
import { generateKey } from "openpgp";
import { refused, startTestHark, type TestHark } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

describe("media metadata and searchable fields", () => {
  let hark: TestHark;
  let token: string;
  let other: string;
  before(async () => {
    hark = await startTestHark();
    token = await hark.createAccount();
    other = await hark.createAccount();
  });
  after(() => hark.close());

  async function upload(metadata?: unknown, configuration?: unknown, as = token): Promise<string> {
    const response = await hark.upload(as, {
      media: randomBytes(1024),
      mediaType: "audio/mpeg",
      ...(metadata !== undefined && { metadata }),
      ...(configuration !== undefined && { configuration }),
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().mediaId;
  }
  const put = (url: string, body: string, as = token) =>
    hark.app.inject({
      method: "PUT",
      url,
      headers: { authorization: `Bearer ${as}`, "content-type": "application/json" },
      payload: body,
    });

  test("GET answers the metadata ({} for none); PUT replaces it whole and answers it", async () => {
    const bare = await upload();
    assert.deepEqual((await hark.api(token, "GET", `/v3/media/${bare}/metadata`)).json(), {});

    const mediaId = await upload({ title: "Old", externalId: "crm-1", extended: { queue: "billing" } });
    const url = `/v3/media/${mediaId}/metadata`;
    assert.deepEqual((await hark.api(token, "GET", url)).json(), {
      title: "Old",
      externalId: "crm-1",
      extended: { queue: "billing" },
    });
    const replacement = {
      description: "Renamed",
      externalId: "crm-2",
      extended: { call: { agent: "Dana" } },
    };
    const response = await hark.api(token, "PUT", url, replacement);
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.json(), replacement);
    await assertDescribedBy("Metadata", response.json());
    assert.deepEqual((await hark.api(token, "GET", url)).json(), replacement, "the title is gone");
    assert.deepEqual((await hark.api(token, "GET", `/v3/media/${mediaId}`)).json().metadata, replacement);
    const byNewId = (await hark.api(token, "GET", "/v3/media?externalId=crm-2")).json().media;
    assert.deepEqual(
      byNewId.map((m: { mediaId: string }) => m.mediaId),
      [mediaId],
    );
    assert.equal((await hark.api(token, "GET", "/v3/media?externalId=crm-1")).json().media.length, 0);

    assert.deepEqual((await hark.api(token, "PUT", url, {})).json(), {});
    assert.deepEqual((await hark.api(token, "GET", url)).json(), {});
  });

  test("a bad body is refused with the codes an upload's metadata gets, and changes nothing", async () => {
    const mediaId = await upload({ title: "Kept" });
    const url = `/v3/media/${mediaId}/metadata`;
    refused(await put(url, "{not json"), 400, 10107);
    refused(await put(url, ""), 400, 10107);
    const unknown = refused(await put(url, '{"tittle": "x"}'), 400, 10008);
    assert.match(unknown, /tittle/);
    refused(await put(url, '{"externalId": " "}'), 400, 10108);
    refused(await put(url, JSON.stringify({ externalId: "x".repeat(256) })), 400, 10109);
    refused(await put(url, '["a list"]'), 400, 11001);
    refused(await put(url, '{"extended": "not an object"}'), 400, 11001);
    refused(
      await hark.app.inject({
        method: "PUT",
        url,
        headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
        payload: "{}",
      }),
      415,
      11007,
    );
    assert.deepEqual((await hark.api(token, "GET", url)).json(), { title: "Kept" });
  });

  test("another account's item, a missing one, and an encrypted one's metadata are not found", async () => {
    const theirs = await upload({ title: "Theirs" }, undefined, other);
    for (const id of [theirs, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
      refused(await hark.api(token, "GET", `/v3/media/${id}/metadata`), 404, 10205);
      refused(await hark.api(token, "PUT", `/v3/media/${id}/metadata`, { title: "Mine" }), 404, 10205);
    }
    assert.deepEqual((await hark.api(other, "GET", `/v3/media/${theirs}/metadata`)).json(), {
      title: "Theirs",
    });

    const keys = await generateKey({ type: "curve25519", userIDs: [{ name: "Client" }], format: "armored" });
    const key = await hark.app.inject({
      method: "POST",
      url: "/v3/security/public-keys",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/pgp-keys" },
      payload: keys.publicKey,
    });
    const sealed = await upload({ title: "Secret" }, { encryption: { publicKeyId: key.json().publicKeyId } });
    const message = refused(await hark.api(token, "GET", `/v3/media/${sealed}/metadata`), 404, 10205);
    assert.match(message, /encrypted/);
    refused(await hark.api(token, "PUT", `/v3/media/${sealed}/metadata`, { title: "Open" }), 404, 10205);
  });

  test("searchable fields: none at first; PUT replaces them (repeats dropped), per account", async () => {
    const url = "/v3/definition/media/search";
    const account = await hark.createAccount();
    assert.deepEqual((await hark.api(account, "GET", url)).json(), { fields: [] });
    const stored = await hark.api(account, "PUT", url, {
      fields: ["extended.customerId", "extended.call.phone", "extended.customerId"],
    });
    assert.equal(stored.statusCode, 200, stored.body);
    assert.deepEqual(stored.json(), { fields: ["extended.customerId", "extended.call.phone"] });
    assert.deepEqual((await hark.api(account, "GET", url)).json(), stored.json());
    await assertDescribedBy("SearchableFields", stored.json());
    assert.deepEqual(
      (await hark.api(other, "GET", url)).json(),
      { fields: [] },
      "another account's are its own",
    );
    assert.deepEqual((await hark.api(account, "PUT", url, { fields: [] })).json(), { fields: [] });
    assert.deepEqual((await hark.api(account, "GET", url)).json(), { fields: [] });
  });

  test("searchable fields: VoiceBase's codes for a bad body, and nothing stored", async () => {
    const url = "/v3/definition/media/search";
    const account = await hark.createAccount();
    await hark.api(account, "PUT", url, { fields: ["extended.kept"] });
    for (const body of [{}, { fields: "extended.a" }, { fields: [1] }, { fields: [], more: 1 }, []]) {
      refused(await hark.api(account, "PUT", url, body), 400, 80300);
    }
    for (const field of ["customerId", "extended", "extended.", "extended..a", "extended.a b", "title"]) {
      const message = refused(await hark.api(account, "PUT", url, { fields: [field] }), 400, 80301);
      assert.match(message, /extended\.<name>/);
    }
    for (const field of ["extended.*", "extended.calls[0]", "$.extended.a"]) {
      refused(await hark.api(account, "PUT", url, { fields: [field] }), 400, 80302);
    }
    refused(await hark.api(account, "PUT", url, { fields: [`extended.${"a".repeat(200)}`] }), 400, 80303);
    assert.deepEqual((await hark.api(account, "GET", url)).json(), { fields: ["extended.kept"] });
  });
});

/**
 * Custom vocabularies on a real server: what VoiceBase's custom-vocabulary guide sends is kept and shown
 * back in its shapes, each fault has VoiceBase's 802xx code and nothing is stored, another account sees
 * nothing, and `vocabulariesFor` tells an upload which named vocabularies it cannot use.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { vocabulariesFor } from "../../src/store/vocabularies.ts";
import { ADMIN_TOKEN, refused, startTestHark, type TestHark } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

const PUBLIC_URL = "https://hark.example.com";
const VOCABULARIES = "/v3/definition/vocabularies";

/** The guide's "Pre-Defined List" example, as sent. */
const EARNINGS_CALLS = {
  vocabularyName: "earningsCalls",
  terms: [
    { soundsLike: ["A.F.F.O."], term: "AFFO", weight: 2 },
    { soundsLike: ["Aypack"], term: "APAC", weight: 2 },
    { term: "CapEx" },
  ],
};

const selfLink = (name: string) => ({ self: { href: `${PUBLIC_URL}${VOCABULARIES}/${name}` } });

describe("custom vocabularies API", () => {
  let hark: TestHark;
  let token: string;
  let accountId: string;
  let other: string;
  before(async () => {
    hark = await startTestHark({ HARK_PUBLIC_URL: PUBLIC_URL });
    const created = await hark.app.inject({
      method: "POST",
      url: "/admin/accounts",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      payload: { accountName: "vocabularies" },
    });
    ({ accountId, token } = created.json());
    other = await hark.createAccount();
  });
  after(() => hark.close());

  const get = (url: string, as = token) => hark.api(as, "GET", url);
  const put = (url: string, payload: unknown, as = token) => hark.api(as, "PUT", url, payload);
  const del = (url: string, as = token) => hark.api(as, "DELETE", url);

  test("PUT stores the guide's vocabulary and answers it as the guide shows; GET and the list show it", async () => {
    const created = await put(`${VOCABULARIES}/earningsCalls`, EARNINGS_CALLS);
    assert.equal(created.statusCode, 200, created.body);
    const expected = {
      _links: selfLink("earningsCalls"),
      vocabularyName: "earningsCalls",
      vocabularyType: "terms",
      terms: [
        { term: "AFFO", soundsLike: ["A.F.F.O."], weight: 2 },
        { term: "APAC", soundsLike: ["Aypack"], weight: 2 },
        { term: "CapEx" },
      ],
    };
    assert.deepEqual(created.json(), expected);
    await assertDescribedBy("Vocabulary", created.json());
    assert.deepEqual((await get(`${VOCABULARIES}/earningsCalls`)).json(), expected);

    await put(`${VOCABULARIES}/agents`, { terms: [{ term: "Bryon" }] });
    const list = await get(VOCABULARIES);
    assert.equal(list.statusCode, 200);
    assert.deepEqual(list.json(), {
      _links: { self: { href: `${PUBLIC_URL}${VOCABULARIES}` } },
      vocabularies: [
        {
          _links: selfLink("agents"),
          vocabularyName: "agents",
          vocabularyType: "terms",
          terms: [{ term: "Bryon" }],
        },
        expected,
      ],
    });
    await assertDescribedBy("VocabularyList", list.json());
  });

  test("a vocabulary of scripts is kept as VoiceBase's script objects", async () => {
    const created = await put(`${VOCABULARIES}/greetings`, {
      vocabularyType: "scripts",
      scripts: [{ script: "Thank you for calling  VoiceBase " }, { script: "what's in your calls?" }],
    });
    assert.equal(created.statusCode, 200, created.body);
    const expected = {
      _links: selfLink("greetings"),
      vocabularyName: "greetings",
      vocabularyType: "scripts",
      scripts: [{ script: "Thank you for calling VoiceBase" }, { script: "what's in your calls?" }],
    };
    assert.deepEqual(created.json(), expected);
    await assertDescribedBy("Vocabulary", created.json());
    assert.deepEqual((await get(`${VOCABULARIES}/greetings`)).json(), expected);
  });

  test("PUT again replaces the vocabulary, even with the other kind; terms are stored cleaned up", async () => {
    await put(`${VOCABULARIES}/products`, { terms: [{ term: "Hark" }, { term: "Pocket Sphinx" }] });
    const replaced = await put(`${VOCABULARIES}/products`, {
      vocabularyName: "products",
      vocabularyType: "terms",
      terms: [{ term: "  speech   analytics ", soundsLike: [" speech  an a lytics "], weight: 0 }],
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual((await get(`${VOCABULARIES}/products`)).json().terms, [
      { term: "speech analytics", soundsLike: ["speech an a lytics"], weight: 0 },
    ]);

    await put(`${VOCABULARIES}/products`, {
      vocabularyType: "scripts",
      scripts: [{ script: "Hark hears it" }],
    });
    const now = (await get(`${VOCABULARIES}/products`)).json();
    assert.equal(now.vocabularyType, "scripts");
    assert.equal(now.terms, undefined);
    assert.deepEqual(now.scripts, [{ script: "Hark hears it" }]);
  });

  test("DELETE answers 204, and the vocabulary is gone; an unknown one is a 404 naming it", async () => {
    await put(`${VOCABULARIES}/short-lived`, { terms: [{ term: "soon" }] });
    const deleted = await del(`${VOCABULARIES}/short-lived`);
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, "");
    assert.match(refused(await get(`${VOCABULARIES}/short-lived`), 404, 10205), /"short-lived"/);
    refused(await del(`${VOCABULARIES}/short-lived`), 404, 10205);
    const names = (await get(VOCABULARIES))
      .json()
      .vocabularies.map((v: { vocabularyName: string }) => v.vocabularyName);
    assert.ok(!names.includes("short-lived"));
  });

  test("each fault has VoiceBase's code and says what to change; nothing is stored", async () => {
    const tooMany = Array.from({ length: 1001 }, (_, i) => ({ term: `term${i}` }));
    const cases: [unknown, number, RegExp][] = [
      [{}, 80200, /no vocabulary/],
      [null, 80200, /no vocabulary/],
      [
        { vocabularyName: "other", terms: [{ term: "a" }] },
        80202,
        /"other".*not the name in the path \("refused"\)/,
      ],
      [{ terms: [{ term: "   " }] }, 80203, /terms\[0\]\.term must be a word or phrase: .*not blank/],
      [{ terms: [{ term: "x".repeat(65) }] }, 80203, /terms\[0\]\.term .*at most 64 characters/],
      [
        { terms: [{ term: "a" }, { term: "b", weight: 6 }] },
        80203,
        /terms\[1\]\.weight must be a whole number from 0 to 5; got 6/,
      ],
      [{ terms: [{ term: "a", weight: 2.5 }] }, 80203, /terms\[0\]\.weight must be a whole number/],
      [{ terms: [{ term: "a", soundsLike: "eh" }] }, 80203, /terms\[0\]\.soundsLike must be an array/],
      [{ terms: [{ term: "a", soundsLike: Array(101).fill("eh") }] }, 80203, /at most 100 spellings/],
      [
        { terms: [{ term: "a", spelling: "eh" }] },
        80203,
        /\(spelling\) is not part of the terms\[0\] object/,
      ],
      [{ terms: ["AFFO"] }, 80203, /terms\[0\] must be an object \{"term"/],
      [{ terms: [{ term: "a" }], scripts: [{ script: "b c" }] }, 80204, /both "terms" and "scripts"/],
      [{ scripts: [{ script: "b c" }] }, 80205, /needs "vocabularyType": "scripts"; add it/],
      [{ vocabularyType: "terms", scripts: [{ script: "b c" }] }, 80205, /"scripts", not "terms"/],
      [{ vocabularyType: "scripts", terms: [{ term: "a" }] }, 80205, /but the body has "terms"/],
      [{ vocabularyName: "refused" }, 80206, /neither "terms" nor "scripts"/],
      [
        { vocabularyType: "scripts", scripts: [{ script: " " }] },
        80207,
        /scripts\[0\]\.script must be a phrase/,
      ],
      [{ vocabularyType: "scripts", scripts: ["b c"] }, 80207, /scripts\[0\] must be an object \{"script"\}/],
      [{ terms: tooMany }, 80208, /terms must be an array of at most 1000 terms/],
      [
        { terms: [{ term: "Bryon" }, { term: "VoiceBase" }, { term: " bryon" }] },
        80209,
        /"bryon" more than once/,
      ],
      [
        { vocabularyType: "scripts", scripts: [{ script: "a b" }, { script: "A  b" }] },
        80209,
        /"scripts" has "A b"/,
      ],
      [["AFFO"], 11208, /JSON object/],
      [{ terms: { term: "a" } }, 11208, /terms must be an array of at most 1000 terms/],
      [{ vocabularyType: "words", terms: [] }, 11208, /vocabularyType must be one of terms, scripts/],
      [{ terms: [], revision: 2 }, 11208, /\(revision\) is not part of the body/],
    ];
    for (const [body, code, message] of cases) {
      const response = await put(`${VOCABULARIES}/refused`, body);
      assert.match(refused(response, 400, code), message, JSON.stringify(body).slice(0, 200));
    }
    refused(await get(`${VOCABULARIES}/refused`), 404, 10205);
  });

  test("a PUT without a body is VoiceBase's missing vocabulary (80200); other unreadable bodies keep their codes", async () => {
    const bare = await hark.app.inject({
      method: "PUT",
      url: `${VOCABULARIES}/bare`,
      headers: { authorization: `Bearer ${token}` },
    });
    refused(bare, 400, 80200);
    const emptyJson = await hark.app.inject({
      method: "PUT",
      url: `${VOCABULARIES}/bare`,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload: "",
    });
    refused(emptyJson, 400, 80200);
    // Other faults of the body's parsing still have their own codes.
    const huge = await put(`${VOCABULARIES}/bare`, { terms: [{ term: "a".repeat(1024 * 1024) }] });
    refused(huge, 413, 10800);
    const malformed = await hark.app.inject({
      method: "PUT",
      url: `${VOCABULARIES}/bare`,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload: '{"terms": [',
    });
    refused(malformed, 400, 11005);
    refused(await get(`${VOCABULARIES}/bare`), 404, 10205);
  });

  test("a name that cannot be a vocabulary's is refused; the limits' edges are taken", async () => {
    assert.match(
      refused(await put(`${VOCABULARIES}/two%20words`, { terms: [] }), 400, 11208),
      /params\.vocabularyId must be 1 to 100 letters, digits/,
    );
    refused(await get(`${VOCABULARIES}/two%20words`), 404, 10205);
    const edges = {
      terms: Array.from({ length: 1000 }, (_, i) => ({
        term: `${"x".repeat(60)}${String(i).padStart(4, "0")}`,
        soundsLike: i === 0 ? Array(100).fill("y") : [],
        weight: 5,
      })),
    };
    const stored = await put(`${VOCABULARIES}/largest`, edges);
    assert.equal(stored.statusCode, 200, stored.body.slice(0, 500));
    assert.equal(stored.json().terms.length, 1000);
  });

  test("another account sees none of them, and cannot delete them", async () => {
    await put(`${VOCABULARIES}/private`, { terms: [{ term: "secret" }] });
    assert.deepEqual((await get(VOCABULARIES, other)).json().vocabularies, []);
    refused(await get(`${VOCABULARIES}/private`, other), 404, 10205);
    refused(await del(`${VOCABULARIES}/private`, other), 404, 10205);
    assert.equal((await get(`${VOCABULARIES}/private`)).statusCode, 200);
  });

  test("vocabulariesFor tells an upload which named vocabularies are missing and which are empty", async () => {
    await put(`${VOCABULARIES}/crm-names`, { terms: [{ term: "Bryon" }] });
    await put(`${VOCABULARIES}/emptied`, { terms: [] });
    await put(`${VOCABULARIES}/no-scripts`, { vocabularyType: "scripts", scripts: [] });
    await put(`${VOCABULARIES}/theirs`, { terms: [{ term: "other" }] }, other);

    const named = await vocabulariesFor(hark.services.db, accountId, [
      "crm-names",
      "emptied",
      "nowhere",
      "crm-names",
      "no-scripts",
      "theirs",
      "CRM-NAMES",
    ]);
    assert.deepEqual(named, {
      found: [{ vocabularyName: "crm-names", vocabularyType: "terms", terms: [{ term: "Bryon" }] }],
      missing: ["nowhere", "theirs", "CRM-NAMES"],
      empty: ["emptied", "no-scripts"],
    });
    assert.deepEqual(await vocabulariesFor(hark.services.db, accountId, []), {
      found: [],
      missing: [],
      empty: [],
    });
  });
});

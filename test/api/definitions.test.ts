/**
 * The definitions API on a real server: keyword spotting groups, categories and classifiers an account
 * defines, the built-in detectors and metric groups, every fault a client can make, and what one account
 * can see of another's definitions (nothing).
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { parseCategoryQuery } from "../../src/analytics/categories.ts";
import { detect, type DetectorName } from "../../src/analytics/detectors.ts";
import { metricsOf } from "../../src/analytics/metrics.ts";
import { talkStyleMetrics } from "../../src/analytics/talk-style.ts";
import { conversation } from "../analytics/conversation-transcript.ts";
import { predictionTranscript } from "../analytics/prediction-transcript.ts";
import { startTestHark, type TestHark, refused } from "../support/harness.ts";
import { assertDescribedBy } from "../support/openapi-contract.ts";

const PUBLIC_URL = "https://hark.example.com";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const EXAMPLES = [
  { text: "I want to cancel my account right now", label: "churn" },
  { text: "please close my subscription today", label: "churn" },
  { text: "I am leaving for another provider next month", label: "churn" },
  { text: "thanks for the great help with my billing question", label: "stay" },
  { text: "the new phone works perfectly thank you", label: "stay" },
  { text: "I would like to upgrade my plan", label: "stay" },
];

describe("definitions API", () => {
  let hark: TestHark;
  let token: string;
  let other: string;
  before(async () => {
    // Every route is tried with wrong tokens, more than the failed-authentication limit allows an address.
    hark = await startTestHark({ HARK_PUBLIC_URL: PUBLIC_URL, HARK_AUTH_FAILURES_PER_MINUTE: "0" });
    token = await hark.createAccount();
    other = await hark.createAccount();
  });
  after(() => hark.close());

  const call = (method: "GET" | "PUT" | "DELETE", url: string, payload?: unknown, as = token) =>
    hark.api(as, method, url, payload);
  const get = (url: string, as = token) => call("GET", url, undefined, as);
  const put = (url: string, payload: unknown, as = token) => call("PUT", url, payload, as);
  const del = (url: string, as = token) => call("DELETE", url, undefined, as);

  describe("keyword spotting groups", () => {
    const GROUPS = "/v3/definition/spotting/groups";

    test("PUT stores the group with its keywords cleaned up; GET and the list show it", async () => {
      const created = await put(`${GROUPS}/data-science`, {
        groupName: "data-science",
        keywords: ["data science", "  machine   learning ", "Data Science", "data mining"],
      });
      assert.equal(created.statusCode, 200, created.body);
      const group = {
        groupName: "data-science",
        keywords: ["data science", "machine learning", "data mining"],
      };
      assert.deepEqual(created.json(), group);
      await assertDescribedBy("SpottingGroup", created.json());
      assert.deepEqual((await get(`${GROUPS}/data-science`)).json(), group);

      await put(`${GROUPS}/billing`, { keywords: ["invoice"] });
      const list = await get(GROUPS);
      assert.equal(list.statusCode, 200);
      assert.deepEqual(list.json(), {
        _links: { self: { href: `${PUBLIC_URL}${GROUPS}` } },
        groups: [{ groupName: "billing", keywords: ["invoice"] }, group],
      });
      await assertDescribedBy("SpottingGroupList", list.json());
    });

    test("PUT without groupName takes the path's; PUT again replaces the keywords", async () => {
      assert.deepEqual((await put(`${GROUPS}/cancel`, { keywords: ["cancel"] })).json(), {
        groupName: "cancel",
        keywords: ["cancel"],
      });
      await put(`${GROUPS}/cancel`, { groupName: "cancel", keywords: ["close my account", "terminate"] });
      assert.deepEqual((await get(`${GROUPS}/cancel`)).json().keywords, ["close my account", "terminate"]);
    });

    test("DELETE answers 204, and the group is gone", async () => {
      await put(`${GROUPS}/short-lived`, { keywords: ["soon gone"] });
      const deleted = await del(`${GROUPS}/short-lived`);
      assert.equal(deleted.statusCode, 204);
      assert.equal(deleted.body, "");
      refused(await get(`${GROUPS}/short-lived`), 404, 10205);
      assert.ok(
        !(await get(GROUPS)).json().groups.some((g: { groupName: string }) => g.groupName === "short-lived"),
      );
    });

    test("an unknown group is a 404 for GET and DELETE, naming the group", async () => {
      assert.match(refused(await get(`${GROUPS}/nothing-here`), 404, 10205), /"nothing-here"/);
      refused(await del(`${GROUPS}/nothing-here`), 404, 10205);
    });

    test("a bad body is refused with what to change, and nothing is stored", async () => {
      // VoiceBase's codes where it has one (80101 no keywords, 80103 a bad keyword); Hark's 11201 else.
      const cases: [unknown, number, RegExp][] = [
        [["data"], 11201, /JSON object/],
        [{ keywords: [] }, 80101, /keywords must be a non-empty array/],
        [{ keywords: "data science" }, 80101, /keywords must be a non-empty array/],
        [{}, 80101, /keywords is required: a non-empty array/],
        [{ keywords: ["ok", 7] }, 80103, /keywords\[1\] must be a keyword or phrase: a string/],
        [{ keywords: ["ok", "   "] }, 80103, /keywords\[1\] must be .*not blank; got " {3}"/],
        [{ keywords: ["x".repeat(201)] }, 80103, /at most 200 characters/],
        [{ keywords: ["ok", "?!"] }, 80103, /has no words to spot/],
        [{ keywords: Array.from({ length: 1001 }, (_, i) => `word${i}`) }, 11201, /at most 1000 keywords/],
        [{ keywords: ["ok"], revision: "1" }, 11201, /\(revision\) is not part of the body/],
      ];
      for (const [body, code, message] of cases) {
        const response = await put(`${GROUPS}/refused`, body);
        assert.match(refused(response, 400, code), message, JSON.stringify(body));
      }
      refused(await get(`${GROUPS}/refused`), 404, 10205);
    });

    test("a name that cannot be a group name, or a body naming another group, is refused", async () => {
      const spaced = await put(`${GROUPS}/two%20words`, { keywords: ["a"] });
      assert.match(refused(spaced, 400, 11201), /params\.groupName must be 1 to 100 letters, digits/);
      assert.match(
        refused(await put(`${GROUPS}/${"g".repeat(101)}`, { keywords: ["a"] }), 400, 11201),
        /params\.groupName must be 1 to 100 letters/,
      );
      assert.equal((await put(`${GROUPS}/${"g".repeat(100)}`, { keywords: ["a"] })).statusCode, 200);
      // Past what the router takes apart at all, the refusal still has the envelope.
      assert.match(
        refused(await put(`${GROUPS}/${"g".repeat(1001)}`, { keywords: ["a"] }), 400, 11005),
        /cannot be routed/,
      );
      const mismatch = await put(`${GROUPS}/one`, { groupName: "two", keywords: ["a"] });
      assert.match(
        refused(mismatch, 400, 80102),
        /"groupName" in the body \("two"\) is not the name in the path/,
      );
      refused(await get(`${GROUPS}/one`), 404, 10205);
    });

    test("a body that is not JSON, or not sent as JSON, is refused", async () => {
      const broken = await hark.app.inject({
        method: "PUT",
        url: `${GROUPS}/broken`,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        payload: '{"keywords": [',
      });
      refused(broken, 400, 11005);
      const xml = await hark.app.inject({
        method: "PUT",
        url: `${GROUPS}/broken`,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/xml" },
        payload: "<keywords>a</keywords>",
      });
      refused(xml, 415, 11007);
      // Fastify reads text/plain as a string, which is not the object a group is.
      const text = await hark.app.inject({
        method: "PUT",
        url: `${GROUPS}/broken`,
        headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
        payload: "keywords=a",
      });
      assert.match(refused(text, 400, 11201), /JSON object/);
      const empty = await hark.app.inject({
        method: "PUT",
        url: `${GROUPS}/broken`,
        headers: { authorization: `Bearer ${token}` },
      });
      assert.match(refused(empty, 400, 80100), /no keyword group/);
    });
  });

  describe("categories", () => {
    const CATEGORIES = "/v3/definition/categories";

    test("PUT stores the category with VoiceBase's fields; GET and the list show it with its dates", async () => {
      const body = {
        categoryDescription: "The caller wants to leave",
        query: '[Caller] ("cancel" OR "close") AND "account"',
        notes: "Reviewed with the retention team",
        tags: ["churn", "retention"],
        version: "0.0.1",
      };
      const created = await put(`${CATEGORIES}/churn`, body);
      assert.equal(created.statusCode, 200, created.body);
      const category = created.json();
      assert.deepEqual(
        { ...category, dateCreated: undefined, dateModified: undefined },
        {
          categoryName: "churn",
          ...body,
          dateCreated: undefined,
          dateModified: undefined,
        },
      );
      assert.ok(!Number.isNaN(Date.parse(category.dateCreated)));
      assert.equal(category.dateModified, category.dateCreated);
      assert.deepEqual((await get(`${CATEGORIES}/churn`)).json(), category);
      await assertDescribedBy("Category", category);

      const list = await get(CATEGORIES);
      assert.equal(list.json()._links.self.href, `${PUBLIC_URL}${CATEGORIES}`);
      assert.deepEqual(
        list.json().categories.find((c: { categoryName: string }) => c.categoryName === "churn"),
        category,
      );
      await assertDescribedBy("CategoryList", list.json());
    });

    test("PUT again replaces it, keeping its creation date; fields left out are gone", async () => {
      const first = (await put(`${CATEGORIES}/greeting`, { query: '"hello"', notes: "old" })).json();
      const second = await put(`${CATEGORIES}/greeting`, {
        categoryName: "greeting",
        query: '"hello" OR "hi"',
      });
      assert.equal(second.statusCode, 200, second.body);
      const replaced = second.json();
      assert.equal(replaced.query, '"hello" OR "hi"');
      assert.equal(replaced.notes, undefined);
      assert.equal(replaced.dateCreated, first.dateCreated);
      assert.ok(Date.parse(replaced.dateModified) >= Date.parse(first.dateModified));
    });

    test("a query the parser refuses is a 400 carrying the parser's own message", async () => {
      for (const query of [
        '"cancel" "account"',
        '"refund" AND',
        "SELECT * FROM media ORDER BY title",
        "cancel",
      ]) {
        const parsed = parseCategoryQuery(query);
        assert.ok(!parsed.ok, query);
        const message = refused(await put(`${CATEGORIES}/bad-query`, { query }), 400, 11203);
        assert.ok(message.includes(parsed.error), `${message} carries ${parsed.error}`);
      }
      refused(await get(`${CATEGORIES}/bad-query`), 404, 10205);
    });

    test("a bad body is refused with what to change", async () => {
      const cases: [unknown, number, RegExp][] = [
        ["query", 11202, /JSON object/],
        [
          {},
          11202,
          /query is required: a VBQL statement \(SELECT … FROM media …\) or a query in Hark's language/,
        ],
        [
          { query: 42 },
          11202,
          /query must be a VBQL statement \(SELECT … FROM media …\) or a query in Hark's language/,
        ],
        [{ query: "" }, 11203, /the query is empty/],
        [{ query: '"a"', categoryDescription: 5 }, 11202, /categoryDescription must be a string/],
        [
          { query: '"a"', notes: "n".repeat(4001) },
          11202,
          /notes must be a string of at most 4000 characters/,
        ],
        [{ query: '"a"', tags: "churn" }, 11202, /tags must be an array/],
        [{ query: '"a"', tags: Array.from({ length: 33 }, (_, i) => `t${i}`) }, 11202, /at most 32/],
        [{ query: '"a"', version: 1 }, 11202, /version must be a string/],
        [{ query: '"a"', categoryValue: 1 }, 11202, /\(categoryValue\) is not part of the body/],
        [{ query: '"a"', categoryName: "other" }, 11206, /"categoryName" in the body/],
      ];
      for (const [body, code, message] of cases) {
        assert.match(
          refused(await put(`${CATEGORIES}/refused`, body), 400, code),
          message,
          JSON.stringify(body),
        );
      }
      assert.match(
        refused(await put(`${CATEGORIES}/has%20space`, { query: '"a"' }), 400, 11202),
        /params\.categoryName must be 1 to 100 letters, digits/,
      );
      refused(await get(`${CATEGORIES}/refused`), 404, 10205);
    });

    test("DELETE answers 204 and the category is gone; an unknown one is a 404", async () => {
      await put(`${CATEGORIES}/temporary`, { query: '"temp"' });
      assert.equal((await del(`${CATEGORIES}/temporary`)).statusCode, 204);
      refused(await get(`${CATEGORIES}/temporary`), 404, 10205);
      refused(await del(`${CATEGORIES}/temporary`), 404, 10205);
    });
  });

  describe("classifiers", () => {
    const CLASSIFIERS = "/v3/definition/prediction/classifiers";

    test("PUT trains and stores a classifier; GET by id or by name shows it without the model", async () => {
      const trained = await put(`${CLASSIFIERS}/churn`, { examples: EXAMPLES });
      assert.equal(trained.statusCode, 200, trained.body);
      const classifier = trained.json();
      assert.match(classifier.classifierId, UUID);
      assert.deepEqual(
        { ...classifier, classifierId: undefined, dateCreated: undefined, dateModified: undefined },
        {
          classifierId: undefined,
          classifierName: "churn",
          classifierVersion: "1",
          classifierType: "binary",
          classes: [
            { classLabel: "churn", classValue: 1 },
            { classLabel: "stay", classValue: 0 },
          ],
          exampleCount: 6,
          dateCreated: undefined,
          dateModified: undefined,
        },
      );
      assert.deepEqual((await get(`${CLASSIFIERS}/${classifier.classifierId}`)).json(), classifier);
      assert.deepEqual((await get(`${CLASSIFIERS}/churn`)).json(), classifier);
      await assertDescribedBy("Classifier", classifier);
      assert.deepEqual(
        (await get(`${CLASSIFIERS}/${classifier.classifierId.toUpperCase()}`)).json(),
        classifier,
      );
      const list = (await get(CLASSIFIERS)).json();
      assert.equal(list._links.self.href, `${PUBLIC_URL}${CLASSIFIERS}`);
      assert.deepEqual(list.classifiers, [classifier]);
      await assertDescribedBy("ClassifierList", list);
    });

    test("training again under the name keeps the id and bumps the version; positiveLabel picks class 1", async () => {
      const first = (
        await put(`${CLASSIFIERS}/loyal`, { classifierName: "loyal", examples: EXAMPLES })
      ).json();
      const again = await put(`${CLASSIFIERS}/loyal`, {
        examples: [...EXAMPLES, { text: "I love this service so much", label: "stay" }],
        positiveLabel: "stay",
      });
      assert.equal(again.statusCode, 200, again.body);
      const second = again.json();
      assert.equal(second.classifierId, first.classifierId);
      assert.equal(second.classifierVersion, "2");
      assert.equal(second.exampleCount, 7);
      assert.equal(second.dateCreated, first.dateCreated);
      assert.deepEqual(second.classes, [
        { classLabel: "stay", classValue: 1 },
        { classLabel: "churn", classValue: 0 },
      ]);
    });

    test("examples the classifier cannot learn from are a 400 with the trainer's reason", async () => {
      const oneLabel = await put(`${CLASSIFIERS}/refused`, {
        examples: EXAMPLES.map((example) => ({ ...example, label: "churn" })),
      });
      assert.match(refused(oneLabel, 400, 11205), /exactly two labels, found 1 \("churn"\)/);
      const threeLabels = await put(`${CLASSIFIERS}/refused`, {
        examples: [...EXAMPLES, { text: "what time do you open", label: "question" }],
      });
      assert.match(refused(threeLabels, 400, 11205), /exactly two labels, found 3/);
      const unknownPositive = await put(`${CLASSIFIERS}/refused`, {
        examples: EXAMPLES,
        positiveLabel: "sale",
      });
      assert.match(refused(unknownPositive, 400, 11205), /positiveLabel "sale" is not one of the labels/);
      refused(await get(`${CLASSIFIERS}/refused`), 404, 10205);
    });

    test("a bad training body is refused with what to change", async () => {
      const cases: [unknown, number, RegExp][] = [
        [[EXAMPLES], 11204, /JSON object/],
        [{}, 11204, /examples is required: a non-empty array/],
        [{ examples: [] }, 11204, /examples must be a non-empty array/],
        [{ examples: "text" }, 11204, /examples must be a non-empty array/],
        [{ examples: [...EXAMPLES, "text"] }, 11204, /examples\[6\] must be an object/],
        [
          { examples: [...EXAMPLES, { text: "no label" }] },
          11204,
          /examples\[6\]\.label is required: a string/,
        ],
        [
          { examples: [...EXAMPLES, { text: 3, label: "stay" }] },
          11204,
          /examples\[6\]\.text must be a non-blank string/,
        ],
        [
          { examples: [...EXAMPLES, { text: "a", label: "stay", weight: 2 }] },
          11204,
          /\(weight\) is not part of the examples\[6\] object/,
        ],
        [
          { examples: Array.from({ length: 10_001 }, (_, i) => EXAMPLES[i % EXAMPLES.length]) },
          11204,
          /at most 10000 examples/,
        ],
        [{ examples: EXAMPLES, positiveLabel: 1 }, 11204, /positiveLabel must be a string/],
        [
          { examples: EXAMPLES, classifierType: "binary" },
          11204,
          /\(classifierType\) is not part of the body/,
        ],
        [{ examples: EXAMPLES, classifierName: "other" }, 11206, /"classifierName" in the body/],
      ];
      for (const [body, code, message] of cases) {
        assert.match(
          refused(await put(`${CLASSIFIERS}/refused`, body), 400, code),
          message,
          JSON.stringify(body).slice(0, 80),
        );
      }
      const uuidName = await put(`${CLASSIFIERS}/c8b8c1f7-e663-4a05-a6b5-7e1109ee2947`, {
        examples: EXAMPLES,
      });
      assert.match(refused(uuidName, 400, 11204), /must not have the form of a classifier id/);
      refused(await put(`${CLASSIFIERS}/a%2Cb`, { examples: EXAMPLES }), 400, 11204);
    });

    test("a training body may exceed 1 MiB, up to 4 MiB", async () => {
      const long = Array.from({ length: 200 }, (_, i) => `word${i % 50} cancel account`).join(" ");
      const examples = Array.from({ length: 500 }, (_, i) => ({
        text: long,
        label: i % 2 === 0 ? "a" : "b",
      }));
      const body = JSON.stringify({ examples });
      assert.ok(body.length > 1024 * 1024 && body.length < 4 * 1024 * 1024, `${body.length} bytes`);
      const accepted = await hark.app.inject({
        method: "PUT",
        url: `${CLASSIFIERS}/big`,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        payload: body,
      });
      assert.equal(accepted.statusCode, 200, accepted.body.slice(0, 300));
      const tooLarge = await hark.app.inject({
        method: "PUT",
        url: `${CLASSIFIERS}/big`,
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        payload: JSON.stringify({ examples: [{ text: "x".repeat(4 * 1024 * 1024), label: "a" }] }),
      });
      refused(tooLarge, 413, 10800);
      assert.equal((await get(`${CLASSIFIERS}/big`)).json().classifierVersion, "1");
    });

    test("DELETE by id or by name answers 204 and the classifier is gone; an unknown one is a 404", async () => {
      const byId = (await put(`${CLASSIFIERS}/gone-by-id`, { examples: EXAMPLES })).json();
      assert.equal((await del(`${CLASSIFIERS}/${byId.classifierId}`)).statusCode, 204);
      refused(await get(`${CLASSIFIERS}/gone-by-id`), 404, 10205);
      await put(`${CLASSIFIERS}/gone-by-name`, { examples: EXAMPLES });
      assert.equal((await del(`${CLASSIFIERS}/gone-by-name`)).statusCode, 204);
      refused(await get(`${CLASSIFIERS}/gone-by-name`), 404, 10205);
      refused(await del(`${CLASSIFIERS}/gone-by-name`), 404, 10205);
      refused(await get(`${CLASSIFIERS}/00000000-0000-4000-8000-000000000000`), 404, 10205);
    });
  });

  test("another account can neither see nor delete my definitions, and may reuse the names", async () => {
    await put("/v3/definition/spotting/groups/mine", { keywords: ["private"] });
    await put("/v3/definition/categories/mine", { query: '"private"' });
    const classifier = (
      await put("/v3/definition/prediction/classifiers/mine", { examples: EXAMPLES })
    ).json();
    const urls = [
      "/v3/definition/spotting/groups/mine",
      "/v3/definition/categories/mine",
      "/v3/definition/prediction/classifiers/mine",
      `/v3/definition/prediction/classifiers/${classifier.classifierId}`,
    ];
    for (const url of urls) {
      refused(await get(url, other), 404, 10205);
      refused(await del(url, other), 404, 10205);
    }
    assert.deepEqual((await get("/v3/definition/spotting/groups", other)).json().groups, []);
    assert.deepEqual((await get("/v3/definition/categories", other)).json().categories, []);
    assert.deepEqual((await get("/v3/definition/prediction/classifiers", other)).json().classifiers, []);

    await put("/v3/definition/spotting/groups/mine", { keywords: ["theirs"] }, other);
    const theirs = (
      await put("/v3/definition/prediction/classifiers/mine", { examples: EXAMPLES }, other)
    ).json();
    assert.notEqual(theirs.classifierId, classifier.classifierId);
    assert.equal(theirs.classifierVersion, "1", "their training is not a retraining of mine");
    for (const url of urls) assert.equal((await get(url)).statusCode, 200, `${url} is still mine`);
    assert.deepEqual((await get("/v3/definition/spotting/groups/mine")).json().keywords, ["private"]);
  });

  describe("detectors", () => {
    const DETECTORS = "/v3/definition/prediction/detectors";

    test("the list holds PCI, SSN and Number, each by its name as id; GET one; unknown is a 404", async () => {
      const list = await get(DETECTORS);
      assert.equal(list.statusCode, 200);
      await assertDescribedBy("DetectorList", list.json());
      const { _links, detectors } = list.json();
      assert.equal(_links.self.href, `${PUBLIC_URL}${DETECTORS}`);
      assert.deepEqual(
        detectors.map((d: { detectorId: string; detectorName: string }) => [d.detectorId, d.detectorName]),
        [
          ["PCI", "PCI"],
          ["SSN", "SSN"],
          ["Number", "Number"],
        ],
      );
      const pci = (await get(`${DETECTORS}/PCI`)).json();
      assert.deepEqual(pci, detectors[0]);
      await assertDescribedBy("Detector", pci);
      assert.equal(pci.detectorDescription, "Payment card numbers, expiry dates and security codes");
      assert.equal(pci.detectorType, "binary");
      assert.equal(pci.detectorVersion, "1.0");
      refused(await get(`${DETECTORS}/pci`), 404, 10205);
      refused(await get(`${DETECTORS}/CreditCard`), 404, 10205);
    });

    test("each detector's class label and default detection level are what detection uses", async () => {
      const transcript = predictionTranscript(
        {
          speaker: "Caller",
          at: 0,
          text: "my card is four one one one one one one one one one one one one one one one",
        },
        { speaker: "Caller", at: 20_000, text: "my social is five three six two two one four seven nine" },
        { speaker: "Agent", at: 40_000, text: "your order is four five six thanks" },
      );
      const { detectors } = (await get(DETECTORS)).json();
      for (const definition of detectors) {
        const detectorName = definition.detectorName as DetectorName;
        const [found] = detect(transcript, [{ detectorName }]);
        assert.deepEqual(
          definition.classes,
          found?.detections.map(({ detectorClass, detectorClassLabel }) => ({
            classLabel: detectorClassLabel,
            classValue: detectorClass,
          })),
          detectorName,
        );
        const level = definition.parameters.find((p: { name: string }) => p.name === "detectionLevel");
        assert.deepEqual(level.valueSet, ["entireRegion", "probableNumbers", "numbersOnly"]);
        const withDefault = (value: string) =>
          detect(transcript, [{ detectorName, parameters: [{ parameter: "detectionLevel", value }] }]);
        assert.deepEqual(
          withDefault(level.defaultValue),
          [found],
          `${detectorName} default ${level.defaultValue}`,
        );
        const another = level.valueSet.find(
          (value: string) => value !== level.defaultValue && value !== "probableNumbers",
        );
        assert.notDeepEqual(
          withDefault(another),
          [found],
          `${detectorName}: ${another} differs from the default`,
        );
      }
    });
  });

  test("GET /v3/definition/metrics lists exactly the metrics media results carry, group by group", async () => {
    const response = await get("/v3/definition/metrics");
    assert.equal(response.statusCode, 200);
    await assertDescribedBy("MetricGroupList", response.json());
    const { _links, metricGroups } = response.json();
    assert.equal(_links.self.href, `${PUBLIC_URL}/v3/definition/metrics`);
    assert.deepEqual(
      metricGroups.map((group: { metricGroupName: string }) => group.metricGroupName),
      ["overtalk", "sentiment", "talk-style-tone-and-volume", "talk-time-and-rate"],
    );
    const call = conversation({
      Agent: [[0, "thank you for calling how can I help"]],
      Caller: [[4000, "I would like to cancel my account please"]],
    });
    const sentiments = [
      { speakerName: "Agent", sentimentValues: [{ s: 0, e: 3000, v: 0.5 }] },
      { speakerName: "Caller", sentimentValues: [{ s: 4000, e: 7000, v: -0.5 }] },
    ];
    const roles = { agent: "Agent", caller: "Caller" };
    const computed = [...metricsOf(call, roles, sentiments), talkStyleMetrics(call, roles)];
    assert.equal(computed.length, metricGroups.length);
    for (const group of computed) {
      const defined = metricGroups.find(
        (g: { metricGroupName: string }) => g.metricGroupName === group.metricGroupName,
      );
      assert.ok(defined, group.metricGroupName);
      assert.deepEqual(
        defined.metrics.map((metric: { metricName: string }) => metric.metricName),
        group.metricValues.map((value) => value.metricName),
        group.metricGroupName,
      );
      for (const metric of defined.metrics)
        assert.ok(metric.metricDescription.length > 10, metric.metricName);
    }
  });

  test("every definitions route needs an account token", async () => {
    const routes: ["GET" | "PUT" | "DELETE", string][] = [
      ["GET", "/v3/definition/spotting/groups"],
      ["GET", "/v3/definition/spotting/groups/g"],
      ["PUT", "/v3/definition/spotting/groups/g"],
      ["DELETE", "/v3/definition/spotting/groups/g"],
      ["GET", "/v3/definition/categories"],
      ["GET", "/v3/definition/categories/c"],
      ["PUT", "/v3/definition/categories/c"],
      ["DELETE", "/v3/definition/categories/c"],
      ["GET", "/v3/definition/prediction/classifiers"],
      ["GET", "/v3/definition/prediction/classifiers/c"],
      ["PUT", "/v3/definition/prediction/classifiers/c"],
      ["DELETE", "/v3/definition/prediction/classifiers/c"],
      ["GET", "/v3/definition/prediction/detectors"],
      ["GET", "/v3/definition/prediction/detectors/PCI"],
      ["GET", "/v3/definition/metrics"],
    ];
    for (const [method, url] of routes) {
      const anonymous = await hark.app.inject({ method, url, payload: method === "PUT" ? {} : undefined });
      refused(anonymous, 401, 10002);
      const wrong = await hark.app.inject({
        method,
        url,
        headers: { authorization: "Bearer hark_not-a-token" },
      });
      refused(wrong, 401, 10003);
    }
  });
});

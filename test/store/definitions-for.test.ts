/** What processing finds of the definitions an upload named, and what it reports missing. */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { trainClassifier } from "../../src/analytics/classifiers.ts";
import { NO_ANALYSES } from "../../src/domain/configuration.ts";
import { createAccount } from "../../src/store/accounts.ts";
import { type Database, openDatabase } from "../../src/store/database.ts";
import { definitionsFor } from "../../src/store/definitions-for.ts";
import { putCategory, putClassifier, putSpottingGroup } from "../../src/store/definitions.ts";
import { freshDatabase, type TestDatabase } from "../support/database.ts";

describe("definitionsFor", () => {
  let database: TestDatabase;
  let db: Database;
  let accountId: string;
  const classifierId = randomUUID();

  before(async () => {
    database = await freshDatabase();
    db = openDatabase(database.url, 2);
    const account = await createAccount(db, `definitions-for-${randomUUID()}`);
    assert.ok(account);
    accountId = account.accountId;
    const now = new Date();
    await putSpottingGroup(db, accountId, { groupName: "churn", keywords: ["cancel"] }, now);
    await putCategory(db, accountId, { categoryName: "greeting", query: '"hello"' }, now);
    const model = trainClassifier([
      { text: "I am angry about this terrible service", label: "complaint" },
      { text: "this is awful and I want my money back", label: "complaint" },
      { text: "nobody answered my emails for a week", label: "complaint" },
      { text: "thanks a lot for your quick help today", label: "praise" },
      { text: "the new phone works perfectly thank you", label: "praise" },
      { text: "great service and a friendly agent", label: "praise" },
    ]);
    await putClassifier(db, accountId, { classifierName: "mood", model, exampleCount: 6 }, classifierId, now);
  });
  after(async () => {
    await db?.close();
    await database?.drop();
  });

  it("finds what exists, by name or by id in any letter case, and names what does not", async () => {
    const { definitions, missing } = await definitionsFor(db, accountId, {
      ...NO_ANALYSES,
      spottingGroups: ["churn", "competitors"],
      categories: ["greeting", "farewell"],
      classifiers: ["mood", classifierId.toUpperCase(), "sarcasm"],
    });
    assert.deepEqual(
      definitions.spottingGroups.map((group) => group.groupName),
      ["churn"],
    );
    assert.deepEqual(
      definitions.categories.map((category) => category.categoryName),
      ["greeting"],
    );
    assert.ok(definitions.classifiers.every((classifier) => classifier.classifierName === "mood"));
    assert.deepEqual(missing, [
      { kind: "Spotting group", name: "competitors" },
      { kind: "Category", name: "farewell" },
      { kind: "Classifier", name: "sarcasm" },
    ]);
  });

  it("all categories: every one of the account's, nothing missing", async () => {
    const { definitions, missing } = await definitionsFor(db, accountId, {
      ...NO_ANALYSES,
      categories: "all",
    });
    assert.deepEqual(
      definitions.categories.map((category) => category.categoryName),
      ["greeting"],
    );
    assert.deepEqual(missing, []);
  });
});

/** What processing reads of an account's definitions: only what exists, in the order named, never another's. */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { trainClassifier, type TrainingExample } from "../../src/analytics/classifiers.ts";
import { createAccount } from "../../src/store/accounts.ts";
import { type Database, openDatabase } from "../../src/store/database.ts";
import {
  deleteClassifier,
  getCategories,
  getClassifier,
  getClassifiers,
  getSpottingGroups,
  putCategory,
  putClassifier,
  putSpottingGroup,
} from "../../src/store/definitions.ts";
import { freshDatabase, type TestDatabase } from "../support/database.ts";

const NOW = new Date("2025-03-01T12:00:00.000Z");
const LATER = new Date("2025-03-02T08:30:00.000Z");

const EXAMPLES: TrainingExample[] = [
  { text: "I want to cancel my account right now", label: "churn" },
  { text: "please close my subscription today", label: "churn" },
  { text: "I am leaving for another provider", label: "churn" },
  { text: "thanks for the great help with billing", label: "stay" },
  { text: "the new phone works perfectly thank you", label: "stay" },
  { text: "I would like to upgrade my plan", label: "stay" },
];

describe("definitions store", () => {
  let database: TestDatabase;
  let db: Database;
  let account: string;
  let other: string;

  before(async () => {
    database = await freshDatabase();
    db = openDatabase(database.url, 4);
    account = await newAccount("definitions");
    other = await newAccount("definitions-other");
  });

  after(async () => {
    await db?.close();
    await database?.drop();
  });

  async function newAccount(prefix: string): Promise<string> {
    const created = await createAccount(db, `${prefix}-${randomUUID()}`);
    if (!created) throw new Error("account name taken");
    return created.accountId;
  }

  describe("getSpottingGroups", () => {
    before(async () => {
      await putSpottingGroup(
        db,
        account,
        { groupName: "cancel", keywords: ["cancel", "close account"] },
        NOW,
      );
      await putSpottingGroup(db, account, { groupName: "greeting", keywords: ["hello"] }, NOW);
      await putSpottingGroup(db, other, { groupName: "billing", keywords: ["invoice"] }, NOW);
    });

    it("gives the named groups that exist, in the order named, each once", async () => {
      assert.deepEqual(await getSpottingGroups(db, account, ["greeting", "missing", "cancel", "greeting"]), [
        { groupName: "greeting", keywords: ["hello"] },
        { groupName: "cancel", keywords: ["cancel", "close account"] },
      ]);
      assert.deepEqual(await getSpottingGroups(db, account, []), []);
    });

    it("never gives another account's group, and compares names exactly", async () => {
      assert.deepEqual(await getSpottingGroups(db, account, ["billing", "Cancel"]), []);
    });

    it("gives a replaced group's new keywords", async () => {
      await putSpottingGroup(db, account, { groupName: "greeting", keywords: ["hi", "good morning"] }, LATER);
      assert.deepEqual(await getSpottingGroups(db, account, ["greeting"]), [
        { groupName: "greeting", keywords: ["hi", "good morning"] },
      ]);
    });
  });

  describe("getCategories", () => {
    before(async () => {
      await putCategory(db, account, { categoryName: "refund", query: '"refund"', notes: "n" }, NOW);
      await putCategory(db, account, { categoryName: "angry", query: '[Caller] "manager"' }, NOW);
      await putCategory(db, other, { categoryName: "secret", query: '"password"' }, NOW);
    });

    it("gives the named categories that exist, name and query only, in the order named", async () => {
      assert.deepEqual(await getCategories(db, account, ["refund", "nope", "angry"]), [
        { categoryName: "refund", query: '"refund"' },
        { categoryName: "angry", query: '[Caller] "manager"' },
      ]);
      assert.deepEqual(await getCategories(db, account, ["secret"]), []);
      assert.deepEqual(await getCategories(db, account, []), []);
    });

    it('"all" gives every category of the account, by name, and none of another', async () => {
      assert.deepEqual(await getCategories(db, account, "all"), [
        { categoryName: "angry", query: '[Caller] "manager"' },
        { categoryName: "refund", query: '"refund"' },
      ]);
      assert.deepEqual(await getCategories(db, other, "all"), [
        { categoryName: "secret", query: '"password"' },
      ]);
    });
  });

  describe("getClassifiers", () => {
    const model = trainClassifier(EXAMPLES);
    let churnId: string;
    let upsellId: string;

    before(async () => {
      churnId = (
        await putClassifier(
          db,
          account,
          { classifierName: "churn", model, exampleCount: 6 },
          randomUUID(),
          NOW,
        )
      ).classifierId;
      upsellId = (
        await putClassifier(
          db,
          account,
          {
            classifierName: "upsell",
            model: trainClassifier(EXAMPLES, { positiveLabel: "stay" }),
            exampleCount: 6,
          },
          randomUUID(),
          NOW,
        )
      ).classifierId;
      await putClassifier(db, other, { classifierName: "theirs", model, exampleCount: 6 }, randomUUID(), NOW);
    });

    it("finds classifiers by id or by name, in the order of the refs, each once, with the model", async () => {
      const found = await getClassifiers(db, account, ["upsell", "nothing", churnId, "churn", upsellId]);
      assert.deepEqual(
        found.map(({ classifierId, classifierName, classifierVersion }) => ({
          classifierId,
          classifierName,
          classifierVersion,
        })),
        [
          { classifierId: upsellId, classifierName: "upsell", classifierVersion: "1" },
          { classifierId: churnId, classifierName: "churn", classifierVersion: "1" },
        ],
      );
      assert.deepEqual(found[1]?.model, model, "the model comes back as it was stored");
      assert.equal(found[0]?.model.classes[0].classLabel, "stay");
    });

    it("accepts an id in capitals, and ignores refs that are neither", async () => {
      const found = await getClassifiers(db, account, [churnId.toUpperCase(), "", "not-a-uuid-0000"]);
      assert.deepEqual(
        found.map((classifier) => classifier.classifierId),
        [churnId],
      );
      assert.deepEqual(await getClassifiers(db, account, []), []);
    });

    it("never gives another account's classifier, by name or by id", async () => {
      const [theirs] = await getClassifiers(db, other, ["theirs"]);
      assert.ok(theirs);
      assert.deepEqual(await getClassifiers(db, account, ["theirs", theirs.classifierId]), []);
    });

    it("retraining keeps the id and creation date, bumps the version and replaces the model", async () => {
      const retrained = trainClassifier([
        ...EXAMPLES,
        { text: "I want to cancel everything", label: "churn" },
      ]);
      const summary = await putClassifier(
        db,
        account,
        { classifierName: "churn", model: retrained, exampleCount: 7 },
        randomUUID(),
        LATER,
      );
      assert.equal(summary.classifierId, churnId);
      assert.equal(summary.version, 2);
      assert.equal(summary.exampleCount, 7);
      assert.deepEqual(summary.dateCreated, NOW);
      assert.deepEqual(summary.dateModified, LATER);
      const [stored] = await getClassifiers(db, account, ["churn"]);
      assert.equal(stored?.classifierVersion, "2");
      assert.deepEqual(stored?.model, retrained);
    });

    it("a deleted classifier is gone by id and by name", async () => {
      assert.equal(await deleteClassifier(db, account, upsellId), true);
      assert.deepEqual(await getClassifiers(db, account, [upsellId, "upsell"]), []);
      assert.equal(await getClassifier(db, account, "upsell"), undefined);
      assert.equal(await deleteClassifier(db, account, "upsell"), false);
    });
  });

  it("deleting an account deletes its definitions", async () => {
    const gone = await newAccount("definitions-gone");
    await putSpottingGroup(db, gone, { groupName: "g", keywords: ["k"] }, NOW);
    await putCategory(db, gone, { categoryName: "c", query: '"q"' }, NOW);
    await db.query("delete from accounts where account_id = $1", [gone]);
    const { rows } = await db.query<{ n: number }>(
      `select (select count(*) from spotting_groups where account_id = $1)
            + (select count(*) from categories where account_id = $1) as n`,
      [gone],
    );
    assert.equal(rows[0]?.n, 0);
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { categorize, parseCategoryQuery, type CategoryResult } from "../../src/analytics/categories.ts";
import type { Transcript } from "../../src/domain/transcript.ts";
import { conversation, endOf } from "./conversation-transcript.ts";

/** A cancellation call of about 20 s: the agent greets and thanks, the caller cancels. */
const CANCELLATION = conversation({
  Agent: [
    [0, "thank you for calling acme how can I help"],
    [8000, "I can help with cancelling it today"],
    [17000, "thank you goodbye"],
  ],
  Caller: [
    [4000, "hi I cancelled my account last week"],
    [11500, "but you still charged me so I want a refund"],
  ],
});

/** A call where nobody says thank you. */
const BLUNT = conversation({
  Agent: [[0, "acme support"]],
  Caller: [[1500, "cancel my account now"]],
});

function valueOf(transcript: Transcript, query: string, length?: number): 0 | 1 {
  return only(transcript, query, length).categoryValue;
}

function only(transcript: Transcript, query: string, length?: number): CategoryResult {
  const [result] = categorize(transcript, [{ categoryName: "c", query }], length);
  assert.ok(result);
  return result;
}

describe("categorize", () => {
  test("a category holds when its phrase was said in any form, and says where", () => {
    assert.deepEqual(
      categorize(CANCELLATION, [{ categoryName: "cancellation", query: '"cancel account"' }]),
      [
        {
          categoryName: "cancellation",
          categoryValue: 1,
          categoryMatches: [
            {
              speakerName: "Caller",
              occurrences: [
                { s: 4800, e: endOf(4000, "hi I cancelled my account"), exact: "cancelled my account" },
              ],
            },
          ],
        },
      ],
    );
  });

  test("a category that does not hold has value 0 and no matches", () => {
    assert.deepEqual(only(CANCELLATION, '"upgrade"'), { categoryName: "c", categoryValue: 0 });
  });

  test('"cancel" AND NOT "thank you" tells a blunt cancellation from a polite one', () => {
    const query = '"cancel" AND NOT "thank you"';
    assert.equal(valueOf(CANCELLATION, query), 0);
    assert.equal(valueOf(BLUNT, query), 1);
  });

  test("the matches are the phrases that made the category hold, by speaker", () => {
    const result = only(CANCELLATION, '"cancel" AND ("refund" OR "upgrade") AND NOT "manager"');
    assert.equal(result.categoryValue, 1);
    assert.deepEqual(
      result.categoryMatches?.map(({ speakerName, occurrences }) => [
        speakerName,
        occurrences.map((occurrence) => occurrence.exact.toLowerCase()),
      ]),
      [
        ["Caller", ["cancelled", "refund"]],
        ["Agent", ["cancelling"]],
      ],
    );
  });

  test("a category that holds by absence has value 1 and no places to show", () => {
    assert.deepEqual(only(CANCELLATION, 'NOT "manager"'), {
      categoryName: "c",
      categoryValue: 1,
      categoryMatches: [],
    });
  });

  test("a speaker restriction keeps only what that speaker said, names ignoring case", () => {
    assert.equal(valueOf(CANCELLATION, '[Caller] "refund"'), 1);
    assert.equal(valueOf(CANCELLATION, '[agent] "refund"'), 0);
    assert.equal(valueOf(CANCELLATION, '[AGENT] "thank you for calling"'), 1);
    assert.equal(valueOf(CANCELLATION, '[Caller] NOT "thank you"'), 1, "the caller never thanked");
    assert.equal(valueOf(CANCELLATION, 'NOT [Agent] "thank you"'), 0);
    assert.equal(valueOf(CANCELLATION, '[Agent] [Caller] "cancel"'), 0, "nobody is both");
    assert.equal(valueOf(CANCELLATION, '[Someone Else] "cancel"'), 0);
  });

  test("a speaker restriction applies to what follows it, parentheses to a group", () => {
    assert.equal(valueOf(CANCELLATION, '[Caller] "refund" AND "thank you"'), 1);
    assert.equal(valueOf(CANCELLATION, '[Caller] ("refund" AND "thank you")'), 0);
  });

  test("FIRST and LAST keep the phrases that start in the first or last seconds of the call", () => {
    assert.equal(valueOf(CANCELLATION, 'FIRST 30s "thank you for calling"'), 1);
    assert.equal(valueOf(CANCELLATION, '[Agent] FIRST 5s "thank you for calling"'), 1);
    assert.equal(valueOf(CANCELLATION, 'FIRST 10s "refund"'), 0, "the refund comes at 15 s");
    assert.equal(valueOf(CANCELLATION, 'LAST 5s "goodbye"'), 1);
    assert.equal(valueOf(CANCELLATION, 'LAST 5s "thank you for calling"'), 0);
    assert.equal(valueOf(CANCELLATION, 'FIRST 0.1m "cancel"'), 1, "minutes work too");
    const polite = only(CANCELLATION, 'LAST 10s "thank you"');
    assert.deepEqual(
      polite.categoryMatches?.flatMap((mention) => mention.occurrences.map((occurrence) => occurrence.s)),
      [17000],
      "only the closing thanks is in the last 10 s",
    );
  });

  test("LAST counts back from the media's length when it is given", () => {
    assert.equal(valueOf(CANCELLATION, 'LAST 5s "goodbye"', 60_000), 0, "40 s of silence follow the goodbye");
    assert.equal(valueOf(CANCELLATION, 'LAST 45s "goodbye"', 60_000), 1);
  });

  test("NOT binds tighter than AND, AND tighter than OR", () => {
    // "refund" OR ("upgrade" AND NOT "cancel"): holds by the refund alone.
    assert.equal(valueOf(CANCELLATION, '"refund" OR "upgrade" AND NOT "cancel"'), 1);
    assert.equal(valueOf(CANCELLATION, '("refund" OR "upgrade") AND NOT "cancel"'), 0);
  });

  test("keywords may be in any case and phrases in single quotes", () => {
    assert.equal(valueOf(BLUNT, "'cancel' and not 'thank you'"), 1);
  });

  test("an empty transcript holds only categories of absence", () => {
    const empty = conversation({});
    assert.equal(valueOf(empty, '"cancel"'), 0);
    assert.equal(valueOf(empty, 'NOT "cancel"'), 1);
    assert.equal(valueOf(empty, 'LAST 10s NOT "goodbye"'), 1);
  });

  test("a one-speaker call is categorised like any other", () => {
    const call = conversation({ "Speaker 1": [[0, "I would like to cancel please"]] });
    assert.equal(valueOf(call, '[speaker 1] "cancel" AND NOT "thank you"'), 1);
  });

  test("results keep the order of the categories", () => {
    const results = categorize(BLUNT, [
      { categoryName: "b", query: '"refund"' },
      { categoryName: "a", query: '"cancel"' },
    ]);
    assert.deepEqual(
      results.map(({ categoryName, categoryValue }) => [categoryName, categoryValue]),
      [
        ["b", 0],
        ["a", 1],
      ],
    );
  });

  test("a query that does not parse is an error naming the category", () => {
    assert.throws(() => categorize(BLUNT, [{ categoryName: "broken", query: '("cancel"' }]), /"broken".*\)/);
  });
});

describe("parseCategoryQuery", () => {
  test("gives the tree of a query", () => {
    assert.deepEqual(
      parseCategoryQuery(`[Agent] FIRST 30s ("thank you for calling" OR 'hello') AND NOT "sorry"`),
      {
        ok: true,
        query: {
          kind: "and",
          operands: [
            {
              kind: "speaker",
              speakerName: "Agent",
              operand: {
                kind: "window",
                from: "start",
                ms: 30_000,
                operand: {
                  kind: "or",
                  operands: [
                    { kind: "phrase", text: "thank you for calling" },
                    { kind: "phrase", text: "hello" },
                  ],
                },
              },
            },
            { kind: "not", operand: { kind: "phrase", text: "sorry" } },
          ],
        },
      },
    );
  });

  const errors: [string, string, RegExp][] = [
    ["an unclosed parenthesis", '("cancel" AND "account"', /missing \) to close the \( at column 1/],
    ["an unopened parenthesis", '"cancel" AND "account")', /unexpected \) at column 23/],
    ["empty parentheses", '"cancel" AND ()', /empty parentheses at column 14/],
    ["an empty phrase", '"cancel" AND ""', /empty phrase at column 14/],
    ["a blank phrase", '"  "', /empty phrase at column 1/],
    ["a phrase of punctuation", '"?!"', /has no words/],
    ["an unclosed phrase", '"cancel', /phrase at column 1 has no closing "/],
    ["an unknown operator", '"cancel" XOR "refund"', /unknown operator "XOR" at column 10/],
    ["a symbol for an operator", '"cancel" && "refund"', /unknown operator "&&" at column 10/],
    ["an unquoted word", "cancel", /unknown operator "cancel" at column 1.*quotes/],
    ["two phrases without an operator", '"cancel" "refund"', /expected AND or OR before the phrase "refund"/],
    ["a query ending in an operator", '"cancel" AND', /ends after AND/],
    ["a query starting with an operator", 'OR "cancel"', /before OR at column 1/],
    ["a window without a duration", 'FIRST "hello"', /FIRST at column 1 needs a duration such as 30s/],
    ["a window without a unit", 'LAST 30 "bye"', /LAST at column 1 needs a duration/],
    ["an unclosed speaker", '[Agent "hello"', /speaker at column 1 has no closing \]/],
    ["an empty speaker", '[] "hello"', /empty speaker name at column 1/],
    ["an empty query", "   ", /the query is empty/],
    ["a VBQL statement Hark cannot read", "SELECT * FROM media ORDER BY title", /VBQL: the ORDER BY clause/],
    ["SELECT anywhere but the start", `"hello" AND SELECT`, /unknown operator "SELECT" at column 13/],
    ["a query nested too deep", `${"(".repeat(40)}"a"${")".repeat(40)}`, /nests more than 32 levels/],
    ["a query too long", `"${"a ".repeat(2500)}"`, /longer than 4000 characters/],
  ];
  for (const [name, query, error] of errors)
    test(`rejects ${name} with a clear error`, () => {
      const result = parseCategoryQuery(query);
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.error, error);
    });
});

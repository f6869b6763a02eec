import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { categorize } from "../../src/analytics/categories.ts";
import { parseVbql } from "../../src/analytics/vbql.ts";
import type { Metadata } from "../../src/domain/media.ts";
import { conversation } from "./conversation-transcript.ts";

const CALL = conversation({
  Agent: [
    [0, "thank you for calling acme how can I help"],
    [17000, "thank you goodbye"],
  ],
  Caller: [[4000, "hi I want to cancel my account"]],
});

const BILLING: Metadata = {
  title: "Call 42",
  externalId: "crm-42",
  extended: { queue: "billing", priority: 3, vip: true, call: { date: "2026-05-01" } },
};

function valueOf(query: string): 0 | 1 | undefined {
  return categorize(CALL, [{ categoryName: "c", query }], undefined, BILLING)[0]?.categoryValue;
}

function errorOf(statement: string): string {
  const parsed = parseVbql(statement);
  assert.equal(parsed.ok, false, `${statement} should be refused`);
  return parsed.ok ? "" : parsed.error;
}

describe("VBQL statements from VoiceBase's documents", () => {
  test("the categories guide's example reads as the phrase it matches", () => {
    assert.deepEqual(parseVbql("SELECT * FROM media MATCH 'hello'"), {
      ok: true,
      statement: { columns: "all", condition: { kind: "phrase", text: "hello" } },
    });
  });

  test("the tutorials' SAYS, columns and typographic quotes", () => {
    assert.deepEqual(
      parseVbql("SELECT mediaId,HITS() FROM media WHERE \u201cagent\u201d SAYS \u201cthank you\u201d"),
      {
        ok: true,
        statement: {
          columns: [
            { kind: "mediaId", name: "mediaId" },
            { kind: "hits", name: "hits" },
          ],
          condition: {
            kind: "speaker",
            speakerName: "agent",
            operand: { kind: "phrase", text: "thank you" },
          },
        },
      },
    );
    assert.deepEqual(parseVbql('select * from media where * says "error"'), {
      ok: true,
      statement: { columns: "all", condition: { kind: "phrase", text: "error" } },
    });
  });

  test("MATCH, WHERE, LIMIT and OFFSET together", () => {
    const parsed = parseVbql(
      "SELECT title, extended.queue FROM media MATCH 'cancel' AND NOT 'thank you' WHERE extended.queue = 'billing' LIMIT 10 OFFSET 20;",
    );
    assert.deepEqual(parsed, {
      ok: true,
      statement: {
        columns: [
          { kind: "field", name: "title", path: ["title"] },
          { kind: "field", name: "extended.queue", path: ["extended", "queue"] },
        ],
        condition: {
          kind: "and",
          operands: [
            {
              kind: "and",
              operands: [
                { kind: "phrase", text: "cancel" },
                { kind: "not", operand: { kind: "phrase", text: "thank you" } },
              ],
            },
            { kind: "field", path: ["extended", "queue"], comparison: "=", value: "billing" },
          ],
        },
        limit: 10,
        offset: 20,
      },
    });
  });
});

describe("VBQL categories", () => {
  test("a phrase, a speaker's phrase and anyone's phrase", () => {
    assert.equal(valueOf("SELECT * FROM media MATCH 'cancel'"), 1);
    assert.equal(valueOf("SELECT * FROM media MATCH 'refund'"), 0);
    assert.equal(valueOf("SELECT * FROM media WHERE 'caller' SAYS 'cancel account'"), 1);
    assert.equal(valueOf("SELECT * FROM media WHERE 'agent' SAYS 'cancel'"), 0);
    assert.equal(valueOf("SELECT * FROM media WHERE * SAYS 'cancel'"), 1);
  });

  test("boolean combinations, parentheses and NOT", () => {
    assert.equal(valueOf("SELECT * FROM media MATCH ('refund' OR 'cancel') AND NOT 'manager'"), 1);
    assert.equal(valueOf("SELECT * FROM media MATCH 'refund' OR 'upgrade' AND NOT 'cancel'"), 0);
    assert.equal(
      valueOf("SELECT * FROM media WHERE 'agent' SAYS ('goodbye' AND 'thank you for calling')"),
      1,
    );
    assert.equal(valueOf("SELECT * FROM media WHERE NOT 'caller' SAYS 'thank you'"), 1);
  });

  test("Hark's time windows and speaker prefix inside a VBQL condition", () => {
    assert.equal(valueOf("SELECT * FROM media MATCH FIRST 10s 'cancel'"), 1);
    assert.equal(valueOf("SELECT * FROM media MATCH LAST 5s 'cancel'"), 0);
    assert.equal(valueOf("SELECT * FROM media WHERE 'agent' SAYS LAST 5s 'goodbye'"), 1);
    assert.equal(valueOf("SELECT * FROM media MATCH [Caller] 'cancel'"), 1);
  });

  test("WHERE on metadata and extended metadata", () => {
    const where = (condition: string) => valueOf(`SELECT * FROM media WHERE ${condition}`);
    assert.equal(where("extended.queue = 'billing'"), 1);
    assert.equal(where("extended.queue = 'Billing'"), 0, "text compares exactly");
    assert.equal(where("extended.queue != 'sales'"), 1);
    assert.equal(where("extended.queue <> 'billing'"), 0);
    assert.equal(where("extended.priority >= 3 AND extended.priority < 4"), 1);
    assert.equal(where("extended.priority > 3"), 0);
    assert.equal(where("extended.vip = TRUE"), 1);
    assert.equal(where("extended.call.date >= '2026-01-01'"), 1, "ISO dates order as text");
    assert.equal(where("externalId = 'crm-42' AND title = 'Call 42'"), 1);
    assert.equal(where("extended.missing = 'x'"), 0);
    assert.equal(where("extended.missing != 'x'"), 0, "an absent field satisfies no comparison");
    assert.equal(where("NOT extended.missing = 'x'"), 1);
    const query = "SELECT * FROM media WHERE extended.queue = 'billing'";
    assert.equal(categorize(CALL, [{ categoryName: "c", query }])[0]?.categoryValue, 0, "no metadata");
  });

  test("MATCH and WHERE must both hold", () => {
    assert.equal(valueOf("SELECT * FROM media MATCH 'cancel' WHERE extended.queue = 'billing'"), 1);
    assert.equal(valueOf("SELECT * FROM media MATCH 'cancel' WHERE extended.queue = 'sales'"), 0);
    assert.equal(valueOf("SELECT * FROM media MATCH 'refund' WHERE extended.queue = 'billing'"), 0);
  });

  test("a statement without a condition holds of every call", () => {
    assert.equal(valueOf("SELECT * FROM media"), 1);
  });

  test("a metadata comparison adds no places to categoryMatches", () => {
    const [result] = categorize(
      CALL,
      [{ categoryName: "c", query: "SELECT * FROM media MATCH 'cancel' WHERE extended.queue = 'billing'" }],
      undefined,
      BILLING,
    );
    assert.deepEqual(
      result?.categoryMatches?.map((mention) => mention.speakerName),
      ["Caller"],
    );
  });
});

describe("VBQL refusals name the clause", () => {
  const refusals: [string, RegExp][] = [
    ["SELECT * FROM media ORDER BY dateCreated", /the ORDER BY clause at column 21 is not supported/],
    ["SELECT * FROM media MATCH 'a' GROUP BY title", /the GROUP BY clause at column 31/],
    ["SELECT * FROM media MATCH 'cancel' NEAR 'account'", /the NEAR clause at column 36 is not supported/],
    ["SELECT * FROM media WHERE extended.queue LIKE 'bill%'", /the LIKE clause at column 42/],
    ["SELECT * FROM media WHERE extended.queue IN ('a', 'b')", /the IN clause/],
    ["SELECT * FROM media MATCH 'cancel*'", /wildcard in 'cancel\*' at column 27 is not supported/],
    ["SELECT COUNT(*) FROM media", /the function COUNT\(\) at column 8 is not supported/],
    ["SELECT * FROM calls", /FROM calls at column 15: Hark has one table, media/],
    ["SELECT * FROM media WHERE queue = 'billing'", /unknown field queue at column 27.*extended\.<name>/],
    ["SELECT * FROM media WHERE extended = 'x'", /unknown field extended/],
    [
      "SELECT * FROM media WHERE extended.queue 'billing'",
      /expected a comparison .* after the field extended\.queue/,
    ],
    ["SELECT * FROM media WHERE extended.vip > TRUE", /TRUE and FALSE compare only with = and !=/],
    ["SELECT * FROM media WHERE SAYS 'hi'", /SAYS at column 27 needs who says it first/],
    [
      "SELECT * FROM media MATCH ('cancel'",
      /the statement ends where AND, OR or \) to close the \( at column 27/,
    ],
    [
      "SELECT * FROM media MATCH 'cancel' 'refund'",
      /expected the end of the statement .* at column 36, found 'refund'/,
    ],
    ["SELECT * FROM media MATCH 'cancel", /string at column 27 has no closing '/],
    ["SELECT * FROM media MATCH ''", /empty phrase at column 27/],
    ["SELECT * FROM media MATCH FIRST 'hi'", /FIRST at column 27 needs a duration/],
    ["SELECT * FROM media LIMIT -1", /a whole number after LIMIT/],
    ["SELECT * FROM media MATCH 'a' # b", /unexpected character # at column 31/],
    ["SELECT * media", /expected FROM at column 10, found media/],
    [`SELECT * FROM media MATCH ${"(".repeat(40)}'a'${")".repeat(40)}`, /nests more than 32 levels/],
  ];
  for (const [statement, error] of refusals)
    test(statement.slice(0, 70), () => {
      const message = errorOf(statement);
      assert.match(message, /^VBQL: /);
      assert.match(message, error);
    });

  test("a category's statement takes no LIMIT", () => {
    assert.throws(
      () => categorize(CALL, [{ categoryName: "c", query: "SELECT * FROM media MATCH 'a' LIMIT 5" }]),
      /takes no LIMIT or OFFSET/,
    );
  });
});

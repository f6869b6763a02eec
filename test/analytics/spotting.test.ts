import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  MAX_KEYWORDS,
  findPhrase,
  indexPhrases,
  spot,
  validateSpottingGroup,
} from "../../src/analytics/spotting.ts";
import { conversation, endOf } from "./conversation-transcript.ts";

const CANCELLATION = conversation({
  Agent: [
    [0, "thank you for calling acme how can I help"],
    [8000, "I can help with cancelling it today"],
  ],
  Caller: [
    [4000, "hi I cancelled my account last week"],
    [11500, "but you still charged me so I want a refund"],
  ],
});

const CANCEL_GROUP = { groupName: "cancellation", keywords: ["cancel", "close account"] };

describe("spot", () => {
  test("a cancel group is spotted where the call says cancelled and cancelling", () => {
    const { groups } = spot(CANCELLATION, [CANCEL_GROUP]);
    assert.equal(groups.length, 1);
    const [group] = groups;
    assert.equal(group?.groupName, "cancellation");
    assert.equal(group?.spotted, true);
    assert.deepEqual(group?.spottedKeywords, [
      {
        keyword: "cancel",
        mentions: [
          { speakerName: "Caller", occurrences: [{ s: 4800, e: 5100, exact: "cancelled" }] },
          { speakerName: "Agent", occurrences: [{ s: 9600, e: 9900, exact: "cancelling" }] },
        ],
      },
    ]);
  });

  test("the score is the share of the group's keywords spotted, as a decimal string", () => {
    const [half, none, all] = spot(CANCELLATION, [
      CANCEL_GROUP,
      { groupName: "competitors", keywords: ["globex", "initech"] },
      { groupName: "money", keywords: ["refund", "charge"] },
    ]).groups;
    assert.equal(half?.score, "0.5");
    assert.deepEqual(none, { groupName: "competitors", spotted: false, score: "0", spottedKeywords: [] });
    assert.equal(all?.score, "1");
    assert.equal(all?.spotted, true);
  });

  test("a key phrase matches other forms of its words, with one word between them", () => {
    const [group] = spot(CANCELLATION, [{ groupName: "g", keywords: ["cancel account"] }]).groups;
    assert.deepEqual(group?.spottedKeywords[0]?.mentions, [
      {
        speakerName: "Caller",
        occurrences: [
          { s: 4800, e: endOf(4000, "hi I cancelled my account"), exact: "cancelled my account" },
        ],
      },
    ]);
  });

  test("matching ignores case, so a word that starts a sentence is found", () => {
    const [group] = spot(CANCELLATION, [{ groupName: "g", keywords: ["THANK YOU"] }]).groups;
    assert.equal(group?.spottedKeywords[0]?.mentions[0]?.occurrences[0]?.exact, "Thank you");
  });

  test("each repetition is an occurrence, in time order", () => {
    const call = conversation({
      Caller: [
        [0, "cancel it"],
        [5000, "please cancel"],
        [9000, "cancel"],
      ],
    });
    const [group] = spot(call, [{ groupName: "g", keywords: ["cancel"] }]).groups;
    const starts = group?.spottedKeywords[0]?.mentions[0]?.occurrences.map((occurrence) => occurrence.s);
    assert.deepEqual(starts, [0, 5400, 9000]);
  });

  test("a phrase is one speaker's: words of two speakers do not make it", () => {
    const call = conversation({ Agent: [[0, "you want to cancel"]], Caller: [[1700, "account"]] });
    assert.deepEqual(findPhrase(indexPhrases(call), "cancel account"), []);
  });

  test("the other party's interjection does not break a phrase", () => {
    const call = conversation({ Caller: [[0, "I want to cancel my account"]], Agent: [[1400, "okay"]] });
    const matches = findPhrase(indexPhrases(call), "want to cancel my account");
    assert.deepEqual(
      matches.map(({ s, e, exact }) => ({ s, e, exact: exact.toLowerCase() })),
      [{ s: 400, e: endOf(0, "I want to cancel my account"), exact: "want to cancel my account" }],
    );
  });

  test("a phrase does not skip a negation, nor more than one word, nor a long pause", () => {
    const call = conversation({
      Caller: [
        [0, "the internet is not working"],
        [5000, "cancel the whole account"],
        [10000, "cancel"],
        [13000, "account"],
      ],
    });
    const index = indexPhrases(call);
    assert.deepEqual(findPhrase(index, "is working"), []);
    assert.deepEqual(findPhrase(index, "cancel account"), []);
    assert.equal(findPhrase(index, "is not working").length, 1);
    assert.equal(findPhrase(index, "isn't working").length, 1, "a contraction is its two words");
  });

  test("an empty transcript spots nothing", () => {
    const [group] = spot(conversation({}), [CANCEL_GROUP]).groups;
    assert.deepEqual(group, { groupName: "cancellation", spotted: false, score: "0", spottedKeywords: [] });
    assert.deepEqual(spot(conversation({}), []), { groups: [] });
  });

  test("one speaker's call is spotted like any other", () => {
    const call = conversation({ "Speaker 1": [[0, "please cancel my subscription"]] });
    const [group] = spot(call, [{ groupName: "g", keywords: ["cancel subscription"] }]).groups;
    assert.equal(group?.spottedKeywords[0]?.mentions[0]?.speakerName, "Speaker 1");
  });
});

describe("validateSpottingGroup", () => {
  test("accepts a group and tidies its keywords", () => {
    assert.deepEqual(
      validateSpottingGroup({
        groupName: "data-science",
        keywords: ["data science", "  machine   learning ", "Data Science"],
        revision: "ignored",
      }),
      { ok: true, group: { groupName: "data-science", keywords: ["data science", "machine learning"] } },
    );
  });

  const rejected: [string, unknown, RegExp][] = [
    ["not an object", ["cancel"], /JSON object/],
    ["no groupName", { keywords: ["cancel"] }, /"groupName" must be a non-empty string/],
    ["a groupName with a space", { groupName: "my group", keywords: ["a"] }, /"groupName" may contain only/],
    ["no keywords", { groupName: "g" }, /"keywords" must be a non-empty array/],
    ["empty keywords", { groupName: "g", keywords: [] }, /"keywords" must be a non-empty array/],
    [
      "a keyword that is not a string",
      { groupName: "g", keywords: ["a", 3] },
      /"keywords\[1\]" must be a string/,
    ],
    ["a blank keyword", { groupName: "g", keywords: ["  "] }, /"keywords\[0\]" is empty/],
    ["a keyword with no words", { groupName: "g", keywords: ["?!"] }, /has no words/],
    ["a very long keyword", { groupName: "g", keywords: ["a".repeat(201)] }, /at most 200 characters/],
    [
      "too many keywords",
      { groupName: "g", keywords: Array.from({ length: MAX_KEYWORDS + 1 }, (_, n) => `word${n}`) },
      /at most 1000 keywords/,
    ],
  ];
  for (const [name, body, error] of rejected)
    test(`rejects ${name}`, () => {
      const result = validateSpottingGroup(body);
      assert.equal(result.ok, false);
      if (!result.ok) assert.match(result.error, error);
    });
});

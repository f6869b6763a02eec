import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { knowledgeOf, MAX_KEYWORDS, pageRank } from "../../src/analytics/knowledge.ts";
import type { Keyword } from "../../src/analytics/knowledge.ts";
import type { Transcript } from "../../src/domain/transcript.ts";
import { conversation, entriesOf } from "./transcript.ts";

const CANCELLATION = conversation([
  ["Agent", "thank you for calling acme streaming my name is sam how can I help you today"],
  ["Caller", "hi. um I want to cancel my subscription. the monthly fee is too high"],
  [
    "Agent",
    "I am sorry to hear that. I can help with the cancellation. can I have your account number please",
  ],
  ["Caller", "yes my account number is four five six seven"],
  ["Agent", "thank you. I see the subscription on the account. do you want the cancellation to start today"],
  ["Caller", "yes please cancel the subscription today. and I want a refund for this month"],
  [
    "Agent",
    "the subscription is cancelled. the refund goes to your credit card. you will get a confirmation email",
  ],
  ["Caller", "great thank you"],
]);

const TWO_SUBJECTS = conversation([
  ["Agent", "thank you for calling acme support how can I help"],
  ["Caller", "I cannot log in. the password reset email never arrives"],
  ["Agent", "I will send a new password reset email to your inbox"],
  ["Caller", "okay the email is in my inbox now. the password works"],
  ["Agent", "great. anything else"],
  ["Caller", "yes my last invoice shows a late payment fee"],
  ["Agent", "I see the invoice. the payment arrived late so the fee applies"],
  ["Caller", "can you waive the fee on the invoice"],
]);

function keywordNamed(keywords: readonly Keyword[], name: string): Keyword {
  const keyword = keywords.find((candidate) => candidate.keyword === name);
  assert.ok(keyword, `"${name}" is a keyword among ${keywords.map((k) => k.keyword).join(", ")}`);
  return keyword;
}

/** Each spoken entry of `w`, as the occurrence VoiceBase gives for it, grouped by the speaker of its turn. */
function expectedMentions(transcript: Transcript, w: string): Keyword["mentions"] {
  const mentions: Keyword["mentions"] = [];
  let speakerName = "";
  for (const word of transcript.words) {
    if (word.m === "turn") speakerName = word.w;
    if (!entriesOf(transcript, w).includes(word)) continue;
    let mention = mentions.find((existing) => existing.speakerName === speakerName);
    if (mention === undefined) {
      mention = { speakerName, occurrences: [] };
      mentions.push(mention);
    }
    mention.occurrences.push({ s: word.s, e: word.e, exact: word.w });
  }
  return mentions;
}

describe("knowledgeOf: keywords", () => {
  test("a cancellation call is about the subscription and the cancellation", () => {
    const { keywords } = knowledgeOf(CANCELLATION);
    assert.equal(keywords[0]?.keyword, "subscription");
    const top5 = keywords.slice(0, 5).map((keyword) => keyword.keyword);
    assert.ok(top5.includes("cancellation"), `top 5: ${top5.join(", ")}`);
    assert.ok(top5.includes("account number"), `top 5: ${top5.join(", ")}`);
  });

  test("each mention is the speaker who said it, with the time and the words said", () => {
    const { keywords } = knowledgeOf(CANCELLATION);
    const subscription = keywordNamed(keywords, "subscription");
    assert.deepEqual(subscription.mentions, expectedMentions(CANCELLATION, "subscription"));
    assert.deepEqual(
      subscription.mentions.map((mention) => [mention.speakerName, mention.occurrences.length]),
      [
        ["Caller", 2],
        ["Agent", 2],
      ],
    );
    const [account, number] = [entriesOf(CANCELLATION, "account")[0], entriesOf(CANCELLATION, "number")[0]];
    assert.deepEqual(keywordNamed(keywords, "account number").mentions[0], {
      speakerName: "Agent",
      occurrences: [{ s: account?.s, e: number?.e, exact: "account number" }],
    });
  });

  test("word forms are one keyword, named as said most often; `exact` keeps each form", () => {
    const transcript = conversation([
      ["Caller", "I have two subscriptions. I want to cancel one subscription"],
      ["Agent", "which subscription do you want to cancel"],
    ]);
    const { keywords } = knowledgeOf(transcript);
    assert.deepEqual(
      keywords.map((keyword) => keyword.keyword),
      ["subscription"],
    );
    assert.deepEqual(
      keywords[0]?.mentions.flatMap((mention) => mention.occurrences.map((occurrence) => occurrence.exact)),
      ["subscriptions", "subscription", "subscription"],
    );
  });

  test("no stop words, fillers, pronouns, verbs or words of time", () => {
    const { keywords } = knowledgeOf(CANCELLATION);
    const names = keywords.map((keyword) => keyword.keyword);
    for (const word of ["um", "I", "you", "today", "month", "thank", "cancel", "want", "yes", "please"]) {
      assert.ok(!names.includes(word), `"${word}" is not a keyword: ${names.join(", ")}`);
    }
  });

  test("relevance is within 0..1, most relevant first; a word said more often ranks higher", () => {
    const { keywords } = knowledgeOf(CANCELLATION);
    for (const keyword of keywords) assert.ok(keyword.relevance > 0 && keyword.relevance <= 1);
    const relevances = keywords.map((keyword) => keyword.relevance);
    assert.deepEqual(
      relevances,
      [...relevances].sort((a, b) => b - a),
    );
    assert.ok(
      keywordNamed(keywords, "subscription").relevance > keywordNamed(keywords, "credit card").relevance,
      "said four times ranks above said once",
    );
  });

  test(`at most ${MAX_KEYWORDS} keywords`, () => {
    const nouns =
      "apple banana cherry grape lemon mango melon orange peach pear plum lime kiwi fig date guava " +
      "papaya quince apricot coconut olive walnut almond cashew pecan hazelnut";
    const transcript = conversation(
      nouns.split(" ").map((noun, index) => [index % 2 === 0 ? "Agent" : "Caller", `the ${noun} is here`]),
    );
    assert.equal(knowledgeOf(transcript).keywords.length, MAX_KEYWORDS);
  });

  test("the same transcript always gives the same knowledge, whatever came before", () => {
    const first = knowledgeOf(TWO_SUBJECTS);
    knowledgeOf(CANCELLATION);
    assert.deepEqual(knowledgeOf(TWO_SUBJECTS), first);
  });
});

describe("knowledgeOf: topics", () => {
  test("keywords said in the same turns form a topic; two subjects are two topics", () => {
    const { keywords, topics } = knowledgeOf(TWO_SUBJECTS);
    const grouped = topics.map((topic) => topic.keywords.map((keyword) => keyword.keyword).sort());
    assert.deepEqual(grouped, [
      ["email", "inbox", "password", "password reset email"],
      ["fee", "invoice", "payment", "payment fee"],
    ]);
    for (const topic of topics) {
      assert.deepEqual(topic.subTopics, []);
      for (const keyword of topic.keywords)
        assert.deepEqual(keyword, keywordNamed(keywords, keyword.keyword));
    }
  });

  test("a topic is named after its most relevant keyword, its relevance the mean of its keywords'", () => {
    const { topics } = knowledgeOf(TWO_SUBJECTS);
    for (const topic of topics) {
      const [top] = topic.keywords;
      assert.ok(top);
      assert.equal(topic.topicName, top.keyword.charAt(0).toUpperCase() + top.keyword.slice(1));
      const relevances = topic.keywords.map((keyword) => keyword.relevance);
      assert.deepEqual(
        relevances,
        [...relevances].sort((a, b) => b - a),
      );
      const mean = relevances.reduce((sum, relevance) => sum + relevance, 0) / relevances.length;
      assert.ok(Math.abs(topic.relevance - mean) < 0.0001, `${topic.relevance} is the mean ${mean}`);
    }
    assert.deepEqual(
      topics.map((topic) => topic.topicName),
      ["Email", "Invoice"],
    );
  });

  test("a keyword alone in its turns makes no topic", () => {
    const transcript = conversation([
      ["Caller", "my router is broken"],
      ["Agent", "okay"],
      ["Caller", "and the bill is wrong"],
    ]);
    const { keywords, topics } = knowledgeOf(transcript);
    assert.deepEqual(keywords.map((keyword) => keyword.keyword).sort(), ["bill", "router"]);
    assert.deepEqual(topics, []);
  });
});

describe("knowledgeOf: edge cases", () => {
  test("an empty transcript has no keywords and no topics", () => {
    assert.deepEqual(knowledgeOf(conversation([])), { keywords: [], topics: [] });
    assert.deepEqual(knowledgeOf({ words: [] }), { keywords: [], topics: [] });
  });

  test("one word: a noun is the only keyword, with all the relevance; anything else is none", () => {
    const transcript = conversation([["Caller", "subscription"]]);
    const [word] = entriesOf(transcript, "subscription");
    assert.deepEqual(knowledgeOf(transcript), {
      keywords: [
        {
          keyword: "subscription",
          relevance: 1,
          mentions: [
            { speakerName: "Caller", occurrences: [{ s: word?.s, e: word?.e, exact: "Subscription" }] },
          ],
        },
      ],
      topics: [],
    });
    assert.deepEqual(knowledgeOf(conversation([["Caller", "hello"]])), { keywords: [], topics: [] });
  });

  test("a speaker who said nothing is in no mention", () => {
    const transcript = conversation([
      ["Agent", "your refund is on the way"],
      ["Caller", ""],
    ]);
    const speakers = knowledgeOf(transcript).keywords.flatMap((keyword) =>
      keyword.mentions.map((mention) => mention.speakerName),
    );
    assert.deepEqual([...new Set(speakers)], ["Agent"]);
  });
});

describe("pageRank", () => {
  test("scores add up to 1; a word linked to more words scores more; frequency tips a tie", () => {
    const graph = new Map([
      [
        "hub",
        new Map([
          ["a", 1],
          ["b", 1],
          ["c", 1],
        ]),
      ],
      ["a", new Map([["hub", 1]])],
      ["b", new Map([["hub", 1]])],
      ["c", new Map([["hub", 1]])],
      ["alone", new Map<string, number>()],
    ]);
    const once = new Map([...graph.keys()].map((word) => [word, 1]));
    const scores = pageRank(graph, once);
    const total = [...scores.values()].reduce((sum, score) => sum + score, 0);
    assert.ok(Math.abs(total - 1) < 1e-9, `total ${total}`);
    assert.ok((scores.get("hub") ?? 0) > (scores.get("a") ?? 0));
    assert.ok((scores.get("a") ?? 0) > (scores.get("alone") ?? 0));
    const often = pageRank(graph, new Map([...once, ["b", 3]]));
    assert.ok((often.get("b") ?? 0) > (often.get("a") ?? 0));
  });
});

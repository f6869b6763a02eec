import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { verbNounPairsOf } from "../../src/analytics/verb-noun.ts";
import type { VerbNounPair } from "../../src/analytics/verb-noun.ts";
import { conversation, entriesOf } from "./transcript.ts";

function pairsOf(speakerName: string, text: string): VerbNounPair[] {
  const [speaker] = verbNounPairsOf(conversation([[speakerName, text]]));
  assert.equal(speaker?.speakerName, speakerName);
  return speaker.verbNounPairs;
}

/** The pairs as VoiceBase's guide writes them, without times: "verb noun", with its flags. */
function described(pairs: readonly VerbNounPair[]): string[] {
  return pairs.map(({ verb, noun, verbNeg, nounNeg, question }) =>
    [verb, noun, verbNeg && `verbNeg=${verbNeg}`, nounNeg && `nounNeg=${nounNeg}`, question && "question"]
      .filter(Boolean)
      .join(" "),
  );
}

describe("verbNounPairsOf", () => {
  test("a cancellation: verb cancel, noun subscription, timed from the verb to the noun, for its speaker", () => {
    const transcript = conversation([
      ["Agent", "thank you for calling how can I help you"],
      ["Caller", "I want to cancel my subscription"],
    ]);
    const [agent, caller] = verbNounPairsOf(transcript);
    assert.equal(agent?.speakerName, "Agent");
    assert.ok(!described(agent.verbNounPairs).includes("cancel subscription"));
    assert.equal(caller?.speakerName, "Caller");
    const [cancel] = entriesOf(transcript, "cancel");
    const [subscription] = entriesOf(transcript, "subscription");
    assert.deepEqual(caller.verbNounPairs, [
      { s: cancel?.s, e: subscription?.e, verb: "cancel", noun: "subscription" },
    ]);
  });

  test("verbs and nouns are lemmas: any form of a verb gives the same pair", () => {
    assert.deepEqual(described(pairsOf("Caller", "she cancelled the subscriptions")), [
      "cancel subscription",
    ]);
    assert.deepEqual(described(pairsOf("Caller", "we are cancelling the subscription")), [
      "cancel subscription",
    ]);
  });

  test("a negated verb has verbNeg, as a lemma: not, also for n't, or never", () => {
    assert.deepEqual(described(pairsOf("Caller", "I did not receive the refund")), [
      "receive refund verbNeg=not",
    ]);
    assert.deepEqual(described(pairsOf("Caller", "I didn't receive the refund")), [
      "receive refund verbNeg=not",
    ]);
    assert.deepEqual(described(pairsOf("Caller", "I never received the refund")), [
      "receive refund verbNeg=never",
    ]);
  });

  test("a verb without an object pairs with its subject, as the guide's 'internet doesn't work'", () => {
    const pairs = pairsOf("Caller", "my internet is not working. the stupid internet doesn't work");
    assert.deepEqual(described(pairs), ["work internet verbNeg=not", "work internet verbNeg=not"]);
    const transcript = conversation([["Caller", "my internet is not working"]]);
    const [internet] = entriesOf(transcript, "internet");
    const [working] = entriesOf(transcript, "working");
    const [pair] = verbNounPairsOf(transcript)[0]?.verbNounPairs ?? [];
    assert.equal(pair?.s, internet?.s, "the pair starts at the subject");
    assert.equal(pair?.e, working?.e, "and ends at the verb");
  });

  test("'no' before the noun is nounNeg", () => {
    assert.deepEqual(described(pairsOf("Agent", "they provide no justification")), [
      "provide justification nounNeg=no",
    ]);
  });

  test("a question is told by its word order, as the recogniser writes no question marks", () => {
    assert.deepEqual(described(pairsOf("Caller", "can you reset my password")), ["reset password question"]);
    assert.deepEqual(described(pairsOf("Agent", "okay do they like our service")), ["like service question"]);
    assert.deepEqual(described(pairsOf("Caller", "um so did you get my email")), ["get email question"]);
    assert.deepEqual(described(pairsOf("Caller", "you can reset my password")), ["reset password"]);
    assert.deepEqual(described(pairsOf("Agent", "have a nice day")), ["have day"]);
  });

  test("'have' as the main verb pairs, though the tagger calls it an auxiliary", () => {
    assert.deepEqual(described(pairsOf("Caller", "I do not have a question")), ["have question verbNeg=not"]);
    assert.deepEqual(described(pairsOf("Caller", "I have cancelled the order")), ["cancel order"]);
  });

  test("of a compound the head noun pairs; words of time after it do not", () => {
    assert.deepEqual(described(pairsOf("Agent", "I need your account number")), ["need number"]);
    assert.deepEqual(described(pairsOf("Caller", "please cancel the subscription today")), [
      "cancel subscription",
    ]);
  });

  test("no pair across a preposition, a pronoun or the end of a sentence", () => {
    assert.deepEqual(described(pairsOf("Agent", "thank you for calling")), []);
    assert.deepEqual(described(pairsOf("Caller", "I talked to the manager")), []);
    assert.deepEqual(described(pairsOf("Caller", "I want to cancel. the subscription is expensive")), []);
  });

  test("each sentence of each speaker in the order spoken, a speaker with no pairs listed empty", () => {
    const transcript = conversation([
      ["Agent", "hello"],
      ["Caller", "I lost my card. I need a new card"],
      ["Agent", "sure"],
      ["Caller", "and cancel the old card"],
    ]);
    const speakers = verbNounPairsOf(transcript);
    assert.deepEqual(
      speakers.map(({ speakerName, verbNounPairs }) => [speakerName, described(verbNounPairs)]),
      [
        ["Agent", []],
        ["Caller", ["lose card", "need card", "cancel card"]],
      ],
    );
    const times = speakers[1]?.verbNounPairs.map((pair) => pair.s) ?? [];
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
  });

  test("a speaker who said nothing is listed with no pairs", () => {
    const transcript = conversation([
      ["Agent", "please reset your password"],
      ["Caller", ""],
    ]);
    assert.deepEqual(
      verbNounPairsOf(transcript).map(({ speakerName, verbNounPairs }) => [
        speakerName,
        described(verbNounPairs),
      ]),
      [
        ["Agent", ["reset password"]],
        ["Caller", []],
      ],
    );
  });

  test("an empty transcript has no speakers and no pairs; one word has none", () => {
    assert.deepEqual(verbNounPairsOf(conversation([])), []);
    assert.deepEqual(verbNounPairsOf(conversation([["Agent", "hello"]])), [
      { speakerName: "Agent", verbNounPairs: [] },
    ]);
    assert.deepEqual(verbNounPairsOf({ words: [], voiceActivity: [] }), []);
  });
});

import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { sentimentOf, speakerSentimentsOf } from "../../src/analytics/speaker-sentiments.ts";
import { turnsOf } from "../../src/analytics/turns.ts";
import { conversation } from "./transcript.ts";

const CALL = conversation([
  ["Agent", "thank you for calling acme how can I help you"],
  ["Caller", "hi. this is the third time I am calling. your service is terrible and I am very angry"],
  ["Agent", "let me look at your account"],
  ["Caller", "thank you so much that is great. I really appreciate your help"],
]);

describe("speakerSentimentsOf", () => {
  test("one value per turn, in VoiceBase's shape, each speaker's turns in the order spoken", () => {
    const sentiments = speakerSentimentsOf(CALL);
    const turns = turnsOf(CALL);
    assert.deepEqual(
      sentiments.map(({ speakerName, sentimentValues }) => [
        speakerName,
        sentimentValues.map(({ s, e }) => ({ s, e })),
      ]),
      [
        ["Agent", [turns[0], turns[2]].map((turn) => ({ s: turn?.s, e: turn?.e }))],
        ["Caller", [turns[1], turns[3]].map((turn) => ({ s: turn?.s, e: turn?.e }))],
      ],
    );
    for (const { sentimentValues } of sentiments) {
      for (const value of sentimentValues) {
        assert.deepEqual(Object.keys(value), ["s", "e", "v"]);
        assert.ok(value.v >= -1 && value.v <= 1, `${value.v} is within -1..1`);
        assert.equal(value.v, Math.round(value.v * 10_000) / 10_000, "4 decimals at most");
      }
    }
  });

  test("a complaint reads negative, thanks read positive, a plain request neutral", () => {
    const [agent, caller] = speakerSentimentsOf(CALL);
    const [greeting, request] = agent?.sentimentValues ?? [];
    const [complaint, thanks] = caller?.sentimentValues ?? [];
    assert.ok((complaint?.v ?? 0) < -0.3, `complaint: ${complaint?.v}`);
    assert.ok((thanks?.v ?? 0) > 0.3, `thanks: ${thanks?.v}`);
    assert.ok((greeting?.v ?? 0) > 0, `thanking for the call: ${greeting?.v}`);
    assert.equal(request?.v, 0);
  });

  test("a neutral greeting before a complaint does not water it down", () => {
    assert.equal(sentimentOf(["hi", "this is terrible service"]), sentimentOf(["this is terrible service"]));
  });

  test("a negation reaches no further than its sentence", () => {
    assert.ok(sentimentOf(["I am not happy"]) < 0);
    assert.ok(sentimentOf(["it did not arrive", "I am happy now"]) > 0);
  });

  test("a speaker who said nothing is listed with no values, in the order of the channels", () => {
    const transcript = conversation([
      ["Caller", ""],
      ["Agent", "good morning"],
    ]);
    assert.deepEqual(
      speakerSentimentsOf(transcript).map(({ speakerName, sentimentValues }) => [
        speakerName,
        sentimentValues.length,
      ]),
      [
        ["Caller", 0],
        ["Agent", 1],
      ],
    );
  });

  test("one word is one turn; an empty transcript has no speakers", () => {
    const transcript = conversation([["Caller", "hello"]]);
    const [word] = turnsOf(transcript);
    assert.deepEqual(speakerSentimentsOf(transcript), [
      { speakerName: "Caller", sentimentValues: [{ s: word?.s, e: word?.e, v: 0 }] },
    ]);
    assert.deepEqual(speakerSentimentsOf(conversation([])), []);
    assert.deepEqual(speakerSentimentsOf({ words: [], voiceActivity: [] }), []);
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyse } from "../../src/analytics/analyse.ts";
import { formatNumbers, numberReplacements } from "../../src/analytics/number-formatting.ts";
import { type AnalysisPlan, NO_ANALYSES } from "../../src/domain/configuration.ts";
import type { Transcript } from "../../src/domain/transcript.ts";
import { formatTexts, predictionTranscript, span, type Utterance } from "./prediction-transcript.ts";

/** `text` with its numbers formatted, the words joined by spaces again. */
function formatted(text: string): string {
  const words = text.split(" ");
  const out: string[] = [];
  let at = 0;
  for (const { from, to, text: written } of numberReplacements(words)) {
    out.push(...words.slice(at, from), written);
    at = to;
  }
  return [...out, ...words.slice(at)].join(" ");
}

describe("numberReplacements", () => {
  it("writes the formatting guide's examples as VoiceBase does", () => {
    assert.equal(
      formatted("the total of your bill comes to one hundred thirty eight dollars and sixty five cents"),
      "the total of your bill comes to $138.65",
    );
    assert.equal(
      formatted("please give me a call back at six five zero eight nine seven five one seven zero thank you"),
      "please give me a call back at 650-897-5170 thank you",
    );
  });

  it("writes digit strings, card and account numbers as the digits said", () => {
    assert.equal(
      formatted("four one one one one one one one one one one one one one one one"),
      "4111111111111111",
    );
    assert.equal(formatted("account oh oh seven double five"), "account 00755");
    assert.equal(formatted("expires oh eight twenty five"), "expires 0825");
    assert.equal(
      formatted("call one six five zero eight nine seven five one seven zero"),
      "call 1-650-897-5170",
    );
    assert.equal(formatted("dial five five five one two one two"), "dial 555-1212");
  });

  it("writes amounts, years, decimals, percentages and money", () => {
    assert.equal(formatted("in nineteen ninety nine"), "in 1999");
    assert.equal(formatted("since two thousand seventeen"), "since 2017");
    assert.equal(formatted("two hundred and five people"), "205 people");
    assert.equal(formatted("rates rose three point five percent"), "rates rose 3.5%");
    assert.equal(formatted("twelve percent"), "12%");
    assert.equal(formatted("a hundred dollars"), "$100");
    assert.equal(formatted("one thousand five hundred dollars"), "$1,500");
    assert.equal(formatted("five dollars and nine cents"), "$5.09");
    assert.equal(formatted("one dollar"), "$1");
  });

  it("writes times and ordinals where the words around them say so", () => {
    assert.equal(formatted("three thirty p.m."), "3:30 PM");
    assert.equal(formatted("eleven oh five am"), "11:05 AM");
    assert.equal(formatted("see you at three thirty"), "see you at 3:30");
    assert.equal(formatted("room three thirty"), "room 330");
    assert.equal(formatted("seven pm"), "7 PM");
    assert.equal(formatted("the twenty first of march"), "the 21st of march");
    assert.equal(formatted("on march third"), "on march 3rd");
    assert.equal(formatted("the one hundredth caller"), "the 100th caller");
  });

  it("leaves words that are rarely numbers as they are", () => {
    for (const text of ["the one I want", "first of all", "wait a second", "Oh I see", "oh oh", "a lot"]) {
      assert.equal(formatted(text), text);
    }
  });
});

const caller: Utterance = {
  speaker: "Caller",
  at: 1000,
  text: "my card is four one one one one one one one one one one one one one one one and my number is six five zero eight nine seven five one seven zero",
};
const call = predictionTranscript({ speaker: "Agent", at: 0, text: "card please" }, caller);

describe("formatNumbers", () => {
  it("merges each number's words into one: first s, last e, lowest c, positions renumbered", () => {
    const low = structuredClone(call);
    const digit = low.words.find((word) => word.w === "eight");
    if (digit) digit.c = 0.4;
    const result = formatNumbers(low);
    const phone = result.words.find((word) => word.w === "650-897-5170");
    assert.ok(phone, JSON.stringify(result.words.map((word) => word.w)));
    // "six" is word 23 of the caller's words (from 0), "zero" word 32.
    assert.deepEqual({ s: phone.s, e: phone.e, c: phone.c }, { ...span(caller, 23, 32), c: 0.4 });
    assert.equal(result.words.length, call.words.length - 15 - 9);
    result.words.forEach((word, index) => assert.equal(word.p, index));
    assert.match(formatTexts(result).text, /My card is 4111111111111111 and my number is 650-897-5170\./u);
    assert.match(formatTexts(result).srt, /650-897-5170/u);
  });
});

describe("number formatting in analyse", () => {
  const plan = (numberFormatting: boolean, level: string): AnalysisPlan => ({
    ...NO_ANALYSES,
    numberFormatting,
    detectors: ["PCI", "SSN", "Number"].map((detectorName) => ({
      detectorName,
      parameters: [{ parameter: "detectionLevel", value: level }],
      redactor: { transcript: { replacement: "[redacted]" }, audio: { tone: 1000, gain: 0.5 } },
    })),
  });
  const analysed = (numberFormatting: boolean, level: string) =>
    analyse(
      call,
      plan(numberFormatting, level),
      { spottingGroups: [], categories: [], classifiers: [] },
      {
        roles: {},
      },
    );

  for (const level of ["entireRegion", "probableNumbers", "numbersOnly"]) {
    it(`detects and redacts the same spans with formatting on or off (${level})`, () => {
      const on = analysed(true, level);
      const off = analysed(false, level);
      assert.deepEqual(on.sections.prediction, off.sections.prediction);
      assert.deepEqual(on.audioRedaction, off.audioRedaction);
      assert.ok((on.audioRedaction?.ranges.length ?? 0) > 0);
      const words = (on.sections.transcript as Transcript).words;
      assert.ok(words.some((word) => word.w === "[redacted]"));
      // No formatted number shows a digit the detectors covered, in the JSON or any format.
      assert.ok(!words.some((word) => /\d/u.test(word.w)), JSON.stringify(words.map((word) => word.w)));
      const texts = formatTexts(on.sections.transcript as Transcript);
      assert.doesNotMatch(texts.text, /\d/u);
      for (const text of Object.values(texts)) assert.doesNotMatch(text, /4111|650|four one|six five/u);
    });
  }

  it("formats what no detector covered, and keeps the words when turned off", () => {
    const nothing = { spottingGroups: [], categories: [], classifiers: [] };
    const on = analyse(call, { ...NO_ANALYSES, numberFormatting: true }, nothing, { roles: {} });
    const off = analyse(call, { ...NO_ANALYSES, numberFormatting: false }, nothing, { roles: {} });
    assert.match(formatTexts(on.sections.transcript as Transcript).text, /650-897-5170/u);
    assert.deepEqual(off.sections.transcript, call);
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { digitRuns, MAX_DIGIT_GAP_MS } from "../../src/analytics/spoken-numbers.ts";
import { spokenWords } from "../../src/analytics/turns.ts";
import { predictionTranscript, span, type Utterance } from "./prediction-transcript.ts";

function runsOf(...utterances: Utterance[]) {
  return digitRuns(spokenWords(predictionTranscript(...utterances)));
}

function digitsOf(text: string): string[] {
  return runsOf({ speaker: "Caller", at: 0, text }).map((run) => run.digits);
}

describe("digitRuns", () => {
  it("reads digits said one by one, with the speaker, words and times they span", () => {
    const said = { speaker: "Caller", at: 1000, text: "my zip is nine oh two one oh thanks" };
    const runs = runsOf(said);
    assert.equal(runs.length, 1);
    const [run] = runs;
    assert.equal(run?.digits, "90210");
    assert.equal(run?.speakerName, "Caller");
    assert.deepEqual(
      run?.words.map((word) => word.w),
      ["nine", "oh", "two", "one", "oh"],
    );
    assert.deepEqual({ s: run?.s, e: run?.e }, span(said, 3, 7));
  });

  it("reads a number at the start of a sentence, capitalised by the transcript", () => {
    assert.deepEqual(digitsOf("four one one one"), ["4111"]);
  });

  it("reads tens, teens, double and triple as the digits they stand for", () => {
    assert.deepEqual(digitsOf("it expires oh eight twenty five"), ["0825"]);
    assert.deepEqual(digitsOf("born nineteen eighty"), ["1980"]);
    assert.deepEqual(digitsOf("call double five triple oh seven"), ["550007"]);
    assert.deepEqual(digitsOf("twenty twenty"), ["2020"]);
    // "oh" after a tens word is a digit of its own, not part of the tens.
    assert.deepEqual(digitsOf("twenty oh one"), ["2001"]);
  });

  it("keeps separators and hesitations inside a number but never at its edges", () => {
    const runs = runsOf({ speaker: "Caller", at: 0, text: "one two three dash four five uh slash then" });
    assert.deepEqual(
      runs.map((run) => run.digits),
      ["12345"],
    );
    assert.deepEqual(
      runs[0]?.words.map((word) => word.w),
      ["One", "two", "three", "dash", "four", "five"],
    );
  });

  it("does not take the interjection oh, or words like double and hundred alone, for numbers", () => {
    assert.deepEqual(digitsOf("oh I see oh oh"), []);
    assert.deepEqual(digitsOf("a double room"), []);
    assert.deepEqual(digitsOf("two hundred dollars"), ["2"]);
  });

  it("never joins digits across a change of speaker", () => {
    const runs = runsOf(
      { speaker: "Caller", at: 0, text: "four one one one twenty" },
      { speaker: "Agent", at: 2000, text: "one one one one" },
    );
    assert.deepEqual(
      runs.map((run) => [run.speakerName, run.digits]),
      [
        ["Caller", "411120"],
        ["Agent", "1111"],
      ],
    );
  });

  it("joins groups read with short pauses, and splits at a long silence", () => {
    const groups = runsOf(
      { speaker: "Caller", at: 0, text: "four one one one" },
      { speaker: "Caller", at: 2400, text: "one one one one" },
    );
    assert.deepEqual(
      groups.map((run) => run.digits),
      ["41111111"],
    );
    const apart = runsOf(
      { speaker: "Caller", at: 0, text: "four one one one" },
      { speaker: "Caller", at: 1500 + MAX_DIGIT_GAP_MS + 1, text: "one one one one" },
    );
    assert.deepEqual(
      apart.map((run) => run.digits),
      ["4111", "1111"],
    );
  });

  it("finds a number at the very end of the transcript", () => {
    assert.deepEqual(digitsOf("my pin is one two three four"), ["1234"]);
  });

  it("finds nothing in an empty transcript", () => {
    assert.deepEqual(digitRuns(spokenWords(predictionTranscript())), []);
  });
});

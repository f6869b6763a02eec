import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { SpeakerWords, Word } from "../../src/domain/transcript.ts";
import { alignSequences, alignTranscript, tokenise } from "../../src/pipeline/align.ts";
import { assembleTranscript } from "../../src/pipeline/assemble.ts";

const FALLBACK = { speakerName: "Speaker", lengthMs: 10_000 };

/** A recognised transcript: one speaker saying `words`, each 400 ms long with 100 ms between. */
function heard(words: string[], speakerName = "Agent", channel = 0, from = 1000): Word[] {
  const speakers: SpeakerWords[] = [
    {
      speakerName,
      channel,
      words: words.map((word, i) => ({
        word,
        start: from + i * 500,
        end: from + i * 500 + 400,
        confidence: 0.6,
      })),
    },
  ];
  return assembleTranscript(speakers).words;
}

const spoken = (words: Word[]) => words.filter((word) => word.m === undefined);
const texts = (words: Word[]) => words.map((word) => word.w);

function assertWellFormed(words: Word[]) {
  words.forEach((word, index) => assert.equal(word.p, index));
  for (let i = 1; i < words.length; i++) {
    const [a, b] = [words[i - 1] as Word, words[i] as Word];
    assert.ok(b.s >= a.s, `starts go back in time at ${i}: ${JSON.stringify([a, b])}`);
  }
  for (const word of words) assert.ok(word.e >= word.s, JSON.stringify(word));
}

describe("alignSequences", () => {
  it("pairs equal sequences word by word", () => {
    assert.deepEqual(alignSequences(["a", "b", "c"], ["a", "b", "c"]), [0, 1, 2]);
  });

  it("leaves a given word the recogniser missed unaligned, and skips a word it added", () => {
    assert.deepEqual(alignSequences(["a", "x", "b", "c"], ["a", "b", "c"]), [0, -1, 1, 2]);
    assert.deepEqual(alignSequences(["a", "c"], ["a", "b", "c"]), [0, 2]);
  });
});

describe("alignTranscript", () => {
  it("gives each given word the time of the recognised word it matches, keeping the given spelling", () => {
    const recognised = heard(["please", "cancel", "my", "order"]);
    const aligned = alignTranscript(recognised, "Please cancel my ORDER", FALLBACK);
    assert.deepEqual(texts(aligned), ["Agent", "Please", "cancel", "my", "ORDER"]);
    assert.deepEqual(
      spoken(aligned).map((word) => [word.s, word.e, word.c]),
      spoken(recognised).map((word) => [word.s, word.e, 1]),
    );
    assert.ok(
      aligned.every((word) => word.v === undefined),
      "no channel in v",
    );
    assertWellFormed(aligned);
  });

  it("puts a substituted word at the time of the word the recogniser heard instead", () => {
    const recognised = heard(["call", "miss", "terry", "now"]);
    const aligned = alignTranscript(recognised, "call Ms. Terri now", FALLBACK);
    const words = spoken(aligned);
    assert.deepEqual(texts(words), ["call", "Ms", "Terri", "now"]);
    assert.deepEqual(
      words.map((word) => word.s),
      spoken(recognised).map((word) => word.s),
    );
    // The full stop stays punctuation, at the end of the word before it.
    const stop = aligned.find((word) => word.w === ".");
    assert.deepEqual(stop && [stop.m, stop.s, stop.e], ["punc", 1900, 1900]);
  });

  it("shares the time between aligned neighbours among inserted words", () => {
    const recognised = heard(["one", "four"]);
    // "one" ends at 1400, "four" starts at 1500.
    const aligned = alignTranscript(recognised, "one two three four", FALLBACK);
    const words = spoken(aligned);
    assert.deepEqual(texts(words), ["one", "two", "three", "four"]);
    assert.deepEqual(
      words.map((word) => [word.s, word.e]),
      [
        [1000, 1400],
        [1400, 1450],
        [1450, 1500],
        [1500, 1900],
      ],
    );
  });

  it("drops recognised words the text does not have", () => {
    const recognised = heard(["um", "yes", "uh", "please"]);
    const aligned = alignTranscript(recognised, "Yes, please.", FALLBACK);
    assert.deepEqual(texts(aligned), ["Agent", "Yes", ",", "please", "."]);
    assert.deepEqual(
      spoken(aligned).map((word) => word.s),
      [1500, 2500],
    );
    assertWellFormed(aligned);
  });

  it("keeps inserted words inside the earlier speaker's turn when the next aligned word is another's", () => {
    const agent = {
      speakerName: "Agent",
      channel: 0,
      words: [
        { word: "hello", start: 0, end: 400, confidence: 0.5 },
        { word: "there", start: 500, end: 900, confidence: 0.5 },
      ],
    };
    const caller = {
      speakerName: "Caller",
      channel: 1,
      words: [{ word: "hi", start: 2000, end: 2300, confidence: 0.5 }],
    };
    const recognised = assembleTranscript([agent, caller]).words;
    const aligned = alignTranscript(recognised, "hello there friend hi", FALLBACK);
    assert.deepEqual(texts(aligned), ["Agent", "hello", "there", "friend", "Caller", "hi"]);
    const friend = aligned.find((word) => word.w === "friend");
    // "there" ends the agent's turn at 900: "friend" has no time of its own to share there.
    assert.deepEqual(friend && [friend.s, friend.e], [900, 900]);
    const turns = aligned.filter((word) => word.m === "turn").map((word) => [word.w, word.s, word.e]);
    assert.deepEqual(
      turns,
      [
        ["Agent", 0, 900],
        ["Caller", 2000, 2300],
      ],
      "each turn spans its words",
    );
    assertWellFormed(aligned);
  });

  it("returns the recognised words unchanged for a text without words", () => {
    const recognised = heard(["hello"]);
    assert.deepEqual(alignTranscript(recognised, "", FALLBACK), recognised);
    assert.deepEqual(alignTranscript(recognised, "  ... \n", FALLBACK), recognised);
  });

  it("spreads the text over the whole media when nothing was recognised", () => {
    const aligned = alignTranscript([], "hello world", FALLBACK);
    assert.deepEqual(
      aligned.map((word) => [word.w, word.s, word.e]),
      [
        ["Speaker", 0, 10_000],
        ["hello", 0, 5000],
        ["world", 5000, 10_000],
      ],
    );
  });

  it("aligns a text far longer than the recognised words, times increasing within the recording", () => {
    const recognised = heard(["the", "end"]);
    const text = `${Array.from({ length: 500 }, (_, i) => `word${i}`).join(" ")} the end`;
    const aligned = alignTranscript(recognised, text, FALLBACK);
    const words = spoken(aligned);
    assert.equal(words.length, 502);
    assertWellFormed(aligned);
    assert.deepEqual(
      words.slice(-2).map((word) => [word.s, word.e]),
      [
        [1000, 1400],
        [1500, 1900],
      ],
    );
    // Before anything aligned, the missed words share the turn's start up to the first aligned word.
    assert.ok(words.slice(0, 500).every((word) => word.s >= 1000 && word.e <= 1000));
  });
});

describe("tokenise", () => {
  it("splits leading and trailing punctuation from words, keeping what is inside a word", () => {
    assert.deepEqual(
      tokenise(`"Don't," she said -- (twice).`).map((token) => [token.kind, token.text]),
      [
        ["punc", '"'],
        ["word", "Don't"],
        ["punc", ',"'],
        ["word", "she"],
        ["word", "said"],
        ["punc", "--"],
        ["punc", "("],
        ["word", "twice"],
        ["punc", ")."],
      ],
    );
  });
});

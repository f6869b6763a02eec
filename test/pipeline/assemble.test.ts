import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { RecognizedWord, SpeakerWords } from "../../src/domain/transcript.ts";
import { assembleTranscript, caseWord, SENTENCE_PAUSE_MS } from "../../src/pipeline/assemble.ts";

const w = (word: string, start: number, end: number, confidence = 0.9): RecognizedWord => ({
  word,
  start,
  end,
  confidence,
});

describe("assembleTranscript", () => {
  it("gives an empty transcript for no words", () => {
    assert.deepEqual(assembleTranscript([]), { words: [], voiceActivity: [], confidence: 0 });
    const silent = assembleTranscript([{ speakerName: "Agent", channel: 1, words: [] }]);
    assert.deepEqual(silent, {
      words: [],
      voiceActivity: [{ speakerName: "Agent", occurrences: [] }],
      confidence: 0,
    });
  });

  it("builds turn, words and full stop for one speaker, as VoiceBase lays them out", () => {
    const speakers: SpeakerWords[] = [
      {
        speakerName: "Agent",
        channel: 0,
        words: [w("hello", 1420, 1620, 0.4861), w("there", 1630, 1790, 0.917)],
      },
    ];
    assert.deepEqual(assembleTranscript(speakers).words, [
      { p: 0, c: 1, s: 1420, e: 1790, w: "Agent", m: "turn" },
      { p: 1, c: 0.486, s: 1420, e: 1620, w: "Hello" },
      { p: 2, c: 0.917, s: 1630, e: 1790, w: "there" },
      { p: 3, c: 0, s: 1790, e: 1790, w: ".", m: "punc" },
    ]);
  });

  it("lists turns by start time, each turn entry spanning its turn and followed by its words", () => {
    const speakers: SpeakerWords[] = [
      { speakerName: "Customer", channel: 0, words: [w("hi", 2400, 2500), w("there", 5000, 5200)] },
      { speakerName: "Agent", channel: 1, words: [w("hello", 2200, 2300)] },
    ];
    const { words } = assembleTranscript(speakers);
    assert.deepEqual(
      words.map((entry) => [entry.p, entry.w, entry.m ?? entry.c, entry.s, entry.e]),
      [
        [0, "Agent", "turn", 2200, 2300],
        [1, "Hello", 0.9, 2200, 2300],
        [2, ".", "punc", 2300, 2300],
        [3, "Customer", "turn", 2400, 5200],
        [4, "Hi", 0.9, 2400, 2500],
        [5, ".", "punc", 2500, 2500],
        [6, "There", 0.9, 5000, 5200],
        [7, ".", "punc", 5200, 5200],
      ],
    );
    assert.ok(
      words.every((entry) => entry.v === undefined),
      "v is VoiceBase's volume, not the channel",
    );
    assert.ok(words.filter((entry) => entry.m === "punc").every((entry) => entry.c === 0));
  });

  it("keeps a turn whole when the other speaker talks over it, and ends it when they answer", () => {
    const speakers: SpeakerWords[] = [
      {
        speakerName: "Agent",
        channel: 0,
        words: [w("so", 0, 300), w("your", 350, 600), w("order", 650, 1000), w("ok", 3000, 3200)],
      },
      // "yeah" overlaps "your": talk-over. "thanks" lies wholly in the agent's pause: an answer.
      { speakerName: "Caller", channel: 1, words: [w("yeah", 400, 620), w("thanks", 1500, 2000)] },
    ];
    const { words } = assembleTranscript(speakers);
    assert.deepEqual(
      words.filter((entry) => entry.m !== "punc").map((entry) => [entry.w, entry.s, entry.e]),
      [
        ["Agent", 0, 1000],
        ["So", 0, 300],
        ["your", 350, 600],
        ["order", 650, 1000],
        ["Caller", 400, 620],
        ["Yeah", 400, 620],
        ["Caller", 1500, 2000],
        ["Thanks", 1500, 2000],
        ["Agent", 3000, 3200],
        ["Ok", 3000, 3200],
      ],
    );
  });

  it(`ends a sentence at a pause of ${SENTENCE_PAUSE_MS} ms or more, not at a shorter one`, () => {
    const speakers: SpeakerWords[] = [
      {
        speakerName: "A",
        channel: 0,
        words: [
          w("yes", 0, 300),
          w("sure", 300 + SENTENCE_PAUSE_MS - 1, 1200),
          w("thanks", 1200 + SENTENCE_PAUSE_MS, 2200),
        ],
      },
    ];
    const text = assembleTranscript(speakers)
      .words.filter((entry) => entry.m !== "turn")
      .map((entry) => entry.w)
      .join(" ");
    assert.equal(text, "Yes sure . Thanks .");
  });

  it("capitalises the first word of each sentence and the pronoun I", () => {
    const speakers: SpeakerWords[] = [
      {
        speakerName: "A",
        channel: 0,
        words: [
          w("i", 0, 100),
          w("think", 100, 300),
          w("i'm", 300, 500),
          w("in", 500, 600),
          w("it", 2000, 2100),
        ],
      },
    ];
    const spoken = assembleTranscript(speakers).words.filter((entry) => entry.m === undefined);
    assert.deepEqual(
      spoken.map((entry) => entry.w),
      ["I", "think", "I'm", "in", "It"],
    );
  });

  it("numbers every entry from 0 without gaps", () => {
    const speakers: SpeakerWords[] = [
      { speakerName: "A", channel: 0, words: [w("one", 0, 100), w("three", 3000, 3100)] },
      { speakerName: "B", channel: 1, words: [w("two", 1000, 1100), w("four", 9000, 9100)] },
    ];
    const { words } = assembleTranscript(speakers);
    assert.deepEqual(
      words.map((entry) => entry.p),
      words.map((_, i) => i),
    );
    assert.equal(words.filter((entry) => entry.m === "turn").length, 4);
    assert.equal(words.filter((entry) => entry.m === "punc").length, 4);
  });

  it("orders turns with equal start by their first word's end, then by speaker order, deterministically", () => {
    const speakers: SpeakerWords[] = [
      { speakerName: "A", channel: 0, words: [w("long", 1000, 1500)] },
      { speakerName: "B", channel: 1, words: [w("short", 1000, 1200), w("same", 2000, 2100)] },
      { speakerName: "C", channel: 2, words: [w("tie", 2000, 2100)] },
    ];
    const spoken = assembleTranscript(speakers).words.filter((entry) => entry.m === undefined);
    assert.deepEqual(
      spoken.map((entry) => entry.w.toLowerCase()),
      ["short", "same", "long", "tie"],
    );
  });

  it("takes the mean word confidence, rounded to 3 decimals, ignoring turns and punctuation", () => {
    const speakers: SpeakerWords[] = [
      { speakerName: "A", channel: 0, words: [w("a", 0, 100, 0.5), w("b", 100, 200, 0.2)] },
      { speakerName: "B", channel: 1, words: [w("c", 300, 400, 0.9999)] },
    ];
    assert.equal(assembleTranscript(speakers).confidence, 0.567);
  });

  it("reports voice activity per speaker, in the order given", () => {
    const speakers: SpeakerWords[] = [
      { speakerName: "A", channel: 0, words: [w("x", 0, 100), w("y", 500, 900), w("z", 5000, 5500)] },
      { speakerName: "B", channel: 1, words: [w("q", 1000, 1200)] },
    ];
    assert.deepEqual(assembleTranscript(speakers).voiceActivity, [
      {
        speakerName: "A",
        occurrences: [
          { s: 0, e: 900 },
          { s: 5000, e: 5500 },
        ],
      },
      { speakerName: "B", occurrences: [{ s: 1000, e: 1200 }] },
    ]);
  });
});

describe("caseWord", () => {
  it("capitalises sentence starts and the pronoun, and nothing else", () => {
    assert.equal(caseWord("hello", true), "Hello");
    assert.equal(caseWord("hello", false), "hello");
    assert.equal(caseWord("i", false), "I");
    assert.equal(caseWord("i'll", false), "I'll");
    assert.equal(caseWord("i've", true), "I've");
    assert.equal(caseWord("it", false), "it");
    assert.equal(caseWord("a.b.c.", true), "A.b.c.");
  });
});

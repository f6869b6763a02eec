import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Word } from "../../src/domain/transcript.ts";
import {
  buildCues,
  type Cue,
  clockTime,
  MAX_CUE_MS,
  MAX_LINE_CHARS,
  MAX_LINES,
  MAX_PAUSE_MS,
  MIN_CHARS_TO_BREAK_AT_SENTENCE,
  speakerLabel,
} from "../../src/formats/captions.ts";
import { MONOLOGUE, transcript, VOICEBASE_EXAMPLE } from "./fixtures.ts";

const text = (cue: Cue): string => cue.lines.join(" ");

/** What every caption track must satisfy, whatever the input. */
function assertWellFormed(cues: Cue[]): void {
  cues.forEach((cue, index) => {
    assert.ok(cue.start < cue.end, `cue ${index} ends after it starts`);
    assert.ok(Number.isInteger(cue.start) && Number.isInteger(cue.end), `cue ${index} has whole ms`);
    assert.ok(
      cue.lines.length >= 1 && cue.lines.length <= MAX_LINES,
      `cue ${index} has 1..${MAX_LINES} lines`,
    );
    for (const line of cue.lines) assert.notEqual(line.trim(), "", `cue ${index} has no empty line`);
    const next = cues[index + 1];
    if (next !== undefined) assert.ok(cue.end <= next.start, `cue ${index} ends before the next starts`);
  });
}

describe("buildCues", () => {
  test("gives one cue per speaker turn of VoiceBase's example, punctuation attached", () => {
    const cues = buildCues(VOICEBASE_EXAMPLE);
    assert.deepEqual(cues, [
      { start: 2200, end: 2300, speaker: "agent", turnStart: true, lines: ["Hello."] },
      { start: 2400, end: 2500, speaker: "caller", turnStart: true, lines: ["Hi"] },
    ]);
  });

  test("has no speaker when the transcript has no turns", () => {
    const cues = buildCues(transcript({ at: 0, text: "hello there, world." }));
    assert.equal(cues.length, 1);
    assert.equal(cues[0]?.speaker, undefined);
    assert.deepEqual(cues[0]?.lines, ["hello there, world."]);
  });

  for (const speaker of ["Agent", "Customer Service Desk"]) {
    test(`splits a long monologue of ${speaker} into cues of two lines within 42 characters, label included`, () => {
      // The other speaker's short reply afterwards makes the transcript one that labels its speakers.
      const all = buildCues(
        transcript({ speaker, at: 1000, text: MONOLOGUE }, { speaker: "Caller", at: 100_000, text: "ok" }),
      );
      assertWellFormed(all);
      const cues = all.slice(0, -1);
      assert.ok(cues.length >= 5, `${cues.length} cues`);
      for (const cue of cues) {
        assert.ok(cue.end - cue.start <= MAX_CUE_MS, `${cue.end - cue.start} ms`);
        cue.lines.forEach((line, index) => {
          const shown = index === 0 && cue.turnStart ? speakerLabel(speaker) + line : line;
          assert.ok(shown.length <= MAX_LINE_CHARS, `"${shown}" is ${shown.length} characters`);
        });
      }
      assert.equal(cues.map(text).join(" "), MONOLOGUE, "every word, once, in order");
      assert.deepEqual(
        cues.map((cue) => cue.turnStart),
        cues.map((_, index) => index === 0),
        "only the first cue starts the turn",
      );
      assert.ok(cues.every((cue) => cue.speaker === speaker));
    });
  }

  test("splits slow speech so that no cue lasts longer than the limit", () => {
    const cues = buildCues(
      transcript({ at: 0, text: "so um well I mean you know it is like", wordMs: 700, gapMs: 300 }),
    );
    assertWellFormed(cues);
    assert.ok(cues.length >= 2);
    for (const cue of cues) assert.ok(cue.end - cue.start <= MAX_CUE_MS, `${cue.end - cue.start} ms`);
  });

  test("lays two lines out evenly rather than filling the first", () => {
    const cues = buildCues(
      transcript({ at: 0, text: "one two three four five six seven eight nine ten eleven" }),
    );
    assert.deepEqual(cues[0]?.lines, ["one two three four five six", "seven eight nine ten eleven"]);
  });

  test("starts a new cue after a pause longer than the limit, not after a shorter one", () => {
    const long = transcript(
      { at: 0, text: "before the pause" },
      { at: 1000 + MAX_PAUSE_MS + 200, text: "after" },
    );
    assert.deepEqual(buildCues(long).map(text), ["before the pause", "after"]);
    const short = transcript(
      { at: 0, text: "before the pause" },
      { at: 1000 + MAX_PAUSE_MS - 200, text: "after" },
    );
    assert.deepEqual(buildCues(short).map(text), ["before the pause after"]);
  });

  test("starts a new cue at a speaker turn, however short the cue", () => {
    const cues = buildCues(
      transcript({ speaker: "A", at: 0, text: "yes" }, { speaker: "B", at: 500, text: "no" }),
    );
    assert.deepEqual(
      cues.map((cue) => [cue.speaker, text(cue)]),
      [
        ["A", "yes"],
        ["B", "no"],
      ],
    );
  });

  test("ends a cue at a sentence end once it is long enough, keeps short sentences together", () => {
    const sentence = "this first sentence is long enough to stand alone.";
    assert.ok(sentence.length >= MIN_CHARS_TO_BREAK_AT_SENTENCE);
    const long = buildCues(transcript({ at: 0, text: `${sentence} And more.` }));
    assert.deepEqual(long.map(text), [sentence, "And more."]);
    const short = buildCues(transcript({ at: 0, text: "Yes. Sure. Go on." }));
    assert.deepEqual(short.map(text), ["Yes. Sure. Go on."]);
  });

  test("clamps overlapping speech so that cues never overlap", () => {
    const words = transcript(
      { speaker: "Agent", at: 1000, text: "I was saying that", wordMs: 500 },
      { speaker: "Customer", at: 1600, text: "sorry" },
      { speaker: "Agent", at: 3000, text: "go ahead" },
    );
    const cues = buildCues(words);
    assertWellFormed(cues);
    assert.deepEqual(
      cues.map((cue) => [cue.start, cue.end]),
      [
        [1000, 1600],
        [1600, 1900],
        [3000, 3700],
      ],
    );
  });

  test("orders cues by time when one channel's words follow the other's", () => {
    const words = [
      ...transcript({ speaker: "Agent", at: 0, text: "hello" }, { at: 5000, text: "anything else?" }),
      ...transcript({ speaker: "Customer", at: 2000, text: "hi" }),
    ];
    const cues = buildCues(words);
    assertWellFormed(cues);
    assert.deepEqual(cues.map(text), ["hello", "hi", "anything else?"]);
  });

  test("gives zero-length and equal-time words a positive duration", () => {
    const words: Word[] = [
      { p: 0, c: 1, s: 500, e: 500, w: "um" },
      { p: 1, c: 1, s: 500, e: 500, w: "uh", m: "turn" },
      { p: 2, c: 1, s: 500, e: 500, w: "er" },
    ];
    const cues = buildCues(words);
    assertWellFormed(cues);
    assert.equal(cues.length, 2);
  });

  test("keeps a word longer than a line alone on its line", () => {
    const url = "https://example.com/a/very/long/address/that/does/not/fit";
    const cues = buildCues(transcript({ at: 0, text: `see ${url} now` }));
    assertWellFormed(cues);
    assert.ok(cues.some((cue) => cue.lines.includes(url)));
    assert.equal(cues.map(text).join(" "), `see ${url} now`);
  });

  test("removes line breaks and control characters from words, skips empty words", () => {
    const words: Word[] = [
      { p: 0, c: 1, s: 0, e: 100, w: "two\r\n\nlines" },
      { p: 1, c: 1, s: 100, e: 200, w: "  " },
      { p: 2, c: 1, s: 200, e: 300, w: "bell\u0007" },
    ];
    assert.deepEqual(buildCues(words)[0]?.lines, ["two lines bell"]);
  });

  test("gives no cue for an empty transcript or one with only turns", () => {
    assert.deepEqual(buildCues([]), []);
    assert.deepEqual(buildCues([{ p: 0, c: 1, s: 0, e: 0, w: "Agent", m: "turn" }]), []);
  });
});

describe("clockTime", () => {
  test("writes hours, minutes, seconds and three-digit milliseconds", () => {
    assert.equal(clockTime(0, ","), "00:00:00,000");
    assert.equal(clockTime(3_723_004, "."), "01:02:03.004");
    assert.equal(clockTime(100 * 3_600_000, "."), "100:00:00.000");
    assert.equal(clockTime(1234.6, ","), "00:00:01,235");
    assert.equal(clockTime(-5, ","), "00:00:00,000");
  });
});

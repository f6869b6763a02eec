import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type RecognizedWord, VOICE_ACTIVITY_GAP_MS, voiceOccurrences } from "../../src/domain/transcript.ts";

const w = (word: string, start: number, end: number): RecognizedWord => ({
  word,
  start,
  end,
  confidence: 0.9,
});

describe("voiceOccurrences", () => {
  it(`joins words less than ${VOICE_ACTIVITY_GAP_MS} ms apart and splits at that gap`, () => {
    const words = [
      w("a", 0, 100),
      w("b", 100 + VOICE_ACTIVITY_GAP_MS - 1, 1200),
      w("c", 1200 + VOICE_ACTIVITY_GAP_MS, 2300),
    ];
    assert.deepEqual(voiceOccurrences(words), [
      { s: 0, e: 1200 },
      { s: 2200, e: 2300 },
    ]);
  });

  it("accepts words out of order and words inside a longer one", () => {
    assert.deepEqual(voiceOccurrences([w("b", 500, 600), w("a", 0, 2000)]), [{ s: 0, e: 2000 }]);
  });

  it("is empty without words", () => {
    assert.deepEqual(voiceOccurrences([]), []);
  });
});

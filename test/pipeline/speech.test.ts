import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { normalizeWords, wordEditDistance, wordErrorRate } from "./speech.ts";

describe("word error rate helpers", () => {
  it("normalises case and punctuation but keeps apostrophes", () => {
    assert.deepEqual(normalizeWords("Hello, World! I don't know."), ["hello", "world", "i", "don't", "know"]);
    assert.deepEqual(normalizeWords(["Two", "words"]), ["two", "words"]);
  });

  it("counts substitutions, insertions and deletions", () => {
    assert.equal(wordEditDistance(["a", "b", "c"], ["a", "b", "c"]), 0);
    assert.equal(wordEditDistance(["a", "b", "c"], ["a", "x", "c"]), 1);
    assert.equal(wordEditDistance(["a", "b", "c"], ["a", "c"]), 1);
    assert.equal(wordEditDistance(["a", "b"], ["a", "b", "c", "d"]), 2);
    assert.equal(wordEditDistance([], ["a"]), 1);
  });

  it("divides by the length of the reference", () => {
    assert.equal(wordErrorRate("the service is too slow", "the services to slow"), 0.6);
    assert.equal(wordErrorRate("", ""), 0);
    assert.equal(wordErrorRate("", "noise"), 1);
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  keywordSearch,
  mergeKeywordHits,
  parseKeywordHits,
  thresholdExponent,
} from "../../src/pipeline/keyword-spotting.ts";

const ZORBATRIX = {
  term: "Zorbatrix",
  weight: 0,
  pronunciations: [["Z", "AO", "R", "B", "AA", "T", "R", "IH", "K", "S"]],
};
const VELMORA_PRO = {
  term: "Velmora Pro",
  weight: 2,
  pronunciations: [
    ["V", "EH", "L", "M", "AO", "R", "AH", "P", "R", "OW"],
    ["V", "EH", "L", "M", "AO", "R", "AH", "P", "R", "AA"],
  ],
};

// What `pocketsphinx_continuous -kws terms.kws -time yes` printed (Debian 12) for two hits, with the
// phrase's text line before each timed line.
const OUTPUT = `hark_term_0_0
hark_term_0_0  1.630 2.280 0.886465
hark_term_1_1
hark_term_1_1  2.420 3.260 0.957236
`;

describe("thresholdExponent", () => {
  it("rises with the term's weight: a heavier term is heard more readily", () => {
    const exponents = [0, 1, 2, 3, 4, 5].map((weight) => thresholdExponent(8, weight));
    for (let i = 1; i < exponents.length; i++)
      assert.ok(exponents[i]! > exponents[i - 1]!, String(exponents));
  });

  it("rises with the phones, since a longer phrase scores lower, and never falls below 1", () => {
    assert.ok(thresholdExponent(12, 0) > thresholdExponent(4, 0));
    assert.equal(thresholdExponent(0, 0, { baseExponent: -5, perPhone: 0, perWeight: 0 }), 1);
  });
});

describe("keywordSearch", () => {
  it("gives each pronunciation a made-up entry name, its phones and a threshold line", () => {
    const search = keywordSearch([ZORBATRIX, VELMORA_PRO], { baseExponent: 2, perPhone: 1, perWeight: 2 });
    assert.equal(
      search.dictionary,
      "hark_term_0_0 Z AO R B AA T R IH K S\nhark_term_1_0 V EH L M AO R AH P R OW\nhark_term_1_1 V EH L M AO R AH P R AA\n",
    );
    assert.equal(search.keywords, "hark_term_0_0 /1e-12/\nhark_term_1_0 /1e-16/\nhark_term_1_1 /1e-16/\n");
    assert.equal(search.terms.get("hark_term_1_1"), "Velmora Pro");
  });
});

describe("parseKeywordHits", () => {
  it("reads the timed lines as the terms' texts, times in ms after the piece's offset", () => {
    const search = keywordSearch([ZORBATRIX, VELMORA_PRO]);
    assert.deepEqual(parseKeywordHits(OUTPUT, search, 10_000), [
      { term: "Zorbatrix", start: 11_630, end: 12_280, confidence: 0.886465 },
      { term: "Velmora Pro", start: 12_420, end: 13_260, confidence: 0.957236 },
    ]);
  });

  it("ignores entries it did not make", () => {
    assert.deepEqual(parseKeywordHits("hark_term_7_0  1.0 2.0 0.9\n", keywordSearch([ZORBATRIX])), []);
  });
});

const word = (text: string, start: number, end: number, confidence = 0.5) => ({
  word: text,
  start,
  end,
  confidence,
});

describe("mergeKeywordHits", () => {
  // "I would like to order the new Zorbatrix router", as the n-gram search heard it.
  const heard = [
    word("order", 1000, 1300),
    word("the", 1330, 1410),
    word("news", 1420, 1720),
    word("or", 1730, 1810),
    word("bad", 1820, 1990),
    word("tricks", 2000, 2350),
    word("router", 2360, 2700),
  ];

  it("replaces the words whose middle the hit covers, keeping the hit's time and confidence", () => {
    const merged = mergeKeywordHits(heard, [{ term: "Zorbatrix", start: 1630, end: 2280, confidence: 0.88 }]);
    assert.deepEqual(
      merged.map((w) => w.word),
      ["order", "the", "news", "Zorbatrix", "router"],
    );
    assert.deepEqual(merged[3], { word: "Zorbatrix", start: 1630, end: 2280, confidence: 0.88 });
  });

  it("clips the words on either side that the hit partly covers, so that no two words overlap", () => {
    const merged = mergeKeywordHits(heard, [{ term: "Zorbatrix", start: 1630, end: 2280, confidence: 0.88 }]);
    assert.deepEqual(merged[2], word("news", 1420, 1630));
    const partly = mergeKeywordHits(heard, [{ term: "Zorbatrix", start: 1780, end: 2420, confidence: 0.88 }]);
    assert.deepEqual(
      partly.map((w) => [w.word, w.start, w.end]),
      [
        ["order", 1000, 1300],
        ["the", 1330, 1410],
        ["news", 1420, 1720],
        ["or", 1730, 1780],
        ["Zorbatrix", 1780, 2420],
        ["router", 2420, 2700],
      ],
    );
  });

  it("shares a phrase's time among its words by their length", () => {
    const merged = mergeKeywordHits([], [{ term: "Velmora Pro", start: 1000, end: 2000, confidence: 0.9 }]);
    assert.deepEqual(merged, [word("Velmora", 1000, 1700, 0.9), word("Pro", 1700, 2000, 0.9)]);
  });

  it("keeps the more confident of two hits that overlap", () => {
    const merged = mergeKeywordHits(heard, [
      { term: "Quenlo", start: 1600, end: 2200, confidence: 0.4 },
      { term: "Zorbatrix", start: 1630, end: 2280, confidence: 0.88 },
    ]);
    assert.deepEqual(
      merged.map((w) => w.word),
      ["order", "the", "news", "Zorbatrix", "router"],
    );
  });

  it("leaves the words as they were without hits", () => {
    assert.deepEqual(mergeKeywordHits(heard, []), heard);
  });
});

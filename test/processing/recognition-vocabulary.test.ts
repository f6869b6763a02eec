import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { adHocTerms, recognitionTerms } from "../../src/processing/recognition-vocabulary.ts";

describe("adHocTerms", () => {
  it("reads every ad hoc term of the configuration with its soundsLike and weight", () => {
    const raw = {
      vocabularies: [
        { vocabularyName: "saved" },
        { terms: [{ term: "  AFFO ", soundsLike: ["A. F. F. O."], weight: 3 }, { term: "Zorbatrix" }] },
      ],
    };
    assert.deepEqual(adHocTerms(raw), [
      { term: "AFFO", soundsLike: ["A. F. F. O."], weight: 3 },
      { term: "Zorbatrix" },
    ]);
    assert.deepEqual(adHocTerms({}), []);
  });
});

describe("recognitionTerms", () => {
  it("joins ad hoc and saved terms, script words and spotting keywords, each once", () => {
    const terms = recognitionTerms(
      [{ term: "Zorbatrix", weight: 1 }],
      [
        {
          vocabularyName: "products",
          vocabularyType: "terms",
          terms: [{ term: "zorbatrix", soundsLike: ["zorba tricks"], weight: 4 }],
        },
        {
          vocabularyName: "greeting",
          vocabularyType: "scripts",
          scripts: ["Welcome to Quenlo, how can I help?"],
        },
      ],
      [{ groupName: "churn", keywords: ["cancel", "Quenlo", "ZORBATRIX"] }],
    );
    assert.deepEqual(terms.slice(0, 2), [
      // The first spelling, every soundsLike, the highest weight.
      { term: "Zorbatrix", soundsLike: ["zorba tricks"], weight: 4 },
      { term: "Welcome", unknownOnly: true },
    ]);
    assert.deepEqual(
      terms.map((term) => term.term),
      ["Zorbatrix", "Welcome", "to", "Quenlo", "how", "can", "I", "help", "cancel"],
    );
    // Spotting keywords, like script words, only where the dictionary lacks a word of theirs ...
    assert.deepEqual(terms[3], { term: "Quenlo", unknownOnly: true });
    assert.deepEqual(terms.at(-1), { term: "cancel", unknownOnly: true });
    // ... but a term a vocabulary names is listened for whatever the dictionary has.
    assert.equal(terms[0]?.unknownOnly, undefined);
  });

  it("keeps at most VoiceBase's 1000 terms per item", () => {
    const many = Array.from({ length: 1200 }, (_, index) => ({ term: `term${index}` }));
    assert.equal(recognitionTerms(many, [], []).length, 1000);
  });
});

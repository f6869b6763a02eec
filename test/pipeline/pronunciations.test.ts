import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  dictionaryLookup,
  flitePhones,
  MAX_PRONUNCIATIONS,
  parseDictionary,
  pronounce,
  spokenWordsOf,
  termsToListenFor,
  wordsMissingFrom,
} from "../../src/pipeline/pronunciations.ts";

// Lines as pocketsphinx's cmudict-en-us.dict has them.
const DICTIONARY = parseDictionary(`a AH
a(2) EY
a. EY
f EH F
f. EH F
o OW
pro P R OW
velvet V EH L V AH T
zylo Z AY L OW
`);
const fromDictionary = dictionaryLookup(DICTIONARY);
const GUESSES: Record<string, string[]> = {
  zorbatrix: ["Z", "AO", "R", "B", "AA", "T", "R", "IH", "K", "S"],
  velmora: ["V", "EH", "L", "M", "AO", "R", "AH"],
  affo: ["AE", "F", "OW"],
  quent: ["K", "W", "EH", "N", "T"],
};
const guessed = (word: string) => GUESSES[word];
const none = () => undefined;

describe("parseDictionary", () => {
  it("keeps each word's first pronunciation and skips alternates", () => {
    assert.deepEqual(fromDictionary("a"), ["AH"]);
    assert.deepEqual(fromDictionary("velvet"), ["V", "EH", "L", "V", "AH", "T"]);
    assert.equal(DICTIONARY.has("a(2)"), false);
  });
});

describe("spokenWordsOf", () => {
  it("splits at dots, hyphens and spaces, keeps inner apostrophes, lower-cases", () => {
    assert.deepEqual(spokenWordsOf("A F-F, O"), ["a", "f", "f", "o"]);
    assert.deepEqual(spokenWordsOf("O'Brien X-Ray"), ["o'brien", "x", "ray"]);
    assert.deepEqual(spokenWordsOf("'quoted'"), ["quoted"]);
  });

  it('keeps the dot of a lone letter: CMUdict spells a letter\'s name so ("a." is EY, "a" is AH)', () => {
    assert.deepEqual(spokenWordsOf("A. F. F. O."), ["a.", "f.", "f.", "o."]);
    assert.deepEqual(spokenWordsOf("Dr. J.R. Smith."), ["dr", "j.", "r.", "smith"]);
  });
});

describe("pronounce", () => {
  it("takes a term's words from the dictionary when it has them all", () => {
    const term = pronounce({ term: "Velvet Pro" }, fromDictionary, guessed);
    assert.deepEqual(term.pronunciations, [["V", "EH", "L", "V", "AH", "T", "P", "R", "OW"]]);
    assert.equal(term.weight, 0);
  });

  it("uses soundsLike spellings, from the dictionary, before guessing from letters", () => {
    const term = pronounce({ term: "AFFO", soundsLike: ["A. F. F. O."], weight: 3 }, fromDictionary, guessed);
    // Letters named, as the dots say; "o." is not in this dictionary, so "o" stands in.
    assert.deepEqual(term.pronunciations, [["EY", "EH", "F", "EH", "F", "OW"]]);
    assert.equal(term.weight, 3);
  });

  it("guesses a soundsLike word the dictionary lacks, with the known words from the dictionary", () => {
    const term = pronounce({ term: "Xyloquent", soundsLike: ["zylo quent"] }, fromDictionary, guessed);
    assert.deepEqual(term.pronunciations, [["Z", "AY", "L", "OW", "K", "W", "EH", "N", "T"]]);
  });

  it("guesses only the words the dictionary lacks when nothing else gives a pronunciation", () => {
    const term = pronounce({ term: "Velmora Pro" }, fromDictionary, guessed);
    assert.deepEqual(term.pronunciations, [["V", "EH", "L", "M", "AO", "R", "AH", "P", "R", "OW"]]);
  });

  it("gives the dictionary's and each soundsLike's pronunciation once each, at most a few", () => {
    const soundsLike = ["pro", "pro", "a pro", "f pro", "o pro", "a f pro"];
    const term = pronounce({ term: "Pro", soundsLike }, fromDictionary, guessed);
    assert.equal(term.pronunciations.length, MAX_PRONUNCIATIONS);
    assert.deepEqual(term.pronunciations[0], ["P", "R", "OW"]);
    assert.equal(new Set(term.pronunciations.map((p) => p.join(" "))).size, MAX_PRONUNCIATIONS);
  });

  it("has none for a term of symbols, or when letter to sound is missing", () => {
    assert.deepEqual(pronounce({ term: "#&!" }, fromDictionary, guessed).pronunciations, []);
    assert.deepEqual(pronounce({ term: "Zorbatrix" }, fromDictionary, none).pronunciations, []);
  });
});

describe("wordsMissingFrom", () => {
  it("lists each word of terms and spellings the dictionary lacks, once", () => {
    const terms = [{ term: "Zorbatrix Pro" }, { term: "zorbatrix", soundsLike: ["zylo quent"] }];
    assert.deepEqual(wordsMissingFrom(terms, fromDictionary), ["zorbatrix", "quent"]);
  });
});

describe("flitePhones", () => {
  it("turns t2p's output into CMU phones: no stress, no pauses, ax as AH", () => {
    assert.deepEqual(flitePhones("pau hh ax l ow1 pau \n"), ["HH", "AH", "L", "OW"]);
    assert.deepEqual(flitePhones("pau b ah1 dx el pau"), ["B", "AH", "D", "AH", "L"]);
  });

  it("gives nothing for output without phones or with a phone CMU's set lacks", () => {
    assert.equal(flitePhones("pau pau"), undefined);
    assert.equal(flitePhones("pau q ah pau"), undefined);
  });
});

describe("termsToListenFor", () => {
  it("drops a script's word the dictionary knows, keeps one it lacks and every named term", () => {
    const terms = [
      { term: "pro", unknownOnly: true },
      { term: "zorbatrix", unknownOnly: true },
      { term: "velvet" },
    ];
    assert.deepEqual(
      termsToListenFor(terms, fromDictionary).map((t) => t.term),
      ["zorbatrix", "velvet"],
    );
  });
});

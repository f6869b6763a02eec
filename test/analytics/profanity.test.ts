import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { filterProfanity, isProfane, PROFANITY_MASK } from "../../src/analytics/profanity.ts";
import { alternateFormats } from "../../src/formats/index.ts";
import { formatTexts } from "./prediction-transcript.ts";
import { conversation } from "./transcript.ts";

describe("isProfane", () => {
  test("swear words of the list, in any letter case and with punctuation around them", () => {
    for (const word of ["fuck", "Fuck", "FUCK", "shit!", "“bastard,”", "(bullshit)", "asshole?"]) {
      assert.equal(isProfane(word), true, word);
    }
  });

  test("common inflections: plurals, possessives, verb forms, agent nouns", () => {
    for (const word of ["fucks", "fucked", "fucking", "fuckin", "fucker", "fuckers", "shits", "shitty"]) {
      assert.equal(isProfane(word), true, word);
    }
    for (const word of ["bastards", "bastard's", "bastard’s", "bitches", "bitchy", "assholes", "sluts"]) {
      assert.equal(isProfane(word), true, word);
    }
    assert.equal(isProfane("bad-ass"), true, "a hyphenated word with a swear word for a part");
  });

  test("no Scunthorpe: a word that merely contains or ends like a swear word is left alone", () => {
    for (const word of ["class", "assess", "Scunthorpe", "passion", "cocktail", "cockpit", "shell"]) {
      assert.equal(isProfane(word), false, word);
    }
    for (const word of ["analysis", "therapist", "Dickinson", "Hancock", "Sussex", "assorted", "cumin"]) {
      assert.equal(isProfane(word), false, word);
    }
    for (const word of ["butter", "scatter", "spicy", "titter", "tit-for-tat", "same-sex"]) {
      assert.equal(isProfane(word), false, word);
    }
  });

  test("list entries that are ordinary words in a call are kept", () => {
    for (const word of ["domination", "snowballing", "escort", "hardcore", "snatch", "sucks"]) {
      assert.equal(isProfane(word), false, word);
    }
  });

  test("nothing but letters is no word", () => {
    for (const word of ["", "...", "-", "'s", "42"])
      assert.equal(isProfane(word), false, JSON.stringify(word));
  });
});

describe("filterProfanity", () => {
  const call = conversation([
    ["Agent", "thank you for calling."],
    ["Caller", "this is bullshit you bastards charged me twice."],
  ]);
  const transcript = { ...call, alternateFormats: alternateFormats(call.words) };

  test('swear words read "..." as the guide says, in the words and in every rendering', () => {
    const filtered = filterProfanity(transcript);
    const spoken = filtered.words.filter((word) => word.m === undefined).map((word) => word.w);
    assert.deepEqual(
      spoken.filter((word) => word === PROFANITY_MASK),
      ["...", "..."],
    );
    assert.ok(!spoken.some((word) => /bullshit|bastard/i.test(word)), spoken.join(" "));
    const texts = formatTexts(filtered);
    assert.deepEqual(Object.keys(texts).sort(), ["dfxp", "srt", "text", "webvtt"]);
    for (const [format, text] of Object.entries(texts)) {
      assert.doesNotMatch(text, /bullshit|bastard/i, format);
      assert.match(text, /is \.\.\. you \.\.\.(\s|<br\/>)+charged/i, format);
    }
    // The unfiltered renderings had them: a transcript that never held them would pass the above.
    assert.match(formatTexts(transcript).text, /bullshit you bastards/i);
  });

  test("every entry keeps its position, times, confidence and kind; other words are untouched", () => {
    const filtered = filterProfanity(transcript);
    assert.equal(filtered.words.length, transcript.words.length);
    filtered.words.forEach((word, index) => {
      const before = transcript.words[index];
      assert.deepEqual({ ...word, w: "" }, { ...before, w: "" });
      if (word.w !== PROFANITY_MASK) assert.equal(word.w, before?.w);
    });
    assert.deepEqual(filtered.voiceActivity, transcript.voiceActivity);
    assert.equal(filtered.confidence, transcript.confidence);
  });

  test("speaker turns are never masked, even a speaker named like a swear word", () => {
    const named = conversation([["Bastard", "hello there."]]);
    const filtered = filterProfanity({ ...named, alternateFormats: alternateFormats(named.words) });
    assert.ok(filtered.words.some((word) => word.m === "turn" && word.w === "Bastard"));
  });

  test("a clean transcript comes back as it was", () => {
    const clean = conversation([["Caller", "I would like to assess my class schedule in Scunthorpe."]]);
    assert.equal(filterProfanity(clean), clean);
  });
});

/**
 * The swear word filter (`transcript.contentFiltering.enableProfanityFiltering`): each spoken word on the
 * list is replaced by "...", as VoiceBase's swear word guide says its filter "redacts words on the
 * disallowed list with '...'". Pure.
 *
 * The list is leo-profanity's English dictionary (Shutterstock's list, 253 entries), matched against whole
 * words only: a transcript's words are already cut at their edges, so "class", "assess" and "Scunthorpe"
 * can never match the way a substring filter would. The list holds base forms, so common inflections
 * ("fucks", "fucker", "pissed", "shitting", "bastard's") are matched by taking a suffix off.
 */
import leoProfanity from "leo-profanity";
import type { Transcript, Word } from "../domain/transcript.ts";
import { alternateFormats } from "../formats/index.ts";

/** What a masked word reads, in the words and in every rendering. */
export const PROFANITY_MASK = "...";

/**
 * Entries of the list that are ordinary words in the calls Hark transcribes ("market domination",
 * "costs are snowballing", a senator's name), left unmasked. Found by running the filter over every word
 * the recogniser's dictionary holds and reading what it flagged.
 */
const NOT_SWEARING = new Set([
  "domination",
  "escort",
  "fingering",
  "hardcore",
  "santorum",
  "skeet",
  "snatch",
  "snowballing",
  "suck",
  "sucks",
]);

/**
 * Words that look like an inflected entry ("butter" is not "butt" + "er") or hold one ("tit-for-tat") but
 * are ordinary words, found the same way.
 */
const ORDINARY_WORDS = new Set([
  "butter",
  "butters",
  "clites",
  "cocker",
  "cooner",
  "coones",
  "cumin",
  "cummings",
  "dicker",
  "dickers",
  "dickes",
  "same-sex",
  "scates",
  "scatter",
  "spiced",
  "spicer",
  "spices",
  "spicing",
  "spicy",
  "tit-for-tat",
  "titter",
]);

/** Suffixes of plurals, possessives, verb forms and agent nouns; longest first. */
const SUFFIXES = ["'s", "ers", "ing", "in'", "es", "ed", "er", "in", "s", "y"];

let swearWords: ReadonlySet<string> | undefined;

function list(): ReadonlySet<string> {
  swearWords ??= new Set(leoProfanity.getDictionary("en").filter((word) => !NOT_SWEARING.has(word)));
  return swearWords;
}

/**
 * Whether one transcript word is a swear word: letter case and the punctuation around it do not matter; a
 * hyphenated word is one when a part of it is ("bad-ass"), unless the whole is an ordinary word.
 */
export function isProfane(word: string): boolean {
  const bare = word
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .replace(/^[^a-z]+|[^a-z']+$/g, "");
  if (bare === "" || ORDINARY_WORDS.has(bare)) return false;
  if (listed(bare)) return true;
  const parts = bare.split("-");
  return parts.length > 1 && parts.some((part) => part !== "" && listed(part));
}

function listed(word: string): boolean {
  const swear = list();
  if (swear.has(word)) return true;
  if (ORDINARY_WORDS.has(word)) return false;
  return stems(word).some((stem) => swear.has(stem));
}

/** The base forms a word may be inflected from: "shitting" → "shitt", "shit"; stems of 3 letters at least. */
function stems(word: string): string[] {
  const found: string[] = [];
  for (const suffix of SUFFIXES) {
    if (!word.endsWith(suffix) || word.length - suffix.length < 3) continue;
    const stem = word.slice(0, -suffix.length);
    found.push(stem);
    // A doubled final consonant ("shitty", "pissed" keeps its own) is undone for the base form.
    if (/([b-df-hj-np-tv-z])\1$/.test(stem)) found.push(stem.slice(0, -1));
  }
  return found;
}

/**
 * The transcript with every swear word's `w` replaced by "...", and `alternateFormats` rendered again from
 * the masked words so that no rendering keeps what the words lost. Each word keeps its entry, `p`, times
 * and confidence; punctuation and speaker turns are never masked.
 */
export function filterProfanity(transcript: Transcript): Transcript {
  if (!transcript.words.some(masked)) return transcript;
  const words = transcript.words.map((word): Word => (masked(word) ? { ...word, w: PROFANITY_MASK } : word));
  return { ...transcript, words, alternateFormats: alternateFormats(words) };
}

function masked(word: Word): boolean {
  return word.m === undefined && isProfane(word.w);
}

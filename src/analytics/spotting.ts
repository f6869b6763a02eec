/**
 * Keyword spotting: the VoiceBase `spotting` section, which says for each keyword group whether any of its
 * keywords (or key phrases) was said, by whom and when. Also the phrase matching that categories share,
 * so that a phrase matches the same way in a spotting group and in a category query. Pure.
 *
 * How a phrase matches:
 * - Words are compared by lemma, so "cancel" matches "cancelled", "cancelling" and "cancels", and "do
 *   not" matches "don't". Each word is lemmatised on its own, lower-cased: a keyword has no sentence
 *   around it, and lemmatising transcript words in context could give the same word two lemmas, so that
 *   a keyword would miss the very word it spells.
 * - The phrase's words must be said in order by one speaker. That speaker's own words are what count: the
 *   other party's "uh-huh" in the middle does not break a phrase.
 * - Between two words of the phrase the speaker may say `PHRASE_GAP_WORDS` other word, so "cancel account"
 *   matches "cancelled my account"; but never a negation, so "want to cancel" does not match "want to
 *   not cancel", and no pause of more than `PHRASE_PAUSE_MS`.
 */
import type { ItsFunction } from "wink-nlp";
import type { SpottingGroup } from "../domain/definitions.ts";
import type { Transcript } from "../domain/transcript.ts";
import { its, nlp } from "./language.ts";
import { spokenWords, type SpokenWord } from "./turns.ts";

/**
 * How many other words may come between two words of a phrase: room for "my", "the", "a" and the like.
 * Words as the tokenizer counts them: "customer's" is two, "customer" and "'s".
 */
export const PHRASE_GAP_WORDS = 1;

/** A longer pause between two words of a phrase separates them: they belong to different thoughts. */
export const PHRASE_PAUSE_MS = 2000;

/**
 * Limits on a keyword group definition, generous for real use, small enough to keep spotting quick. The
 * name's is every definition name's (README, Definitions).
 */
export const MAX_GROUP_NAME_LENGTH = 100;
export const MAX_KEYWORDS = 1000;
export const MAX_KEYWORD_LENGTH = 200;

/** wink-nlp's typings give `its.lemma` a signature `out()` rejects; at run time it is a token function. */
const lemmaOfToken = its.lemma as unknown as ItsFunction<string>;

/** Lemmas a phrase gap may not skip: skipping them would turn a phrase into its opposite. */
const NEGATIONS = new Set(["not", "no", "never"]);

/** Group names go into URL paths (`/v3/definition/spotting/groups/{groupName}`), so no spaces or slashes. */
const GROUP_NAME = /^[A-Za-z0-9._-]+$/;

/** One place where a phrase was said. */
export interface PhraseOccurrence {
  s: number;
  e: number;
  /** The words as the transcript has them, from the first to the last word of the phrase. */
  exact: string;
}

/** The occurrences of one speaker, as VoiceBase's `mentions[]` and `categoryMatches[]` elements. */
export interface Mention {
  speakerName: string;
  occurrences: PhraseOccurrence[];
}

/** A phrase found in a transcript. */
export interface PhraseMatch extends PhraseOccurrence {
  speakerName: string;
}

export interface SpottedKeyword {
  /** The keyword as the group defines it. */
  keyword: string;
  mentions: Mention[];
}

/** One element of `spotting.groups[]`. */
export interface SpottedGroup {
  groupName: string;
  spotted: boolean;
  /**
   * The share of the group's keywords that were spotted, 0..1, as a decimal string: VoiceBase's media
   * and callback examples show `"score": "0.4439"`.
   */
  score: string;
  /** Only the keywords that were spotted. */
  spottedKeywords: SpottedKeyword[];
}

/** The `spotting` section of a media result. */
export interface SpottingResult {
  groups: SpottedGroup[];
}

export type SpottingGroupValidation = { ok: true; group: SpottingGroup } | { ok: false; error: string };

/** A transcript prepared for phrase search; make it once, search it for many phrases. */
export interface PhraseIndex {
  speakers: SpeakerLemmas[];
  /** Lemmas by lower-cased word, shared by the transcript and the phrases searched in it. */
  lemmas: Map<string, string[]>;
}

interface SpeakerLemmas {
  speakerName: string;
  words: SpokenWord[];
  /** The speaker's words as lemmas, in order; a word such as "don't" gives more than one. */
  lemmas: { lemma: string; word: number }[];
}

/** Finds every keyword of every group in the transcript. */
export function spot(
  transcript: Pick<Transcript, "words">,
  groups: readonly SpottingGroup[],
): SpottingResult {
  const index = indexPhrases(transcript);
  return { groups: groups.map((group) => spotGroup(index, group)) };
}

function spotGroup(index: PhraseIndex, group: SpottingGroup): SpottedGroup {
  const spottedKeywords: SpottedKeyword[] = [];
  for (const keyword of group.keywords) {
    const matches = findPhrase(index, keyword);
    if (matches.length > 0) spottedKeywords.push({ keyword, mentions: mentionsOf(matches) });
  }
  const share = group.keywords.length === 0 ? 0 : spottedKeywords.length / group.keywords.length;
  return {
    groupName: group.groupName,
    spotted: spottedKeywords.length > 0,
    score: String(Math.round(share * 10000) / 10000),
    spottedKeywords,
  };
}

/**
 * Checks the body of `PUT /v3/definition/spotting/groups/{groupName}` and returns the group with its
 * keywords trimmed, inner spaces collapsed and repeats (ignoring case) dropped. Other fields of the body
 * are ignored. Whether `groupName` agrees with the path is the route's business.
 */
export function validateSpottingGroup(body: unknown): SpottingGroupValidation {
  if (typeof body !== "object" || body === null || Array.isArray(body))
    return fail('the body must be a JSON object with "groupName" and "keywords"');
  const { groupName, keywords } = body as Record<string, unknown>;
  if (typeof groupName !== "string" || groupName === "")
    return fail('"groupName" must be a non-empty string');
  if (groupName.length > MAX_GROUP_NAME_LENGTH)
    return fail(`"groupName" must be at most ${MAX_GROUP_NAME_LENGTH} characters`);
  if (!GROUP_NAME.test(groupName))
    return fail('"groupName" may contain only letters, digits, ".", "_" and "-"');
  if (!Array.isArray(keywords) || keywords.length === 0)
    return fail('"keywords" must be a non-empty array of strings');
  if (keywords.length > MAX_KEYWORDS) return fail(`"keywords" may hold at most ${MAX_KEYWORDS} keywords`);

  const lemmas = new Map<string, string[]>();
  const seen = new Set<string>();
  const cleaned: string[] = [];
  for (const [position, keyword] of keywords.entries()) {
    if (typeof keyword !== "string") return fail(`"keywords[${position}]" must be a string`);
    const text = keyword.trim().replace(/\s+/g, " ");
    if (text === "") return fail(`"keywords[${position}]" is empty`);
    if (text.length > MAX_KEYWORD_LENGTH)
      return fail(`"keywords[${position}]" must be at most ${MAX_KEYWORD_LENGTH} characters`);
    if (phraseLemmas(text, lemmas).length === 0)
      return fail(`"keywords[${position}]" ("${text}") has no words to spot`);
    const key = text.toLowerCase();
    if (!seen.has(key)) cleaned.push(text);
    seen.add(key);
  }
  return { ok: true, group: { groupName, keywords: cleaned } };
}

function fail(error: string): SpottingGroupValidation {
  return { ok: false, error };
}

/** Lemmatises each speaker's words, once per distinct word. */
export function indexPhrases(transcript: Pick<Transcript, "words">): PhraseIndex {
  const lemmas = new Map<string, string[]>();
  const bySpeaker = new Map<string, SpeakerLemmas>();
  for (const word of spokenWords(transcript)) {
    let speaker = bySpeaker.get(word.speakerName);
    if (speaker === undefined) {
      speaker = { speakerName: word.speakerName, words: [], lemmas: [] };
      bySpeaker.set(word.speakerName, speaker);
    }
    const position = speaker.words.push(word) - 1;
    for (const lemma of wordLemmas(word.w, lemmas)) speaker.lemmas.push({ lemma, word: position });
  }
  return { speakers: [...bySpeaker.values()], lemmas };
}

/** Every place the phrase was said, in time order; none for a phrase without words. */
export function findPhrase(index: PhraseIndex, phrase: string): PhraseMatch[] {
  const wanted = phraseLemmas(phrase, index.lemmas);
  if (wanted.length === 0) return [];
  const matches = index.speakers.flatMap((speaker) => findInSpeaker(speaker, wanted));
  return matches.sort((a, b) => a.s - b.s || a.e - b.e);
}

function findInSpeaker(speaker: SpeakerLemmas, wanted: readonly string[]): PhraseMatch[] {
  const matches: PhraseMatch[] = [];
  let start = 0;
  while (start < speaker.lemmas.length) {
    const end = matchAt(speaker, wanted, start);
    if (end === undefined) {
      start += 1;
      continue;
    }
    const first = speaker.lemmas[start]?.word ?? 0;
    const last = speaker.lemmas[end]?.word ?? first;
    const words = speaker.words.slice(first, last + 1);
    matches.push({
      speakerName: speaker.speakerName,
      s: words[0]?.s ?? 0,
      e: words.at(-1)?.e ?? 0,
      exact: words.map((word) => word.w).join(" "),
    });
    // Matches do not overlap: "no no no" holds one "no no", not two.
    start = end + 1;
  }
  return matches;
}

/** The index of the lemma that completes the phrase begun at `start`, if it is completed. */
function matchAt(speaker: SpeakerLemmas, wanted: readonly string[], start: number): number | undefined {
  const { lemmas, words } = speaker;
  if (lemmas[start]?.lemma !== wanted[0]) return undefined;
  let at = start;
  for (const lemma of wanted.slice(1)) {
    let next: number | undefined;
    for (let candidate = at + 1; candidate <= at + 1 + PHRASE_GAP_WORDS; candidate++) {
      const entry = lemmas[candidate];
      if (entry === undefined) break;
      const pause = (words[entry.word]?.s ?? 0) - (words[lemmas[at]?.word ?? 0]?.e ?? 0);
      if (pause > PHRASE_PAUSE_MS) break;
      if (entry.lemma === lemma) {
        next = candidate;
        break;
      }
      if (NEGATIONS.has(entry.lemma)) break;
    }
    if (next === undefined) return undefined;
    at = next;
  }
  return at;
}

/** The lemmas of a phrase, word by word as transcript words are, so that both sides agree. */
export function phraseLemmas(phrase: string, lemmas: Map<string, string[]> = new Map()): string[] {
  return phrase
    .split(/\s+/)
    .filter((word) => word !== "")
    .flatMap((word) => wordLemmas(word, lemmas));
}

function wordLemmas(word: string, lemmas: Map<string, string[]>): string[] {
  // Lower case first: the tagger takes a capitalised word for a name and leaves it unlemmatised.
  const key = word.toLowerCase();
  let known = lemmas.get(key);
  if (known === undefined) {
    const tokens = nlp.readDoc(key).tokens();
    const types = tokens.out(its.type);
    known = tokens
      .out(lemmaOfToken)
      .filter((_, position) => types[position] !== "punctuation")
      .map((lemma) => lemma.toLowerCase());
    lemmas.set(key, known);
  }
  return known;
}

/** Groups matches by speaker, speakers in the order they first matched, occurrences in time order. */
export function mentionsOf(matches: readonly PhraseMatch[]): Mention[] {
  const bySpeaker = new Map<string, Mention>();
  for (const match of [...matches].sort((a, b) => a.s - b.s || a.e - b.e)) {
    let mention = bySpeaker.get(match.speakerName);
    if (mention === undefined) {
      mention = { speakerName: match.speakerName, occurrences: [] };
      bySpeaker.set(match.speakerName, mention);
    }
    const last = mention.occurrences.at(-1);
    if (last?.s === match.s && last.e === match.e) continue;
    mention.occurrences.push({ s: match.s, e: match.e, exact: match.exact });
  }
  return [...bySpeaker.values()];
}

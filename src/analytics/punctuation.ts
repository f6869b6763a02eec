/**
 * VoiceBase's advanced punctuation (`speechModel.features: ["advancedPunctuation"]`): full stops, commas
 * and question marks placed from what the recogniser gives (word times, so pauses) and an English language
 * model that runs here (wink-nlp's part-of-speech tags, and the words that open questions). Pure.
 *
 * The recogniser's words carry no prosody beyond their times, so the marks come from:
 * - sentence ends: a long pause; a shorter pause where the next word opens a sentence and the word before
 *   can end one; a question opener in the middle of a run ("... today how can I help you") where the word
 *   before cannot lead into it (a verb, preposition or conjunction would: "I wonder what happened");
 * - questions: a sentence whose first words (after "okay", "so", "and"...) are a wh-word followed by an
 *   auxiliary or verb ("how long will", "who called", "what time does"), or an auxiliary followed by its
 *   subject ("do you", "can I", "is there", "would the");
 * - commas: a medium pause inside a sentence, except after a word that needs the next (a determiner,
 *   preposition, auxiliary, conjunction), and after an opening interjection ("hi", "yes", "okay").
 */
import type { ItemToken } from "wink-nlp";
import type { Word } from "../domain/transcript.ts";
import { its, nlp } from "./language.ts";

// The pauses were tuned with `npm run bench:punctuation`: pocketsphinx leaves 10 ms between words run
// together, and flite's voices pause about 40-250 ms at a comma or full stop inside a turn, so a short
// pause is already a cue; the words decide which mark it is. Real speech pauses longer and less evenly.

/** A pause this long ends a sentence whatever the words (the pause-only rule of the plain transcript). */
const STOP_PAUSE_MS = 600;
/** A pause this long ends a sentence where the next word opens one and the previous can end one. */
const CUE_STOP_PAUSE_MS = 250;
/** A pause this long inside a sentence is a comma, unless the previous word needs the next. */
const COMMA_PAUSE_MS = 100;

const WH = new Set(["what", "where", "when", "why", "who", "whom", "whose", "which", "how"]);
const WH_IS = new Set(["what's", "where's", "who's", "how's", "when's", "why's"]);
const HAVE = new Set(["have", "has", "had", "haven't", "hasn't", "hadn't"]);
const DO = new Set(["do", "don't"]);
const AUX = new Set([
  ...["is", "are", "was", "were", "am", "isn't", "aren't", "wasn't", "weren't"],
  ...["do", "does", "did", "don't", "doesn't", "didn't"],
  ...["can", "could", "will", "would", "should", "shall", "may", "might"],
  ...["can't", "couldn't", "won't", "wouldn't", "shouldn't"],
  ...HAVE,
]);
/** Auxiliaries that cannot follow a question's subject ("do you have" can, "do I will" cannot). */
const FINITE = new Set([
  "will",
  "would",
  "can",
  "could",
  "should",
  "shall",
  "may",
  "might",
  "am",
  "is",
  "are",
  "was",
  "were",
]);
const SUBJECTS = new Set([
  ...["i", "you", "we", "he", "she", "it", "they", "there", "this", "that", "these", "those"],
  ...["anyone", "anybody", "someone", "somebody", "everyone", "everything", "anything", "something"],
]);
/** Words that open a subject noun phrase: "is the technician coming", "can my wife call". */
const DETERMINERS = new Set(["the", "a", "an", "my", "your", "his", "her", "our", "their", "its", "any"]);
/** Words that may come before a sentence's real opening: "okay, when can I", "so do you". */
const LEADERS = new Set([
  ...["okay", "ok", "so", "and", "but", "well", "also", "then", "now", "actually", "oh", "um", "uh"],
  ...["hi", "hello", "hey", "yes", "yeah", "no", "sorry", "sure", "right", "alright", "great", "please"],
]);
/** Interjections that take a comma when a sentence goes on after them. */
const INTERJECTIONS = new Set([
  ...["hi", "hello", "hey", "yes", "yeah", "no", "okay", "ok", "well", "oh", "sure", "actually"],
  ...["alright", "right", "sorry", "please"],
]);
/** Pronouns that may end a sentence though the tagger calls them determiners ("sorry to hear that"). */
const ENDING_PRONOUNS = new Set(["that", "this", "it"]);
/** Words that continue a "thank you". */
const CONTINUE_THANKS = new Set(["for", "so", "very", "much", "again", "too", "all", "both"]);
/** Tags of words that need the word after them, so no mark may follow. */
const BINDING = new Set(["DET", "ADP", "AUX", "CCONJ", "SCONJ", "PART"]);

interface Spoken {
  entry: Word;
  /** Lower case. */
  word: string;
  /** Universal part-of-speech tag of the word's first token. */
  pos: string;
  /** Pause before the next word of the turn, ms (Infinity for the last). */
  gapAfter: number;
}

type Mark = "." | "," | "?" | undefined;

/**
 * The transcript's `words[]` with its punctuation placed again: the entries that are not punctuation
 * keep their order and fields (the first word of each sentence capitalised, others lower-cased, "I" kept),
 * each mark is an `m: "punc"` entry with `c: 0` and `s` = `e` = the end of the word before it, and `p` is
 * numbered again from 0. Every turn ends with a mark.
 */
export function punctuate(words: readonly Word[]): Word[] {
  const out: Word[] = [];
  const push = (entry: Omit<Word, "p">) => out.push({ ...entry, p: out.length });
  for (const { turn, spoken } of turnsOf(words)) {
    if (turn !== undefined) push(turn);
    const marks = marksOf(spoken);
    let sentenceStart = true;
    spoken.forEach((word, index) => {
      push({ ...word.entry, w: cased(word.entry.w, sentenceStart) });
      const mark = marks[index];
      if (mark !== undefined) push({ c: 0, s: word.entry.e, e: word.entry.e, w: mark, m: "punc" });
      sentenceStart = mark === "." || mark === "?";
    });
  }
  return out;
}

/** The mark after each word of one turn; the last word always gets one. */
function marksOf(spoken: readonly Spoken[]): Mark[] {
  const marks: Mark[] = spoken.map(() => undefined);
  let start = 0;
  for (let i = 0; i < spoken.length; i++) {
    const ends = i === spoken.length - 1 || endsSentence(spoken, start, i);
    if (!ends) continue;
    marks[i] = isQuestion(spoken, start) ? "?" : ".";
    for (let k = start; k < i; k++) if (takesComma(spoken, start, k)) marks[k] = ",";
    start = i + 1;
  }
  return marks;
}

/** Whether the sentence begun at `start` ends after word `i` (not the turn's last). */
function endsSentence(spoken: readonly Spoken[], start: number, i: number): boolean {
  const word = spoken[i]!;
  const gap = word.gapAfter;
  if (gap >= STOP_PAUSE_MS) return true;
  const next = i + 1;
  if (thanks(spoken, i)) return true;
  // "that" ends "sorry to hear that" although the tagger takes it for a determiner or conjunction.
  if ((BINDING.has(word.pos) && !ENDING_PRONOUNS.has(word.word)) || WH.has(word.word)) return false;
  if (opensQuestion(spoken, next) && canPrecedeQuestion(spoken, start, i)) return true;
  return gap >= CUE_STOP_PAUSE_MS && opensSentence(spoken, next);
}

/**
 * "thank you" (or "thanks") ends a sentence unless what follows continues it: "thank you for calling",
 * "thank you very much", "thank you so much".
 */
function thanks(spoken: readonly Spoken[], i: number): boolean {
  const word = spoken[i]!.word;
  const thanked = word === "thanks" || (word === "you" && spoken[i - 1]?.word === "thank");
  const next = spoken[i + 1]?.word;
  return thanked && next !== undefined && !CONTINUE_THANKS.has(next);
}

/** A question opener at `at` starts a new sentence unless the words before lead into it. */
function canPrecedeQuestion(spoken: readonly Spoken[], start: number, i: number): boolean {
  const before = spoken[i]!;
  const next = spoken[i + 1]!;
  if (LEADERS.has(before.word)) return false;
  // After a verb a wh-word without inversion opens its object ("I wonder what happened"); with an
  // auxiliary after it, it is a question of its own ("thank you for calling how can I help").
  const after = spoken[i + 2];
  if (before.pos === "VERB" && !(WH.has(next.word) && after !== undefined && AUX.has(after.word)))
    return false;
  // "what time is it": an auxiliary after a wh-word of the same sentence is that question's.
  if (AUX.has(next.word)) {
    for (let k = start; k <= i; k++) if (WH.has(spoken[k]!.word)) return false;
    // Inside a run only a pronoun subject counts ("there was an outage" is no question), and it must be
    // followed by more: "is it" at the end is a tag or "what time is it".
    if (!SUBJECTS.has(spoken[i + 2]?.word ?? "") || i + 3 >= spoken.length) return false;
  }
  return true;
}

/** A word that starts a sentence more often than it continues one, after a pause. */
function opensSentence(spoken: readonly Spoken[], at: number): boolean {
  const word = spoken[at];
  if (word === undefined) return false;
  return (
    opensQuestion(spoken, at) ||
    (word.word !== "it" && word.word !== "that" && word.pos === "PRON" && SUBJECTS.has(word.word)) ||
    LEADERS.has(word.word) ||
    word.word === "let's" ||
    word.word === "let" ||
    word.word === "thank"
  );
}

/** Whether the sentence begun at `start` is a question. */
function isQuestion(spoken: readonly Spoken[], start: number): boolean {
  let at = start;
  while (at < spoken.length - 1 && LEADERS.has(spoken[at]!.word)) at += 1;
  return opensQuestion(spoken, at);
}

/** "how long will", "who called", "what's", "do you", "is there", "can the". */
function opensQuestion(spoken: readonly Spoken[], at: number): boolean {
  const first = spoken[at];
  const second = spoken[at + 1];
  if (first === undefined || second === undefined) return false;
  if (WH_IS.has(first.word)) return true;
  if (WH.has(first.word)) {
    for (let k = at + 1; k < Math.min(spoken.length, at + 4); k++) {
      const word = spoken[k]!;
      if (AUX.has(word.word) || word.pos === "AUX") return true;
      if (word.pos === "VERB") return k === at + 1;
      if (!["ADJ", "ADV", "NOUN"].includes(word.pos)) return false;
    }
    return false;
  }
  if (!AUX.has(first.word)) return false;
  // "do I will" is "do. I will": a question's subject is followed by a verb, not another auxiliary.
  if (FINITE.has(spoken[at + 2]?.word ?? "")) return false;
  if (SUBJECTS.has(second.word)) return !(HAVE.has(first.word) && !["PRON"].includes(second.pos));
  return DETERMINERS.has(second.word) && !HAVE.has(first.word) && !DO.has(first.word);
}

/** Whether word `k` of the sentence begun at `start` takes a comma after it. */
function takesComma(spoken: readonly Spoken[], start: number, k: number): boolean {
  const word = spoken[k]!;
  if (BINDING.has(word.pos) || WH.has(word.word) || AUX.has(word.word)) return false;
  const next = spoken[k + 1];
  if (k === start && INTERJECTIONS.has(word.word) && next !== undefined && !INTERJECTIONS.has(next.word))
    return true;
  return word.gapAfter >= COMMA_PAUSE_MS;
}

function turnsOf(words: readonly Word[]): { turn?: Word; spoken: Spoken[] }[] {
  const turns: { turn?: Word; spoken: Spoken[] }[] = [];
  let current: { turn?: Word; entries: Word[] } | undefined;
  const groups: { turn?: Word; entries: Word[] }[] = [];
  for (const entry of words) {
    if (entry.m === "turn") {
      current = { turn: entry, entries: [] };
      groups.push(current);
    } else if (entry.m === undefined) {
      if (current === undefined) {
        current = { entries: [] };
        groups.push(current);
      }
      current.entries.push(entry);
    }
  }
  for (const group of groups) {
    const tags = tagsOf(group.entries.map((entry) => entry.w.toLowerCase()));
    const spoken = group.entries.map((entry, index) => ({
      entry,
      word: entry.w.toLowerCase(),
      pos: tags[index] ?? "X",
      gapAfter: (group.entries[index + 1]?.s ?? Infinity) - entry.e,
    }));
    turns.push(group.turn === undefined ? { spoken } : { turn: group.turn, spoken });
  }
  return turns;
}

/**
 * The part-of-speech tag of each word, tagged in context as one text ("I" upper-cased, as the tagger was
 * trained on written English). A word of several tokens ("didn't") takes its first token's tag; tokens are
 * matched to words by character offset, since wink-nlp's tokens with their preceding spaces rebuild the text.
 */
function tagsOf(words: readonly string[]): string[] {
  const starts: number[] = [];
  let text = "";
  for (const word of words) {
    if (text !== "") text += " ";
    starts.push(text.length);
    text += word === "i" || word.startsWith("i'") ? `I${word.slice(1)}` : word;
  }
  const tags: string[] = words.map(() => "X");
  let offset = 0;
  let index = 0;
  nlp
    .readDoc(text)
    .tokens()
    .each((token: ItemToken) => {
      offset += String(token.out(its.precedingSpaces)).length;
      while (index < starts.length && (starts[index] ?? Infinity) < offset) index += 1;
      if (starts[index] === offset) tags[index] = String(token.out(its.pos));
      offset += token.out().length;
    });
  return tags;
}

/** The first word of a sentence capitalised, every other lower-cased; "I" ("I'm", "I'll") stays. */
function cased(word: string, sentenceStart: boolean): string {
  const lower = word.toLowerCase();
  if (lower === "i" || lower.startsWith("i'")) return `I${lower.slice(1)}`;
  return sentenceStart && lower.length > 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
}

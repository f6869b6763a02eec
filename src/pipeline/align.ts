/**
 * Aligning a given transcript (a human-corrected text, VoiceBase's `transcript` part of a reprocess) to
 * the words the recogniser heard: the text's words, with its spelling and punctuation, take the times of
 * the recognised words they match. Pure.
 *
 * - Matching is a global sequence alignment (Needleman–Wunsch) of the given words to the recognised
 *   words, both normalised (lower case, letters and digits only): a match costs 0, a substitution 1, a
 *   word on one side only 1. A given word matched or substituted takes its recognised word's times,
 *   speaker and channel.
 * - A run of given words with no recognised word (the recogniser missed them) shares the time between
 *   its aligned neighbours evenly, inside the turn of the speaker before it: when the next aligned word is
 *   another speaker's, the run ends where the earlier speaker's turn ends. Starts never go back in time.
 * - Punctuation of the text becomes `m: "punc"` entries: trailing punctuation at the end of the word
 *   before it, leading punctuation at the start of the word after it. Turns are put back wherever the
 *   speaker changes, as assembleTranscript does.
 *
 * `c`: every given word gets 1. VoiceBase's `c` is how sure the recogniser is that the word is what was
 * said; a given word was written by a person who listened, so it is not in doubt, however its time was
 * found (matched, substituted or shared out). A reader that flags low-confidence words for review must
 * not flag words a person has already corrected.
 */
import type { Word } from "../domain/transcript.ts";

/** The DP keeps one byte per cell: beyond this many cells (~100 MB) alignment is refused, not attempted. */
export const MAX_ALIGNMENT_CELLS = 100_000_000;

export class AlignmentTooLargeError extends Error {
  override name = "AlignmentTooLargeError";
}

/** Where the words go when nothing was recognised: one turn of this speaker over the whole media. */
export interface AlignmentFallback {
  speakerName: string;
  lengthMs: number;
}

interface Heard {
  word: Word;
  speaker: string;
  /** Index of the first and last word of the speaker's turn this word is in. */
  turnFirst: number;
  turnLast: number;
}

type Token = { kind: "word"; text: string; index: number } | { kind: "punc"; text: string; leading: boolean };

/** The transcript `words[]` of `text` aligned to `recognised` (a transcript's `words[]`). */
export function alignTranscript(
  recognised: readonly Word[],
  text: string,
  fallback: AlignmentFallback,
): Word[] {
  const tokens = tokenise(text);
  const given = tokens.flatMap((token) => (token.kind === "word" ? [token.text] : []));
  if (given.length === 0) return recognised.map((word) => ({ ...word }));
  const heard = heardWords(recognised);
  const anchors = alignSequences(
    given.map(normalise),
    heard.map((h) => normalise(h.word.w)),
  );
  const timed = timeWords(anchors, heard, fallback);
  // A word with voice features has its volume in `v`, not its channel.
  const channels = new Map(heard.filter((h) => h.word.frq === undefined).map((h) => [h.speaker, h.word.v]));

  const words: Word[] = [];
  let speaker: string | undefined;
  const push = (entry: Omit<Word, "p">, entrySpeaker: string, turnAt: { s: number; e: number }) => {
    if (entrySpeaker !== speaker) {
      words.push({ p: words.length, c: 1, s: turnAt.s, e: turnAt.e, w: entrySpeaker, m: "turn" });
      speaker = entrySpeaker;
    }
    words.push({ p: words.length, ...entry });
  };
  let wordIndex = 0;
  for (const token of tokens) {
    if (token.kind === "word") {
      const time = timed[token.index] as TimedWord;
      const v = channels.get(time.speaker);
      push({ c: 1, s: time.s, e: time.e, w: token.text, ...(v !== undefined && { v }) }, time.speaker, time);
      wordIndex = token.index + 1;
      continue;
    }
    // Leading punctuation (and any before the first word) belongs to the word after it; any other to
    // the word before it.
    const attachNext = token.leading || wordIndex === 0;
    const owner = timed[attachNext ? wordIndex : wordIndex - 1] as TimedWord;
    const at = attachNext ? owner.s : owner.e;
    push({ c: 1, s: at, e: at, w: token.text, m: "punc" }, owner.speaker, owner);
  }
  return words;
}

/** Whitespace-separated tokens, each split into leading punctuation, the word, trailing punctuation. */
export function tokenise(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  for (const raw of text.split(/\s+/u)) {
    if (raw === "") continue;
    const match = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/su.exec(raw);
    const [, leading = "", core = "", trailing = ""] = match ?? [];
    if (core === "") {
      tokens.push({ kind: "punc", text: raw, leading: false });
      continue;
    }
    if (leading !== "") tokens.push({ kind: "punc", text: leading, leading: true });
    tokens.push({ kind: "word", text: core, index: index++ });
    if (trailing !== "") tokens.push({ kind: "punc", text: trailing, leading: false });
  }
  return tokens;
}

/** What two spellings of a word share: "Don't" and "dont", "O'Brien" and "obrien" match. */
export function normalise(word: string): string {
  return word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");
}

function heardWords(recognised: readonly Word[]): Heard[] {
  const heard: Heard[] = [];
  let speaker = "";
  for (const word of recognised) {
    if (word.m === "turn") speaker = word.w;
    else if (word.m === undefined) heard.push({ word, speaker, turnFirst: 0, turnLast: 0 });
  }
  let first = 0;
  for (let i = 0; i < heard.length; i++) {
    const current = heard[i] as Heard;
    if (i > 0 && (heard[i - 1] as Heard).speaker !== current.speaker) first = i;
    current.turnFirst = first;
  }
  let last = heard.length - 1;
  for (let i = heard.length - 1; i >= 0; i--) {
    const current = heard[i] as Heard;
    if (i < heard.length - 1 && (heard[i + 1] as Heard).speaker !== current.speaker) last = i;
    current.turnLast = last;
  }
  return heard;
}

const DIAGONAL = 0;
const GIVEN_ONLY = 1;
const HEARD_ONLY = 2;

/**
 * For each given word, the index of the recognised word it is aligned to (matched or substituted), or -1.
 * Ties prefer the diagonal, so equal-length texts pair up word by word.
 */
export function alignSequences(given: readonly string[], heard: readonly string[]): number[] {
  const n = given.length;
  const m = heard.length;
  if ((n + 1) * (m + 1) > MAX_ALIGNMENT_CELLS) {
    throw new AlignmentTooLargeError(
      `The given transcript (${n} words) is too long to align to the ${m} recognised words`,
    );
  }
  const moves = new Uint8Array((n + 1) * (m + 1));
  let previous = new Uint32Array(m + 1);
  let current = new Uint32Array(m + 1);
  for (let j = 0; j <= m; j++) {
    previous[j] = j;
    moves[j] = HEARD_ONLY;
  }
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    moves[i * (m + 1)] = GIVEN_ONLY;
    for (let j = 1; j <= m; j++) {
      const diagonal = (previous[j - 1] as number) + (given[i - 1] === heard[j - 1] ? 0 : 1);
      const givenOnly = (previous[j] as number) + 1;
      const heardOnly = (current[j - 1] as number) + 1;
      let best = diagonal;
      let move = DIAGONAL;
      if (givenOnly < best) [best, move] = [givenOnly, GIVEN_ONLY];
      if (heardOnly < best) [best, move] = [heardOnly, HEARD_ONLY];
      current[j] = best;
      moves[i * (m + 1) + j] = move;
    }
    [previous, current] = [current, previous];
  }
  const anchors = new Array<number>(n).fill(-1);
  for (let i = n, j = m; i > 0 || j > 0;) {
    const move = moves[i * (m + 1) + j];
    if (i > 0 && j > 0 && move === DIAGONAL) anchors[--i] = --j;
    else if (i > 0 && (j === 0 || move === GIVEN_ONLY)) i--;
    else j--;
  }
  return anchors;
}

interface TimedWord {
  s: number;
  e: number;
  speaker: string;
}

function timeWords(
  anchors: readonly number[],
  heard: readonly Heard[],
  fallback: AlignmentFallback,
): TimedWord[] {
  const timed: TimedWord[] = [];
  let i = 0;
  while (i < anchors.length) {
    const anchor = anchors[i] as number;
    const at = heard[anchor];
    if (at) {
      timed.push({ s: at.word.s, e: at.word.e, speaker: at.speaker });
      i++;
      continue;
    }
    let end = i;
    while (end < anchors.length && heard[anchors[end] as number] === undefined) end++;
    const before = heard[anchors[i - 1] ?? -1];
    const after = heard[anchors[end] ?? -1];
    timed.push(...shareOut(end - i, before, after, heard, fallback));
    i = end;
  }
  return timed;
}

/** Times for `count` given words the recogniser missed, between the aligned words around them. */
function shareOut(
  count: number,
  before: Heard | undefined,
  after: Heard | undefined,
  heard: readonly Heard[],
  fallback: AlignmentFallback,
): TimedWord[] {
  const speaker = before?.speaker ?? after?.speaker ?? fallback.speakerName;
  let start: number;
  let end: number;
  if (before && after && before.speaker === after.speaker) {
    [start, end] = [before.word.e, after.word.s];
  } else if (before) {
    // The run continues the earlier speaker's turn, up to where that turn's words end.
    start = before.word.e;
    end = Math.max(start, (heard[before.turnLast] as Heard).word.e);
    if (after) end = Math.min(end, after.word.s);
  } else if (after) {
    // Before anything aligned: from the start of the later speaker's turn.
    [start, end] = [(heard[after.turnFirst] as Heard).word.s, after.word.s];
  } else {
    [start, end] = [0, fallback.lengthMs];
  }
  // Overlapping speech can put the next word's start before this one's end: starts never go back.
  start = Math.min(start, end);
  const step = (end - start) / count;
  return Array.from({ length: count }, (_, k) => ({
    s: Math.round(start + step * k),
    e: Math.round(start + step * (k + 1)),
    speaker,
  }));
}

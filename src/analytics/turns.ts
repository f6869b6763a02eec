/**
 * What every analysis reads a transcript as: the spoken words (no punctuation or turn entries), and the
 * speaker turns they form. Pure.
 */
import type { Transcript, Word } from "../domain/transcript.ts";

/** A spoken entry of `words[]`, with the speaker who said it. */
export interface SpokenWord {
  /** The entry's `p` in the transcript. */
  p: number;
  w: string;
  s: number;
  e: number;
  c: number;
  speakerName: string;
}

/** A run of one speaker's words, between changes of speaker. */
export interface Turn {
  speakerName: string;
  s: number;
  e: number;
  words: SpokenWord[];
  /** The words joined by single spaces. */
  text: string;
}

/** The spoken words in transcript order, each with the name of the turn it falls in. */
export function spokenWords(transcript: Pick<Transcript, "words">): SpokenWord[] {
  const spoken: SpokenWord[] = [];
  let speakerName = "";
  for (const word of transcript.words) {
    if (word.m === "turn") speakerName = word.w;
    else if (word.m === undefined) spoken.push(toSpoken(word, speakerName));
  }
  return spoken;
}

/**
 * The transcript's turns: the words after each turn entry. Words before the first turn entry (a
 * transcript from elsewhere may have none) form a turn of their own, as do a speaker's turns that follow
 * one another (one speaker can answer in two turns while the other talks over them).
 */
export function turnsOf(transcript: Pick<Transcript, "words">): Turn[] {
  const turns: Turn[] = [];
  let current: Turn | undefined;
  let speakerName = "";
  for (const word of transcript.words) {
    if (word.m === "turn") {
      speakerName = word.w;
      current = undefined;
    } else if (word.m === undefined) {
      const spoken = toSpoken(word, speakerName);
      if (current === undefined) {
        current = { speakerName, s: spoken.s, e: spoken.e, words: [], text: "" };
        turns.push(current);
      }
      current.words.push(spoken);
      current.e = spoken.e;
    }
  }
  for (const turn of turns) turn.text = turn.words.map((word) => word.w).join(" ");
  return turns;
}

/** The speakers' names, in order of their first turn. */
export function speakersOf(transcript: Pick<Transcript, "words">): string[] {
  return [...new Set(transcript.words.filter((word) => word.m === "turn").map((word) => word.w))];
}

function toSpoken(word: Word, speakerName: string): SpokenWord {
  return { p: word.p, w: word.w, s: word.s, e: word.e, c: word.c, speakerName };
}

import type { Word } from "../../src/domain/transcript.ts";

/** The example of VoiceBase's transcript guide: the agent says "Hello." and the caller "Hi". */
export const VOICEBASE_EXAMPLE: Word[] = [
  { p: 1, s: 2200, c: 1.0, e: 2350, w: "agent", m: "turn" },
  { p: 2, s: 2200, c: 0.537, e: 2300, w: "Hello" },
  { p: 3, s: 2300, c: 1.0, e: 2300, w: ".", m: "punc" },
  { p: 4, s: 2400, c: 0.1, e: 2550, w: "caller", m: "turn" },
  { p: 5, s: 2400, c: 0.975, e: 2500, w: "Hi" },
];

export interface Speech {
  /** Adds a turn entry first when given. */
  speaker?: string;
  /** When the first word starts, in ms. */
  at: number;
  /** Words separated by spaces; a trailing `.`, `,`, `?` or `!` becomes a punctuation entry. */
  text: string;
  wordMs?: number;
  gapMs?: number;
}

/** Builds `words[]` as an engine would: each word `wordMs` long, `gapMs` apart, positions counted from 0. */
export function transcript(...speeches: Speech[]): Word[] {
  const words: Word[] = [];
  for (const { speaker, at, text, wordMs = 300, gapMs = 100 } of speeches) {
    let time = at;
    if (speaker !== undefined) {
      words.push({ p: words.length, c: 1, s: time, e: time + wordMs, w: speaker, m: "turn" });
    }
    for (const token of text.split(" ")) {
      const [, word = token, punctuation] = /^(.+?)([.,?!])?$/u.exec(token) ?? [];
      words.push({ p: words.length, c: 0.9, s: time, e: time + wordMs, w: word });
      time += wordMs;
      if (punctuation !== undefined) {
        words.push({ p: words.length, c: 1, s: time, e: time, w: punctuation, m: "punc" });
      }
      time += gapMs;
    }
  }
  return words;
}

/** About 40 s of one speaker without a pause or sentence end: it must be split into many cues. */
export const MONOLOGUE =
  "to find the source of success we started at work we asked people to identify who they thought were " +
  "their most effective colleagues in fact over the past twenty five years we have asked over twenty " +
  "thousand people to identify the individuals in their organizations who could really get things done " +
  "we wanted to find those who were not just busy but who made a difference";

import {
  type RecognizedWord,
  type SpeakerWords,
  type VoiceActivity,
  voiceOccurrences,
  type Word,
} from "../domain/transcript.ts";

/**
 * Building the VoiceBase `words[]`, `voiceActivity[]` and `confidence` of a transcript from the words
 * each speaker's channel yielded.
 */

/**
 * A pause this long within one speaker's speech ends a sentence. The recogniser gives no punctuation;
 * pauses between words inside a sentence rarely reach half a second, between sentences they usually do.
 */
export const SENTENCE_PAUSE_MS = 600;

export interface AssembledTranscript {
  words: Word[];
  voiceActivity: VoiceActivity[];
  confidence: number;
}

interface Spoken {
  speaker: number;
  word: RecognizedWord;
}

/**
 * Interleaves all speakers' words by start time (ties by end time, then by the order of `speakers`) and
 * numbers every entry `p` from 0.
 *
 * - A turn entry (`m: "turn"`, `w` = speaker name, `c: 1`, times of the word after it) comes first and
 *   wherever the speaker changes.
 * - A full stop (`m: "punc"`, `w: "."`, `c: 1`, `s` = `e` = end of the word before it) ends a sentence:
 *   before each change of speaker, after the last word, and at a pause of `SENTENCE_PAUSE_MS` or more.
 * - Casing: words stay lower-case as the recogniser spells them, except that the first word of each
 *   sentence starts with a capital, and the pronoun "i" (also in "i'm", "i'll", "i've", "i'd") is "I".
 * - Spoken words carry `v` = the speaker's channel, or, when measured, their voice features (`frq` and
 *   `v` = volume); confidences are rounded to 3 decimals.
 *
 * `voiceActivity` has one element per speaker, in the order given, even for a speaker who said nothing.
 * `confidence` is the mean confidence of the spoken words, 0 when there are none.
 */
export function assembleTranscript(speakers: readonly SpeakerWords[]): AssembledTranscript {
  const spoken = mergeByStart(speakers);
  const words: Word[] = [];
  const push = (entry: Omit<Word, "p">) => words.push({ p: words.length, ...entry });
  const fullStop = (at: number) => push({ c: 1, s: at, e: at, w: ".", m: "punc" });

  let previous: Spoken | undefined;
  let sentenceStart = true;
  for (const current of spoken) {
    const { word } = current;
    const turn = previous === undefined || previous.speaker !== current.speaker;
    if (previous !== undefined && (turn || word.start - previous.word.end >= SENTENCE_PAUSE_MS)) {
      fullStop(previous.word.end);
      sentenceStart = true;
    }
    if (turn) {
      const name = speakers[current.speaker]?.speakerName ?? "";
      push({ c: 1, s: word.start, e: word.end, w: name, m: "turn" });
    }
    push({
      c: round3(word.confidence),
      s: word.start,
      e: word.end,
      w: caseWord(word.word, sentenceStart),
      ...(word.voice
        ? { frq: word.voice.frq, v: word.voice.v }
        : { v: speakers[current.speaker]?.channel ?? 0 }),
    });
    sentenceStart = false;
    previous = current;
  }
  if (previous !== undefined) fullStop(previous.word.end);

  const confidence =
    spoken.length === 0
      ? 0
      : round3(spoken.reduce((sum, { word }) => sum + word.confidence, 0) / spoken.length);
  const voiceActivity = speakers.map((speaker) => ({
    speakerName: speaker.speakerName,
    occurrences: voiceOccurrences(speaker.words),
  }));
  return { words, voiceActivity, confidence };
}

/** The casing rule of `assembleTranscript`. */
export function caseWord(word: string, sentenceStart: boolean): string {
  if (word === "i" || word.startsWith("i'")) return `I${word.slice(1)}`;
  if (!sentenceStart || word.length === 0) return word;
  return word.charAt(0).toUpperCase() + word.slice(1);
}

function mergeByStart(speakers: readonly SpeakerWords[]): Spoken[] {
  const spoken = speakers.flatMap((speaker, index) =>
    speaker.words.map((word) => ({ speaker: index, word })),
  );
  // Array.prototype.sort is stable, so equal keys keep each speaker's own order.
  return spoken.sort(
    (a, b) => a.word.start - b.word.start || a.word.end - b.word.end || a.speaker - b.speaker,
  );
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

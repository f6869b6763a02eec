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

/** One speaker's stretch of speech, as the transcript lists it: a turn entry, then its words. */
interface SpeakerTurn {
  /** Index of the speaker in the list given. */
  speaker: number;
  words: RecognizedWord[];
}

/**
 * Builds `words[]` turn by turn, as VoiceBase lists a conversation, and numbers every entry `p` from 0.
 *
 * - A speaker's turn runs over their words until another speaker says a whole word inside one of their
 *   pauses: a reply ends the turn, while a "yeah" said over their speech (overlapping a word of theirs)
 *   does not cut it in two. See `speakerTurns`.
 * - Turns are listed by start time (ties: the one whose first word ends first, then speaker order); each
 *   is a turn entry (`m: "turn"`, `w` = speaker name, `c: 1`) spanning the turn, `s` of its first word to
 *   `e` of its last, followed by all its words, even where another speaker's turn overlaps it in time.
 * - A full stop (`m: "punc"`, `w: "."`, `c: 0` as VoiceBase gives punctuation, `s` = `e` = end of the
 *   word before it) ends a sentence: at the end of each turn and at a pause of `SENTENCE_PAUSE_MS` or more.
 * - Casing: words stay lower-case as the recogniser spells them, except that the first word of each
 *   sentence starts with a capital, and the pronoun "i" (also in "i'm", "i'll", "i've", "i'd") is "I".
 * - Confidences are rounded to 3 decimals. Words carry `frq` and `v` (volume) when
 *   measured (voice features), never the channel: the channel is known from the turn's speaker.
 *
 * `voiceActivity` has one element per speaker, in the order given, even for a speaker who said nothing.
 * `confidence` is the mean confidence of the spoken words, 0 when there are none.
 */
export function assembleTranscript(speakers: readonly SpeakerWords[]): AssembledTranscript {
  const words: Word[] = [];
  const push = (entry: Omit<Word, "p">) => words.push({ p: words.length, ...entry });
  const fullStop = (at: number) => push({ c: 0, s: at, e: at, w: ".", m: "punc" });

  for (const turn of speakerTurns(speakers)) {
    const first = turn.words[0] as RecognizedWord;
    const last = turn.words.at(-1) as RecognizedWord;
    const name = speakers[turn.speaker]?.speakerName ?? "";
    push({ c: 1, s: first.start, e: last.end, w: name, m: "turn" });
    let previous: RecognizedWord | undefined;
    for (const word of turn.words) {
      const sentenceStart = previous === undefined || word.start - previous.end >= SENTENCE_PAUSE_MS;
      if (previous !== undefined && sentenceStart) fullStop(previous.end);
      push({
        c: round3(word.confidence),
        s: word.start,
        e: word.end,
        w: caseWord(word.word, sentenceStart),
        ...(word.voice && { frq: word.voice.frq, v: word.voice.v }),
      });
      previous = word;
    }
    fullStop(last.end);
  }

  const spoken = speakers.flatMap((speaker) => speaker.words);
  const confidence =
    spoken.length === 0 ? 0 : round3(spoken.reduce((sum, word) => sum + word.confidence, 0) / spoken.length);
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

/**
 * Each speaker's words cut into turns, then all turns in order. A speaker's turn ends between two of
 * their words when another speaker has a word wholly inside that pause (they answered); words of others
 * that overlap the speaker's own words are talk-over and leave the turn whole.
 */
export function speakerTurns(speakers: readonly SpeakerWords[]): SpeakerTurn[] {
  const sorted = speakers.map((speaker) => byTime(speaker.words));
  const turns: SpeakerTurn[] = [];
  sorted.forEach((own, speaker) => {
    // One cursor per other speaker: pauses come in time order, so each only moves forward (linear time).
    const others = sorted.filter((_, index) => index !== speaker).map((words) => ({ words, next: 0 }));
    let current: SpeakerTurn | undefined;
    let before: RecognizedWord | undefined;
    for (const word of own) {
      const pauseStart = before?.end ?? 0;
      // One channel's words follow one another, so its first word starting in the pause ends first.
      const answered =
        before !== undefined &&
        others.some((other) => {
          while ((other.words[other.next]?.start ?? Infinity) < pauseStart) other.next++;
          const first = other.words[other.next];
          return first !== undefined && first.end <= word.start;
        });
      if (current === undefined || answered) {
        current = { speaker, words: [] };
        turns.push(current);
      }
      current.words.push(word);
      before = word;
    }
  });
  // Array.prototype.sort is stable, and turns were made in speaker order, so ties keep that order.
  return turns.sort((a, b) => {
    const [firstA, firstB] = [a.words[0] as RecognizedWord, b.words[0] as RecognizedWord];
    return firstA.start - firstB.start || firstA.end - firstB.end;
  });
}

function byTime(words: readonly RecognizedWord[]): RecognizedWord[] {
  return [...words].sort((a, b) => a.start - b.start || a.end - b.end);
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

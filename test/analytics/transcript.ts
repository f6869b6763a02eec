import type { RecognizedWord, SpeakerWords, Transcript } from "../../src/domain/transcript.ts";
import { assembleTranscript, SENTENCE_PAUSE_MS } from "../../src/pipeline/assemble.ts";

/** One turn of a conversation: who speaks, and what, as the recogniser would spell it. */
export type Line = readonly [speakerName: string, text: string];

/** How long each word lasts, in ms. */
export const WORD_MS = 300;
/** Silence between words of a sentence, in ms. */
export const WORD_GAP_MS = 100;
/** Silence after a word ending in "." (long enough for a full stop), and between turns, in ms. */
export const PAUSE_MS = SENTENCE_PAUSE_MS + 200;
/** When the first word starts, in ms. */
export const FIRST_WORD_MS = 1000;

/**
 * A transcript of a conversation, as the pipeline would build it: each speaker on a channel of their own,
 * in order of first appearance, words `WORD_MS` long and `WORD_GAP_MS` apart, all confidences 0.9.
 *
 * - Words are lower-cased, as the recogniser spells them; `assembleTranscript` capitalises.
 * - A word ending in "." ends the sentence: a `PAUSE_MS` silence follows it, so the transcript gets a full
 *   stop there.
 * - A line with empty text adds a speaker who says nothing (a silent channel).
 */
export function conversation(lines: readonly Line[]): Transcript {
  const speakers: SpeakerWords[] = [];
  let time = FIRST_WORD_MS;
  for (const [speakerName, text] of lines) {
    let speaker = speakers.find((candidate) => candidate.speakerName === speakerName);
    if (speaker === undefined) {
      speaker = { speakerName, channel: speakers.length, words: [] };
      speakers.push(speaker);
    }
    const tokens = text.split(/\s+/).filter((token) => token !== "");
    for (const token of tokens) {
      const word: RecognizedWord = {
        word: token.replace(/\.$/, "").toLowerCase(),
        start: time,
        end: time + WORD_MS,
        confidence: 0.9,
      };
      speaker.words.push(word);
      time = word.end + (token.endsWith(".") ? PAUSE_MS : WORD_GAP_MS);
    }
    if (tokens.length > 0) time += PAUSE_MS;
  }
  return { ...assembleTranscript(speakers), alternateFormats: [] };
}

/** The spoken entries of `transcript.words` spelled `w` (case-insensitive), in order. */
export function entriesOf(transcript: Transcript, w: string): Transcript["words"] {
  return transcript.words.filter((word) => word.m === undefined && word.w.toLowerCase() === w.toLowerCase());
}

import type { RecognizedWord, SpeakerWords, Transcript } from "../../src/domain/transcript.ts";
import { alternateFormats, type RenderedFormat } from "../../src/formats/index.ts";
import { assembleTranscript } from "../../src/pipeline/assemble.ts";

/** Something one speaker says: words separated by spaces, each `wordMs` long and `gapMs` apart. */
export interface Utterance {
  speaker: string;
  /** When the first word starts, in ms. */
  at: number;
  text: string;
  wordMs?: number;
  gapMs?: number;
}

export const WORD_MS = 300;
export const GAP_MS = 100;

/** When the `index`th word (from 0) of an utterance starts and ends. */
export function wordTime(utterance: Utterance, index: number): { s: number; e: number } {
  const { at, wordMs = WORD_MS, gapMs = GAP_MS } = utterance;
  const s = at + index * (wordMs + gapMs);
  return { s, e: s + wordMs };
}

/** The words `from` to `to` (inclusive, from 0) of an utterance, as one occurrence. */
export function span(utterance: Utterance, from: number, to: number): { s: number; e: number } {
  return { s: wordTime(utterance, from).s, e: wordTime(utterance, to).e };
}

/**
 * A transcript as Hark's pipeline makes it: each speaker's words assembled by `assembleTranscript` (turns,
 * full stops at pauses, sentence capitals), one channel per speaker in order of first appearance, and
 * every alternate format rendered.
 */
export function predictionTranscript(...utterances: Utterance[]): Transcript {
  const speakers: SpeakerWords[] = [];
  for (const utterance of utterances) {
    let speaker = speakers.find((known) => known.speakerName === utterance.speaker);
    if (speaker === undefined) {
      speaker = { speakerName: utterance.speaker, channel: speakers.length, words: [] };
      speakers.push(speaker);
    }
    const words: RecognizedWord[] = utterance.text
      .split(" ")
      .filter((word) => word !== "")
      .map((word, index) => {
        const { s, e } = wordTime(utterance, index);
        return { word, start: s, end: e, confidence: 0.9 };
      });
    speaker.words.push(...words);
  }
  const { words, voiceActivity, confidence } = assembleTranscript(speakers);
  return { confidence, words, voiceActivity, alternateFormats: alternateFormats(words) };
}

/** Each alternate format of a transcript, decoded. */
export function formatTexts(transcript: Transcript): Record<RenderedFormat, string> {
  const texts: Partial<Record<RenderedFormat, string>> = {};
  for (const format of transcript.alternateFormats) {
    texts[format.format] = Buffer.from(format.data, "base64").toString("utf8");
  }
  return texts as Record<RenderedFormat, string>;
}

/**
 * Conversations for the metrics, categories and spotting tests: each speaker's lines with the time they
 * start, made into a transcript the way the pipeline makes one.
 */
import type { RecognizedWord, Transcript } from "../../src/domain/transcript.ts";
import { assembleTranscript } from "../../src/pipeline/assemble.ts";

/** Every word lasts this long... */
export const WORD_MS = 300;
/** ...and is followed by this much quiet, so a line of n words takes n × 400 ms. */
export const WORD_GAP_MS = 100;

/** The words of `text`, the first starting at `start` ms, one every `WORD_MS + WORD_GAP_MS`. */
export function said(start: number, text: string): RecognizedWord[] {
  return text
    .split(/\s+/)
    .filter((word) => word !== "")
    .map((word, index) => {
      const wordStart = start + index * (WORD_MS + WORD_GAP_MS);
      return { word, start: wordStart, end: wordStart + WORD_MS, confidence: 0.9 };
    });
}

/** When a line of `text` said from `start` ends. */
export function endOf(start: number, text: string): number {
  return said(start, text).at(-1)?.end ?? start;
}

/**
 * A transcript of the speakers' lines, given as `[start ms, text]`; speakers take channels in the order
 * given, as the two sides of a stereo call do.
 */
export function conversation(lines: Record<string, [number, string][]>): Transcript {
  const speakers = Object.entries(lines).map(([speakerName, spoken], channel) => ({
    speakerName,
    channel,
    words: spoken.flatMap(([start, text]) => said(start, text)),
  }));
  return { ...assembleTranscript(speakers), alternateFormats: [] };
}

/**
 * Redaction of what the detectors found: the words of the transcript, and the time ranges the audio
 * redactor beeps over. Pure.
 */
import type { Occurrence, Transcript, Word } from "../domain/transcript.ts";
import { alternateFormats } from "../formats/index.ts";
import type { DetectorResult } from "./detectors.ts";

/**
 * The transcript with every spoken word inside one of `ranges` replaced by `replacement` (VoiceBase's
 * example uses "[redacted]"), and `alternateFormats` rendered again from the redacted words so that no
 * format keeps what the JSON lost.
 *
 * A word is inside a range when its midpoint is: a range buffered by a few hundred ms then takes no
 * neighbour that it merely grazes, while every word it was built from is covered.
 *
 * Each word keeps its entry, `p`, times and confidence, so positions other analyses refer to stay valid;
 * punctuation and speaker turns are kept as they are.
 */
export function redactTranscript(
  transcript: Transcript,
  ranges: readonly Occurrence[],
  replacement: string,
): Transcript {
  const words = transcript.words.map((word): Word =>
    word.m === undefined && inside(word, ranges) ? { ...word, w: replacement } : word,
  );
  return { ...transcript, words, alternateFormats: alternateFormats(words) };
}

/**
 * Every occurrence of every detection, sorted and merged where they overlap or touch: the ranges to
 * silence in the audio. Speakers do not matter: both channels of a stereo call are redacted, as the
 * VoiceBase stereo guide says.
 */
export function redactionRanges(results: readonly DetectorResult[]): Occurrence[] {
  const all = results
    .flatMap((result) => result.detections)
    .flatMap((detection) => detection.detectedSegments)
    .flatMap((segment) => segment.occurrences)
    .filter(({ s, e }) => e > s)
    .sort((a, b) => a.s - b.s || a.e - b.e);
  const merged: Occurrence[] = [];
  for (const { s, e } of all) {
    const last = merged.at(-1);
    if (last !== undefined && s <= last.e) last.e = Math.max(last.e, e);
    else merged.push({ s, e });
  }
  return merged;
}

function inside(word: Word, ranges: readonly Occurrence[]): boolean {
  const middle = (word.s + word.e) / 2;
  return ranges.some(({ s, e }) => s <= middle && middle <= e);
}

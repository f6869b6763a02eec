/**
 * A transcript in VoiceBase's shape (`words[]`, `voiceActivity[]`, `alternateFormats[]`), and the words a
 * recogniser gives before they become one. Times are milliseconds from the start of the media.
 */

/** A `words[]` entry of a VoiceBase transcript: a spoken word, a punctuation mark or a speaker turn. */
export interface Word {
  /** Position in the transcript, from 0, counting every entry. */
  p: number;
  /** Confidence, 0..1. */
  c: number;
  s: number;
  e: number;
  w: string;
  /**
   * `"punc"` for punctuation; `"turn"` for a speaker turn: then `w` is the speaker's name, `s`..`e` span
   * the whole turn, and the turn's words follow it.
   */
  m?: "punc" | "turn";
  /** With voice features: the word's volume (VoiceBase's `v`). Never the channel, which the turn gives. */
  v?: number;
  /** With voice features: the word's two dominant spectral peaks, strongest first (VoiceBase's `frq`). */
  frq?: SpectralPeak[];
}

/** A peak of a word's spectrum: `f` in Hz, `e` its energy relative to the word's strongest peak, 0..1. */
export interface SpectralPeak {
  f: number;
  e: number;
}

/** VoiceBase's voice features of one word: its dominant spectral peaks and its volume. */
export interface VoiceFeatures {
  frq: SpectralPeak[];
  v: number;
}

export interface Occurrence {
  s: number;
  e: number;
}

export interface VoiceActivity {
  speakerName: string;
  occurrences: Occurrence[];
}

export const TRANSCRIPT_FORMATS = ["json", "text", "srt", "webvtt", "dfxp"] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export interface AlternateFormat {
  format: Exclude<TranscriptFormat, "json">;
  contentType: string;
  /** VoiceBase's spelling, as its callback bodies carry it. */
  contentEncoding: "Base64";
  charset: "utf-8";
  data: string;
}

export interface Transcript {
  confidence: number;
  words: Word[];
  voiceActivity: VoiceActivity[];
  alternateFormats: AlternateFormat[];
}

/** A recognised word as an engine returns it, before it becomes a transcript entry. */
export interface RecognizedWord {
  word: string;
  /** Milliseconds from the start of the media. */
  start: number;
  end: number;
  /** 0..1 */
  confidence: number;
  /** Measured on the word's samples when voice features are asked for. */
  voice?: VoiceFeatures;
}

/** One speaker's words: a channel of a stereo call, or the whole mix. */
export interface SpeakerWords {
  speakerName: string;
  channel: number;
  words: RecognizedWord[];
}

/** Stretches of speech are words joined while the gap to the next one is under this. */
export const VOICE_ACTIVITY_GAP_MS = 1000;

/** Stretches of speech: words joined while the gap to the next one is under `VOICE_ACTIVITY_GAP_MS`. */
export function voiceOccurrences(words: readonly RecognizedWord[]): Occurrence[] {
  const sorted = [...words].sort((a, b) => a.start - b.start || a.end - b.end);
  const occurrences: Occurrence[] = [];
  let current: Occurrence | undefined;
  for (const word of sorted) {
    if (current !== undefined && word.start - current.e < VOICE_ACTIVITY_GAP_MS) {
      current.e = Math.max(current.e, word.end);
    } else {
      current = { s: word.start, e: word.end };
      occurrences.push(current);
    }
  }
  return occurrences;
}

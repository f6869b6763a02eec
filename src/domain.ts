/**
 * Terminology (the words the rest of the code uses):
 *
 * - media item: one upload, its bytes (the "original" stream) and everything computed from them.
 * - configuration: the JSON an upload carries; says how to process it and whom to call back.
 * - callback: one element of `configuration.publish.callbacks`; one URL to call when processing ends.
 * - delivery: the record of getting one callback to its receiver; it has one stable id (`webhook-id`).
 * - attempt: one HTTP try of a delivery.
 * - scheduled attempt: a point on the retry schedule; it runs as a burst of attempts in a row.
 * - burst: the attempts of one scheduled attempt (3 by default), stopping at the first success.
 *
 * Times inside a transcript (`s`, `e`) and `length` are milliseconds from the start of the media.
 */

export type MediaStatus = "accepted" | "running" | "finished" | "failed";

/** A `words[]` entry of a VoiceBase transcript: a spoken word, a punctuation mark or a speaker turn. */
export interface Word {
  /** Position in the transcript, from 0, counting every entry. */
  p: number;
  /** Confidence, 0..1. */
  c: number;
  s: number;
  e: number;
  w: string;
  /** `"punc"` for punctuation, `"turn"` where the speaker changes (then `w` is the speaker's name). */
  m?: "punc" | "turn";
  /** Speaker-local volume, as VoiceBase's `v`; Hark reports the channel index the word came from. */
  v?: number;
}

export interface Occurrence {
  s: number;
  e: number;
}

export interface VoiceActivity {
  speakerName: string;
  occurrences: Occurrence[];
}

export type TranscriptFormat = "json" | "text" | "srt" | "webvtt" | "dfxp";

export interface AlternateFormat {
  format: Exclude<TranscriptFormat, "json">;
  contentType: string;
  contentEncoding: "base64";
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
}

/** One speaker's words: a channel of a stereo call, or the whole mix. */
export interface SpeakerWords {
  speakerName: string;
  channel: number;
  words: RecognizedWord[];
}

export interface ErrorEntry {
  code: number;
  error: string;
}

export interface Message {
  code: number;
  message: string;
}

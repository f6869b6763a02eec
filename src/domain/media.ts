/**
 * Hark's vocabulary. The words the rest of the code uses:
 *
 * - media item: one upload, its bytes (the "original" stream) and everything computed from them.
 * - configuration: the JSON an upload carries; says how to process it and whom to call back.
 * - callback: one element of `configuration.publish.callbacks`; one URL to call when processing ends.
 * - delivery: the record of getting one callback to its receiver; it has one stable id (`webhook-id`).
 * - attempt: one HTTP try of a delivery.
 * - scheduled attempt: a point on the retry schedule; it runs as a burst of attempts in a row.
 * - burst: the attempts of one scheduled attempt (3 by default), stopping at the first success.
 * - run: one processing of a media item. The upload starts run 0; each reprocess (`POST
 *   /v3/media/{mediaId}`) starts the next, from the stored original, with its own configuration and
 *   its own deliveries.
 * - document: what a client reads of a media item (the media document, the transcript document); rendered
 *   from the media item by `src/documents/`.
 *
 * Times inside a transcript (`s`, `e`) and `length` are milliseconds from the start of the media.
 *
 * `src/domain/` imports nothing else of `src/`: every other layer may use it, and it uses none of them.
 */
import type { Account } from "./account.ts";
import type { Configuration } from "./configuration.ts";
import type { ErrorEntry, Message } from "./errors.ts";

export type MediaStatus = "accepted" | "running" | "finished" | "failed";

/** The client's own description of an upload (VoiceBase's `VbMetadata`). */
export interface Metadata {
  title?: string;
  description?: string;
  externalId?: string;
  extended?: Record<string, unknown>;
}

/**
 * Where a client finds an item's parts: the public URL of the API, and a link to each stream that works
 * without the account's token (VoiceBase's `streamLocation`).
 */
export interface MediaLinks {
  publicUrl: string;
  stream(mediaId: string, streamName: string): string;
}

/** The computed sections of a media document, by name (`transcript`, `knowledge`, ...). */
export type Sections = Record<string, unknown>;

/** The processing tasks, in the order `GET .../progress` lists them. */
export const TASKS = ["ingest", "transcribe", "analyse"] as const;

export interface ProgressTask {
  status: "pending" | "started" | "finished" | "failed";
  /** 0..1 */
  fraction?: number;
}

/**
 * The phases of one processing run whose wall time is measured, in the order they start: fetching a
 * `mediaUrl`, probing and decoding to the recogniser's PCM, looking for silences to cut at, recognising
 * the pieces, everything made from the words (transcript, analyses, voice features, redacted audio,
 * formats, encryption), and the final statement with the callbacks' bodies. Phases of two channels run
 * side by side, so their times may add up to more than the run's.
 */
export const PHASES = ["download", "decode", "silenceScan", "recognition", "analysis", "end"] as const;
export type Phase = (typeof PHASES)[number];

/** Milliseconds each phase that ran was under way, and the whole run (Hark's addition to progress). */
export interface PhaseTimes {
  phasesMs: Partial<Record<Phase, number>>;
  totalMs: number;
}

export interface MediaRecord {
  mediaId: string;
  account: Account;
  status: MediaStatus;
  configuration: Configuration;
  metadata: Metadata | undefined;
  mediaUrl: string | undefined;
  mediaContentType: string | undefined;
  originalBlob: string | undefined;
  originalBytes: number | undefined;
  /** The `redacted-audio` stream, once processing has made one. */
  redactedBlob: string | undefined;
  lengthMs: number | undefined;
  sections: Sections;
  errors: ErrorEntry[] | undefined;
  messages: Message[];
  progress: Record<string, ProgressTask>;
  /** The last run's phase times: what has ended of them while it runs, all of them once it has ended. */
  phaseTimes?: PhaseTimes;
  timeToLiveSeconds: number;
  dateCreated: Date;
  dateFinished: Date | undefined;
  expiresOn: Date;
  /** Which run the item is in (see above); absent in records made before reprocessing existed: 0. */
  run?: number;
  /** The corrected transcript a reprocess gave: processing aligns it to the recognised words. */
  givenTranscript?: string;
}

/**
 * What a media listing shows of an item (VoiceBase's `VbMediaSummary`): the envelope and the metadata, read
 * without the results, which may be large.
 */
export type MediaSummaryRecord = Pick<
  MediaRecord,
  | "mediaId"
  | "account"
  | "status"
  | "metadata"
  | "mediaContentType"
  | "lengthMs"
  | "errors"
  | "timeToLiveSeconds"
  | "dateCreated"
  | "dateFinished"
  | "expiresOn"
> & { configuration: Pick<Configuration, "encryption"> };

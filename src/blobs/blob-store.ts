/**
 * Where media bytes live. Keys are slash-separated paths such as `media/<mediaId>/original`. Bytes are
 * always streamed: nothing here holds a whole media file in memory.
 */
import type { Readable } from "node:stream";

export interface BlobStore {
  /** Streams `source` into `key`; the blob appears whole or not at all. Resolves to the byte count. */
  put(key: string, source: Readable): Promise<number>;
  /** Streams the blob; rejects with `BlobNotFoundError` when there is none. */
  read(key: string): Promise<Readable>;
  /** The blob's size, or undefined when there is none. */
  size(key: string): Promise<number | undefined>;
  /** Runs `work` with a local file path holding the blob (tools like ffmpeg need a file). */
  withLocalFile<T>(key: string, work: (file: string) => Promise<T>): Promise<T>;
  /** Removes the blob; removing none is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every blob whose key starts with `prefix`; removing nothing is not an error. */
  deletePrefix(prefix: string): Promise<void>;
}

export class BlobNotFoundError extends Error {
  override name = "BlobNotFoundError";
}

/**
 * Throws unless `key` is one or more slash-separated segments of letters, digits, `.`, `_` and `-`,
 * none of them all dots. Every store checks keys this way, so a key one store refuses (one that would
 * climb out of the filesystem root, say) is refused by all of them.
 */
export function assertBlobKey(key: string): void {
  if (
    !/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(key) ||
    key.split("/").some((part) => /^\.+$/.test(part))
  ) {
    throw new Error(`invalid blob key: ${key}`);
  }
}

export function mediaPrefix(mediaId: string): string {
  return `media/${mediaId}/`;
}

export function originalKey(mediaId: string): string {
  return `${mediaPrefix(mediaId)}original`;
}

/**
 * A rendered callback body too large to keep in its delivery row. A reprocess's run has keys of its own:
 * an earlier run's delivery may still be retrying, and every try must send the bytes it was given.
 */
export function callbackBodyKey(mediaId: string, position: number, run = 0): string {
  return `${mediaPrefix(mediaId)}callback-${run === 0 ? "" : `${run}-`}${position}`;
}

/** Keyed by run for the reason `callbackBodyKey` is: an earlier run's media callback may still send it. */
export function redactedAudioKey(mediaId: string, run = 0): string {
  return `${mediaPrefix(mediaId)}redacted-audio${run === 0 ? "" : `-${run}`}`;
}

/** An encrypted item's whole media document, encrypted (`GET /v3/media/{mediaId}/encrypted`). */
export function encryptedResultsKey(mediaId: string): string {
  return `${mediaPrefix(mediaId)}encrypted`;
}

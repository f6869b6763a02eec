/**
 * What the API and the workers need from the outside world, as narrow interfaces. `main` builds the
 * real ones; tests build theirs (a fresh database, a temporary blob directory, a fixed clock).
 */
import type { EventEmitter } from "node:events";
import type { Logger } from "pino";
import type { BlobStore } from "./blobs/blob-store.ts";
import type { CallbackSender } from "./net/callback-sender.ts";
import type { Limiter } from "./pipeline/pool.ts";
import type { Recognizer } from "./pipeline/recognizer.ts";
import type { Settings } from "./settings.ts";
import type { Database } from "./store/database.ts";
import type { JobQueue } from "./store/job-queue.ts";

/** Something running that can be stopped: a server, a dispatcher, a whole Hark. */
export interface Stoppable {
  stop(): Promise<void>;
}

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * What happened, for whoever listens in this process: tests wait on these instead of sleeping, and
 * operators may hook metrics to them. Emitted after the change has committed.
 */
export interface HarkEventMap {
  "media.ended": [{ mediaId: string; status: "finished" | "failed" }];
  /** Processing of a media item deleted meanwhile has stopped and its files are gone. */
  "media.cancelled": [{ mediaId: string }];
  /** A client asked for a callback again: it is due now. */
  "delivery.scheduled": [{ deliveryId: string; mediaId: string }];
  /** A scheduled attempt of a delivery has run its burst; `state` is where the delivery now stands. */
  "delivery.burst-ended": [
    { deliveryId: string; mediaId: string; state: "succeeded" | "will-retry" | "exhausted" },
  ];
}

export type HarkEvents = EventEmitter<HarkEventMap>;

export interface Services {
  settings: Settings;
  db: Database;
  blobs: BlobStore;
  jobs: JobQueue;
  recognizer: Recognizer;
  /**
   * How many engine processes (pocketsphinx) run at once in this process, over every item it
   * transcribes: items processed side by side share the cores rather than each taking them all.
   */
  engines: Limiter;
  sender: CallbackSender;
  clock: Clock;
  log: Logger;
  events: HarkEvents;
  /** The HMAC key of stream links (documents/stream-links.ts), the same in every process. */
  streamLinkSecret: Buffer;
}

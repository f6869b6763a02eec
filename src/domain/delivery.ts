/**
 * The delivery model. A delivery moves
 * waiting → pending → trying → succeeded | will-retry (→ trying …) | exhausted, or waiting → skipped:
 * waiting until processing ends, pending once its body is decided, trying while a burst of attempts runs.
 * Every attempt is recorded, whatever its outcome. See media.ts for the terminology.
 */
import type { Callback } from "./configuration.ts";

export type DeliveryState =
  "waiting" | "pending" | "trying" | "succeeded" | "will-retry" | "exhausted" | "skipped";

/** A delivery: one callback of one media item, and where getting it to its receiver stands. */
export interface DeliveryRecord {
  deliveryId: string;
  mediaId: string;
  position: number;
  callback: Callback;
  state: DeliveryState;
  firstTryAt: Date | undefined;
  scheduledAttempt: number;
  nextTryAt: Date | undefined;
  endedAt: Date | undefined;
}

/** A delivery claimed by a dispatcher for one burst: what its tries send. */
export interface ClaimedDelivery extends DeliveryRecord {
  /** Identifies this claim: the burst's outcome is written only while the claim still holds. */
  claim: string;
  contentType: string;
  firstTryAt: Date;
  /** The rendered body; undefined when the bytes are in `bodyBlob`. */
  body: Buffer | undefined;
  /**
   * A media callback's stream, a rendered body larger than `HARK_CALLBACK_INLINE_BODY_BYTES`, or one
   * rendered by a release before bodies moved into rows.
   */
  bodyBlob: string | undefined;
}

/**
 * The least time between two accepted redeliveries of one callback: each sends its whole body again (a
 * media callback, the recording), so a client looping on "send it again" is held to one burst a minute.
 */
export const REDELIVERY_INTERVAL_MS = 60_000;

/** What processing's end decides for a callback: never sent, or pending with the bytes every try sends. */
export type DeliveryFate =
  | { position: number; state: "skipped" }
  | { position: number; state: "pending"; contentType: string; body: Buffer }
  | { position: number; state: "pending"; contentType: string; bodyBlob: string };

/** Why a try failed, when it did not get a 2xx. */
/** Why a try failed; `body-missing`: the stored body is gone, so no try can ever be made. */
export type ErrorKind =
  "dns" | "connect" | "tls" | "timeout" | "refused-address" | "http-status" | "body-missing";

export interface TryResult {
  succeeded: boolean;
  durationMs: number;
  statusCode?: number;
  errorKind?: ErrorKind;
  errorMessage?: string;
  /** The first 1 KiB of the response body. */
  responseSnippet?: string;
  /** How long a 429 or 503 answer asked to wait (its Retry-After), in ms. */
  retryAfterMs?: number;
}

export interface AttemptRecord {
  deliveryId: string;
  scheduledAttempt: number;
  try: number;
  startedAt: Date;
  durationMs: number;
  statusCode?: number;
  errorKind?: ErrorKind;
  errorMessage?: string;
  responseSnippet?: string;
  succeeded: boolean;
  /** A 429 or 503 answer's Retry-After, ms: it decides the next scheduled attempt; not stored. */
  retryAfterMs?: number;
}

/** A try as the delivery log shows it. */
export interface LoggedAttempt extends Omit<AttemptRecord, "deliveryId"> {
  attemptId: number;
}

export interface AttemptSummary {
  count: number;
  last?: { at: Date; statusCode?: number; errorKind?: ErrorKind };
}

export type BurstOutcome =
  | { state: "succeeded"; at: Date }
  | { state: "will-retry"; nextIndex: number; nextAt: Date }
  | { state: "exhausted"; at: Date };

/** How a burst ended: its outcome, and the try that ended it. */
export interface BurstEnd {
  deliveryId: string;
  claim: string;
  outcome: BurstOutcome;
  lastTry: AttemptRecord;
}

/**
 * One scheduled attempt of a claimed delivery: a burst of up to `HARK_CALLBACK_BURST` tries in a row,
 * stopping at the first success. Every try is recorded; the one that ends the burst is handed back with
 * the burst's outcome (the next scheduled attempt, counted from the first try so a restart does not shift
 * the schedule, or the end) for the dispatcher to record, many bursts in one statement.
 *
 * A burst cut short by a crash runs again from its first try once its claim lapses, and one handed back
 * by a stopping process at once: a receiver may see a try twice, always with the same `webhook-id`.
 */
import type { AttemptRecord, BurstEnd, BurstOutcome, ClaimedDelivery } from "../domain/delivery.ts";
import { nextScheduledAttempt, type Schedule } from "../domain/schedule.ts";
import type { OutboundRequest } from "../net/callback-sender.ts";
import type { Services } from "../services.ts";
import type { Settings } from "../settings.ts";
import { recordAttempt } from "../store/deliveries.ts";
import { signatureHeader, signatureHeaderOfStream } from "./signature.ts";
import { USER_AGENT } from "./user-agent.ts";

export function scheduleOf(settings: Settings): Schedule {
  return { offsetsMs: settings.callbackScheduleMs, burst: settings.callbackBurst };
}

/** Beyond a try's own time limit, how long a claim holds: DNS and database time, and some. */
const CLAIM_MARGIN_MS = 30_000;

/**
 * How long a claim on a delivery holds before another dispatcher may take it over, counted afresh at each
 * try: one whole try at its time limit, and a margin.
 */
export function claimMs(settings: Settings): number {
  return settings.callbackTimeoutMs + CLAIM_MARGIN_MS;
}

/** Thrown by a burst that stopped before a try because its process is stopping. */
export class BurstHandedBackError extends Error {
  override name = "BurstHandedBackError";
}

/**
 * `secrets`: the account's active signing secrets, each signing every try; none, and tries go unsigned.
 * `handBack`: once aborted, the burst makes no further try (the one under way ends first) and rejects
 * with `BurstHandedBackError`, every try it made recorded.
 */
export async function runBurst(
  services: Services,
  delivery: ClaimedDelivery,
  secrets: readonly string[] = [],
  handBack?: AbortSignal,
): Promise<BurstEnd> {
  const { db, clock, settings } = services;
  const schedule = scheduleOf(settings);
  const body = await bodyOf(services, delivery);
  if (body === undefined) return bodyGone(services, delivery);
  let lastTry: AttemptRecord | undefined;
  for (let attempt = 0; attempt < schedule.burst; attempt++) {
    if (lastTry) {
      // The try before did not end the burst: it is recorded now, and the claim extended for this one.
      await recordAttempt(db, lastTry, {
        claim: delivery.claim,
        until: new Date(clock.now().getTime() + claimMs(settings)),
      });
    }
    if (handBack?.aborted) throw new BurstHandedBackError(`delivery ${delivery.deliveryId} handed back`);
    const startedAt = clock.now();
    const timestamp = Math.floor(startedAt.getTime() / 1000);
    const result = await services.sender.send({
      url: delivery.callback.url,
      method: delivery.callback.method,
      headers: {
        "content-type": delivery.contentType,
        "content-length": String(body.length),
        "user-agent": USER_AGENT,
        "webhook-id": delivery.deliveryId,
        "webhook-timestamp": String(timestamp),
        ...(secrets.length > 0 && {
          "webhook-signature": await signatureOf(secrets, delivery.deliveryId, timestamp, body),
        }),
      },
      body,
    });
    lastTry = {
      deliveryId: delivery.deliveryId,
      scheduledAttempt: delivery.scheduledAttempt,
      try: attempt,
      startedAt,
      ...result,
    };
    // A receiver that asked to wait (Retry-After) or to stop (410 Gone) gets no more tries now.
    if (result.succeeded || result.statusCode === GONE || result.retryAfterMs !== undefined) break;
  }
  if (!lastTry) throw new Error("a burst makes at least one try");
  return {
    deliveryId: delivery.deliveryId,
    claim: delivery.claim,
    outcome: outcomeOf(schedule, delivery, lastTry, clock.now()),
    lastTry,
  };
}

const GONE = 410;

/**
 * Where a delivery stands after the burst that `last` ended. 410 Gone ends it (the receiver will never
 * want it); a Retry-After moves the next try to the first scheduled attempt after the wait. Pure.
 */
export function outcomeOf(
  schedule: Schedule,
  delivery: Pick<ClaimedDelivery, "firstTryAt" | "scheduledAttempt">,
  last: Pick<AttemptRecord, "succeeded" | "statusCode" | "retryAfterMs">,
  now: Date,
): BurstOutcome {
  if (last.succeeded) return { state: "succeeded", at: now };
  if (last.statusCode === GONE) return { state: "exhausted", at: now };
  const notBefore = last.retryAfterMs === undefined ? undefined : new Date(now.getTime() + last.retryAfterMs);
  const next = nextScheduledAttempt(schedule, delivery.firstTryAt, delivery.scheduledAttempt, notBefore);
  return next
    ? { state: "will-retry", nextIndex: next.index, nextAt: next.at }
    : { state: "exhausted", at: now };
}

/**
 * The `webhook-signature` of one try. The timestamp is signed too, so each try hashes its body afresh: a
 * media body in one pass over a stream of its own.
 */
async function signatureOf(
  secrets: readonly string[],
  deliveryId: string,
  timestamp: number,
  body: OutboundRequest["body"],
): Promise<string> {
  if (Buffer.isBuffer(body)) return signatureHeader(secrets, deliveryId, timestamp, body);
  return signatureHeaderOfStream(secrets, deliveryId, timestamp, await body.open());
}

/**
 * A body kept in its row is sent from memory; one in the blob store (a media stream, a large rendered body)
 * is opened afresh for each try, never buffered. Undefined when that blob is gone.
 */
async function bodyOf(
  services: Services,
  delivery: ClaimedDelivery,
): Promise<OutboundRequest["body"] | undefined> {
  if (delivery.body) return delivery.body;
  const key = delivery.bodyBlob;
  if (key === undefined) throw new Error(`delivery ${delivery.deliveryId} has no body`);
  const length = await services.blobs.size(key);
  if (length === undefined) return undefined;
  return { open: () => services.blobs.read(key), length };
}

/**
 * A delivery whose body is gone from the blob store (deleted by hand, a lost bucket, a restore without
 * blobs) can never be sent: it ends exhausted, with a try that says why, rather than failing its burst,
 * which would leave it claimed and taken again each time its claim lapses, forever, and keep the sweeper
 * from deleting its item. Nothing is sent.
 */
function bodyGone(services: Services, delivery: ClaimedDelivery): BurstEnd {
  const now = services.clock.now();
  // The blob's key is Hark's own business: it goes to the log, not into the client's delivery log.
  const errorMessage = "The callback's stored body is gone; it can never be sent";
  services.log.error(
    { deliveryId: delivery.deliveryId, mediaId: delivery.mediaId, blob: delivery.bodyBlob },
    "a callback's body is gone; the delivery is exhausted",
  );
  return {
    deliveryId: delivery.deliveryId,
    claim: delivery.claim,
    outcome: { state: "exhausted", at: now },
    lastTry: {
      deliveryId: delivery.deliveryId,
      scheduledAttempt: delivery.scheduledAttempt,
      try: 0,
      startedAt: now,
      durationMs: 0,
      errorKind: "body-missing",
      errorMessage,
      succeeded: false,
    },
  };
}

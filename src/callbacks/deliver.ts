/**
 * One scheduled attempt of a delivery: a burst of up to `HARK_CALLBACK_BURST` tries in a row, stopping at
 * the first success. Every try is recorded. After a failed burst the next scheduled attempt is queued at
 * its time (from the first try, so a restart does not shift the schedule) in the same transaction as the
 * state change, or the delivery is exhausted.
 *
 * A burst interrupted by a crash runs again from its first try: a receiver may see a try twice, always
 * with the same `webhook-id`.
 */
import { buffer } from "node:stream/consumers";
import { BlobNotFoundError } from "../blobs/blob-store.ts";
import type { DeliverJob } from "../jobs/queue.ts";
import type { Services } from "../services.ts";
import type { Settings } from "../settings.ts";
import {
  type AttemptRecord,
  type BurstOutcome,
  endBurst,
  recordAttempt,
  startBurst,
} from "../store/deliveries.ts";
import { nextScheduledAttempt, type Schedule } from "./schedule.ts";
import type { OutboundRequest } from "./send.ts";
import { USER_AGENT } from "./user-agent.ts";

export function scheduleOf(settings: Settings): Schedule {
  return { offsetsMs: settings.callbackScheduleMs, burst: settings.callbackBurst };
}

/** A burst takes at most this long; a claimed job older than this was abandoned by a dead worker. */
export function deliveryExpireSeconds(settings: Settings): number {
  return Math.ceil((settings.callbackBurst * settings.callbackTimeoutMs) / 1000) + 60;
}

export async function runScheduledAttempt(services: Services, job: DeliverJob): Promise<void> {
  const { db, clock } = services;
  // Nothing to do when the delivery has ended or moved past this attempt (a job run again).
  const delivery = await startBurst(db, job.deliveryId, job.scheduledAttempt);
  if (!delivery) return;
  if (
    delivery.bodyBlob === undefined ||
    delivery.contentType === undefined ||
    delivery.firstTryAt === undefined
  ) {
    throw new Error(`delivery ${delivery.deliveryId} has no rendered body`);
  }
  const schedule = scheduleOf(services.settings);
  // Small bodies are read once for the whole burst; a media stream is opened afresh for each try.
  let body: OutboundRequest["body"];
  if (delivery.callback.type === "media") {
    const size = await services.blobs.size(delivery.bodyBlob);
    if (size === undefined)
      throw new BlobNotFoundError(`the body of delivery ${delivery.deliveryId} is gone`);
    body = { open: () => services.blobs.read(delivery.bodyBlob as string), length: size };
  } else {
    body = await buffer(await services.blobs.read(delivery.bodyBlob));
  }
  const size = body.length;

  let outcome: BurstOutcome | undefined;
  // The try that ends the burst is recorded with the burst's outcome, in one statement; the others at once.
  let lastTry: AttemptRecord | undefined;
  for (let attempt = 0; attempt < schedule.burst && !outcome; attempt++) {
    const startedAt = clock.now();
    const result = await services.sender.send({
      url: delivery.callback.url,
      method: delivery.callback.method,
      headers: {
        "content-type": delivery.contentType,
        "content-length": String(size),
        "user-agent": USER_AGENT,
        "webhook-id": delivery.deliveryId,
        "webhook-timestamp": String(Math.floor(startedAt.getTime() / 1000)),
      },
      body,
    });
    const tried: AttemptRecord = {
      deliveryId: delivery.deliveryId,
      scheduledAttempt: job.scheduledAttempt,
      try: attempt,
      startedAt,
      ...result,
    };
    if (result.succeeded) outcome = { state: "succeeded", at: clock.now() };
    if (result.succeeded || attempt === schedule.burst - 1) lastTry = tried;
    else await recordAttempt(db, tried);
  }
  if (!outcome) {
    const next = nextScheduledAttempt(schedule, delivery.firstTryAt, job.scheduledAttempt);
    outcome = next
      ? { state: "will-retry", nextIndex: next.index, nextAt: next.at }
      : { state: "exhausted", at: clock.now() };
  }
  const ended = outcome;
  if (ended.state === "will-retry") {
    await db.transaction(async (sql) => {
      await endBurst(sql, delivery.deliveryId, ended, lastTry);
      await services.jobs.enqueueDelivery(
        sql,
        { deliveryId: delivery.deliveryId, scheduledAttempt: ended.nextIndex },
        ended.nextAt,
      );
    });
  } else {
    // No job to queue: the one statement is atomic on its own.
    await endBurst(db, delivery.deliveryId, ended, lastTry);
  }
  services.events.emit("delivery.burst-ended", {
    deliveryId: delivery.deliveryId,
    mediaId: delivery.mediaId,
    state: ended.state,
  });
}

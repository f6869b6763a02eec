/**
 * The `callbacks` section of `GET /v3/media/{mediaId}`: each callback of the upload and how its delivery
 * stands. Hark's addition to the VoiceBase document; not part of callback bodies (rendered when
 * processing ends, they would only ever say "pending"); and the delivery log of
 * `GET /v3/media/{mediaId}/callbacks`, which adds every try. Pure.
 */
import type { AttemptSummary, DeliveryRecord, LoggedAttempt } from "../domain/delivery.ts";

/** Query strings of callback URLs often hold credentials (pre-signed URLs): their values are not shown. */
export function maskQuery(url: string): string {
  const parsed = new URL(url);
  for (const key of new Set(parsed.searchParams.keys())) parsed.searchParams.set(key, "***");
  return parsed.href.replaceAll("%2A%2A%2A", "***");
}

/** A callback as the API shows it: its settings (URL query masked), where its delivery stands. */
export function describeCallback(delivery: DeliveryRecord) {
  const { url, ...callback } = delivery.callback;
  return {
    deliveryId: delivery.deliveryId,
    url: maskQuery(url),
    ...callback,
    state: delivery.state,
    ...(delivery.nextTryAt &&
      (delivery.state === "pending" || delivery.state === "will-retry") && {
        nextAttemptDate: delivery.nextTryAt.toISOString(),
      }),
  };
}

export function callbacksSection(
  deliveries: readonly DeliveryRecord[],
  attempts: Map<string, AttemptSummary>,
) {
  return deliveries.map((delivery) => {
    const summary = attempts.get(delivery.deliveryId);
    return {
      ...describeCallback(delivery),
      attempts: summary?.count ?? 0,
      ...(summary?.last && {
        lastAttempt: {
          date: summary.last.at.toISOString(),
          ...(summary.last.statusCode !== undefined && { statusCode: summary.last.statusCode }),
          ...(summary.last.errorKind !== undefined && { errorKind: summary.last.errorKind }),
        },
      }),
    };
  });
}

/** One callback in the log: what it is, where it stands, and every try. */
export function deliveryLogEntry(delivery: DeliveryRecord, attempts: readonly LoggedAttempt[]) {
  return {
    ...describeCallback(delivery),
    ...(delivery.endedAt && { dateEnded: delivery.endedAt.toISOString() }),
    attempts: attempts.map((attempt) => ({
      date: attempt.startedAt.toISOString(),
      scheduledAttempt: attempt.scheduledAttempt,
      try: attempt.try,
      succeeded: attempt.succeeded,
      durationMs: attempt.durationMs,
      ...(attempt.statusCode !== undefined && { statusCode: attempt.statusCode }),
      ...(attempt.errorKind !== undefined && { errorKind: attempt.errorKind }),
      ...(attempt.errorMessage !== undefined && { errorMessage: attempt.errorMessage }),
      ...(attempt.responseSnippet !== undefined && { responseSnippet: attempt.responseSnippet }),
    })),
  };
}

/**
 * The `callbacks` section of `GET /v3/media/{mediaId}`: each callback of the upload and how its delivery
 * stands. Hark's addition to the VoiceBase document; not part of callback bodies (rendered when
 * processing ends, they would only ever say "pending"). Pure.
 */
import type { AttemptSummary, DeliveryRecord } from "../store/deliveries.ts";

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

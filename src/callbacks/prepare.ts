/**
 * The callbacks' part of the "processing ended" transaction: each pending delivery's body is rendered
 * once and stored, and its first scheduled attempt queued for now. Every try sends those same bytes.
 */
import { Readable } from "node:stream";
import { mediaPrefix } from "../blobs/blob-store.ts";
import type { Services } from "../services.ts";
import type { Sql } from "../store/database.ts";
import { scheduleFirstTry, skipDelivery } from "../store/deliveries.ts";
import type { MediaRecord } from "../store/media.ts";
import { renderCallbackBody } from "./render-body.ts";

export function bodyKey(mediaId: string, deliveryId: string): string {
  return `${mediaPrefix(mediaId)}callbacks/${deliveryId}`;
}

/**
 * `media` is the item as processing left it, read inside the transaction. A body written before a
 * rollback is left behind harmlessly: the next run writes the same key, and deleting the item removes it.
 */
export async function prepareDeliveries(
  services: Pick<Services, "blobs" | "jobs" | "settings">,
  sql: Sql,
  media: MediaRecord,
  pending: { deliveryId: string; position: number }[],
  now: Date,
): Promise<void> {
  for (const { deliveryId, position } of pending) {
    const callback = media.configuration.callbacks[position];
    const body = callback && renderCallbackBody(callback, media, services.settings.publicUrl);
    if (!body) {
      await skipDelivery(sql, deliveryId, now);
      continue;
    }
    let bodyBlob: string;
    if ("bytes" in body) {
      bodyBlob = bodyKey(media.mediaId, deliveryId);
      await services.blobs.put(bodyBlob, Readable.from([body.bytes]));
    } else if (media.originalBlob !== undefined) {
      bodyBlob = media.originalBlob;
    } else {
      await skipDelivery(sql, deliveryId, now);
      continue;
    }
    await scheduleFirstTry(sql, deliveryId, { contentType: body.contentType, bodyBlob, at: now });
    await services.jobs.enqueueDelivery(sql, { deliveryId, scheduledAttempt: 0 }, now);
  }
}

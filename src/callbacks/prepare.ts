/**
 * The callbacks' part of processing's end: each callback's fate, decided once. A callback with something
 * to send is pending, with the body rendered now (every try sends these same bytes) or, for a media
 * callback, the stream to send; one with nothing to send (a transcript after failed processing, a stream
 * the item does not have) is skipped. Pure.
 */
import { streamBlob } from "../documents/media-document.ts";
import type { DeliveryFate } from "../domain/delivery.ts";
import type { MediaLinks, MediaRecord } from "../domain/media.ts";
import { renderCallbackBody } from "./render-body.ts";

/** `media` is the item as processing left it (status, result, dates). One fate per callback, in order. */
export function deliveryFates(media: MediaRecord, links: MediaLinks): DeliveryFate[] {
  return media.configuration.callbacks.map((callback, position): DeliveryFate => {
    const body = renderCallbackBody(callback, media, links);
    if (body && "bytes" in body)
      return { position, state: "pending", contentType: body.contentType, body: body.bytes };
    const blob = body && "stream" in body ? streamBlob(media, body.stream) : undefined;
    if (body && blob !== undefined)
      return { position, state: "pending", contentType: body.contentType, bodyBlob: blob };
    return { position, state: "skipped" };
  });
}

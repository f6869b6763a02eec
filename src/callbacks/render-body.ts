/**
 * The body of a callback, decided when processing ends: what its type and format say, with the
 * Content-Type of spec/callbacks.md exactly (no charset: a pre-signed object-storage URL may have signed
 * the type). Pure. Bodies of type `media` are the stream's bytes, sent as stored rather than rendered.
 */
import { mediaDocument, transcriptDocument } from "../documents/media-document.ts";
import type { Callback } from "../domain/configuration.ts";
import type { MediaLinks, MediaRecord } from "../domain/media.ts";
import type { Transcript } from "../domain/transcript.ts";
import { CONTENT_TYPES, renderFormat } from "../formats/index.ts";

export const MEDIA_CONTENT_TYPE = "application/octet-stream";

export type CallbackBody =
  | { contentType: string; bytes: Buffer }
  | { contentType: typeof MEDIA_CONTENT_TYPE; stream: "original" | "redacted-audio" };

/**
 * `media` must be the item as processing left it (status, result, dates). Resolves to undefined when the
 * callback has nothing to send: a transcript or media callback after failed processing. Whether the item
 * has the stream a media callback names is for `deliveryFates` to find out.
 */
export function renderCallbackBody(
  callback: Callback,
  media: MediaRecord,
  links: MediaLinks,
): CallbackBody | undefined {
  switch (callback.type) {
    case "analytics":
      return json(mediaDocument(media, links, callback.include));
    case "transcript": {
      if (media.status !== "finished") return undefined;
      if (callback.format === "json") return json(transcriptDocument(media, links.publicUrl, []));
      const words = (media.sections.transcript as Transcript).words;
      return {
        contentType: CONTENT_TYPES[callback.format],
        bytes: Buffer.from(renderFormat(callback.format, words), "utf8"),
      };
    }
    case "media":
      if (media.status !== "finished") return undefined;
      return { contentType: MEDIA_CONTENT_TYPE, stream: callback.stream };
  }
}

function json(document: unknown): CallbackBody {
  return { contentType: "application/json", bytes: Buffer.from(JSON.stringify(document), "utf8") };
}

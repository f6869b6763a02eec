/** Finding the media item a `/v3/media/{mediaId}/...` request names, as its account sees it. */
import { Type } from "typebox";
import { ApiError } from "../domain/errors.ts";
import { mediaLinks } from "../documents/stream-links.ts";
import type { MediaLinks, MediaRecord } from "../domain/media.ts";
import type { Services } from "../services.ts";
import { getMedia } from "../store/media.ts";
import { UuidParameter } from "./schemas/common.ts";

export const MediaParams = Type.Object({
  mediaId: UuidParameter(
    "The media item's id, as the upload answered it. Another account's media is not found, as missing media is.",
  ),
});

/** The links of a document rendered now: its stream links live `HARK_STREAM_LINK_TTL_SECONDS` from now. */
export function linksNow(services: Services): MediaLinks {
  return mediaLinks(services.settings, services.streamLinkSecret, services.clock.now());
}

/** Another account's media answers exactly as missing media does: the caller learns nothing of it. */
export async function findMedia(
  services: Services,
  accountId: string,
  mediaId: string,
): Promise<MediaRecord> {
  const media = await getMedia(services.db, mediaId.toLowerCase(), accountId);
  if (!media) throw new ApiError("notFound", `There is no media ${JSON.stringify(mediaId)} in this account`);
  return media;
}

/** Results exist only once processing has finished. */
export function requireFinished(media: MediaRecord, what: string): void {
  if (media.status !== "finished") {
    throw new ApiError(
      "notFinished",
      `The ${what} is available once processing has finished; this media is ${media.status}. Poll GET /v3/media/${media.mediaId} or use a callback`,
    );
  }
}

/** An encrypted item's transcript exists only inside its encrypted results (`GET .../encrypted`). */
export function requirePlaintext(media: MediaRecord): void {
  if (media.configuration.encryption !== undefined) {
    throw new ApiError(
      "notFound",
      `Media ${media.mediaId} is encrypted to your public key: its results are at GET /v3/media/${media.mediaId}/encrypted`,
    );
  }
}

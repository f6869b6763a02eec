/** Finding the media item a `/v3/media/{mediaId}/...` request names, as its account sees it. */
import type { FastifyRequest } from "fastify";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { getMedia } from "../store/media.ts";
import { isUuid } from "../domain/ids.ts";
import type { MediaRecord } from "../domain/media.ts";

/** Another account's media answers exactly as missing media does: the caller learns nothing of it. */
export async function findMedia(services: Services, request: FastifyRequest): Promise<MediaRecord> {
  const { mediaId } = request.params as { mediaId: string };
  const media = isUuid(mediaId)
    ? await getMedia(services.db, mediaId.toLowerCase(), request.account.accountId)
    : undefined;
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

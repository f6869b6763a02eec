/**
 * Reading and deleting a media item: `GET /v3/media/{mediaId}`, `GET /v3/media/{mediaId}/progress` and
 * `DELETE /v3/media/{mediaId}`. Listing and searching is api/media-search.ts.
 */
import { mediaPrefix } from "../blobs/blob-store.ts";
import { callbacksSection } from "../documents/callbacks-section.ts";
import { mediaDocument, progressDocument } from "../documents/media-document.ts";
import type { Services } from "../services.ts";
import { attemptSummaries, deliveriesOf } from "../store/deliveries.ts";
import { deleteMedia } from "../store/media.ts";
import type { HarkApp } from "./hark-app.ts";
import { findMedia, linksNow, MediaParams } from "./media-lookup.ts";
import { accountRefusals, NoContent, response } from "./schemas/common.ts";
import { MediaDocument, Progress } from "./schemas/media.ts";

const TAGS = ["Media"];

export function registerMediaReadRoutes(app: HarkApp, services: Services): void {
  const { db, blobs, settings } = services;

  app.get(
    "/v3/media/:mediaId",
    {
      schema: {
        operationId: "getMediaById",
        tags: TAGS,
        summary: "Get the media document: status and every section computed so far",
        description:
          "An encrypted item shows its envelope with `encryption`, its encrypted streams, and no results or metadata (they are at `/encrypted`). `callbacks` is Hark's addition.",
        params: MediaParams,
        response: { 200: response(MediaDocument, "The media document."), ...accountRefusals("notFound") },
      },
    },
    async (request) => {
      const media = await findMedia(services, request.account.accountId, request.params.mediaId);
      const document = mediaDocument(media, linksNow(services));
      const deliveries = await deliveriesOf(db, media.mediaId);
      if (deliveries.length === 0) return document;
      return {
        ...document,
        callbacks: callbacksSection(deliveries, await attemptSummaries(db, media.mediaId)),
      };
    },
  );

  app.get(
    "/v3/media/:mediaId/progress",
    {
      schema: {
        operationId: "getProgressById",
        tags: TAGS,
        summary: "Get how far processing is",
        params: MediaParams,
        response: { 200: response(Progress, "The processing tasks."), ...accountRefusals("notFound") },
      },
    },
    async (request) => {
      const media = await findMedia(services, request.account.accountId, request.params.mediaId);
      return progressDocument(media, settings.publicUrl);
    },
  );

  app.delete(
    "/v3/media/:mediaId",
    {
      schema: {
        operationId: "deleteMediaById",
        tags: TAGS,
        summary: "Delete a media item and its bytes",
        params: MediaParams,
        response: { 204: NoContent("Deleted."), ...accountRefusals("notFound") },
      },
    },
    async (request, reply) => {
      const media = await findMedia(services, request.account.accountId, request.params.mediaId);
      if (await deleteMedia(db, media.mediaId, request.account.accountId)) {
        await blobs.deletePrefix(mediaPrefix(media.mediaId));
      }
      return reply.status(204).send();
    },
  );
}

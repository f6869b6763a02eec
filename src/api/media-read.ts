/**
 * Reading and deleting media: `GET /v3/media` (newest first), `GET /v3/media/{mediaId}`,
 * `GET /v3/media/{mediaId}/progress` and `DELETE /v3/media/{mediaId}`.
 */
import type { FastifyInstance } from "fastify";
import { mediaPrefix } from "../blobs/blob-store.ts";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { attemptSummaries, deliveriesOf } from "../store/deliveries.ts";
import { deleteMedia, listMedia } from "../store/media.ts";
import { callbacksSection } from "../documents/callbacks-section.ts";
import { mediaDocument, mediaSummary, progressDocument } from "../documents/media-document.ts";
import { findMedia } from "./media-lookup.ts";

export const DEFAULT_LIST_LIMIT = 100;
export const MAX_LIST_LIMIT = 1000;

export function registerMediaReadRoutes(app: FastifyInstance, services: Services): void {
  const { db, blobs, settings } = services;

  app.get("/v3/media", async (request) => {
    const query = request.query as Record<string, string | string[] | undefined>;
    const unknown = Object.keys(query).filter((key) => key !== "limit" && key !== "externalId");
    if (unknown.length > 0) {
      throw new ApiError(
        "invalidRequest",
        `Unknown query parameter ${unknown.join(", ")}; this endpoint takes limit and externalId`,
      );
    }
    const limit = parseLimit(query.limit);
    const externalId = single(query.externalId, "externalId");
    const media = await listMedia(db, request.account.accountId, {
      limit,
      ...(externalId !== undefined && { externalId }),
    });
    return {
      _links: { self: { href: `${settings.publicUrl}/v3/media` } },
      media: media.map((item) => mediaSummary(item, settings.publicUrl)),
    };
  });

  app.get("/v3/media/:mediaId", async (request) => {
    const media = await findMedia(services, request);
    const document = mediaDocument(media, settings.publicUrl);
    const deliveries = await deliveriesOf(db, media.mediaId);
    if (deliveries.length === 0) return document;
    return {
      ...document,
      callbacks: callbacksSection(deliveries, await attemptSummaries(db, media.mediaId)),
    };
  });

  app.get("/v3/media/:mediaId/progress", async (request) => {
    const media = await findMedia(services, request);
    return progressDocument(media, settings.publicUrl);
  });

  app.delete("/v3/media/:mediaId", async (request, reply) => {
    const media = await findMedia(services, request);
    if (await deleteMedia(db, media.mediaId, request.account.accountId)) {
      await blobs.deletePrefix(mediaPrefix(media.mediaId));
    }
    return reply.status(204).send();
  });
}

function single(value: string | string[] | undefined, name: string): string | undefined {
  if (Array.isArray(value)) throw new ApiError("invalidRequest", `Give the query parameter ${name} once`);
  return value;
}

function parseLimit(value: string | string[] | undefined): number {
  const text = single(value, "limit");
  if (text === undefined) return DEFAULT_LIST_LIMIT;
  const limit = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_LIST_LIMIT)) {
    throw new ApiError(
      "invalidRequest",
      `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}; got ${JSON.stringify(text)}`,
    );
  }
  return limit;
}

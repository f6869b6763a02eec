/**
 * The media streams: `GET /v3/media/{mediaId}/streams` lists them, `GET .../streams/{streamName}` sends
 * the bytes, streamed from the blob store.
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "../errors.ts";
import type { Services } from "../services.ts";
import type { StreamName } from "./configuration.ts";
import { mediaUrl, streamBlob, streamsOf } from "./media-document.ts";
import { findMedia } from "./media-lookup.ts";

export function registerStreamRoutes(app: FastifyInstance, services: Services): void {
  const { settings, blobs } = services;

  app.get("/v3/media/:mediaId/streams", async (request) => {
    const media = await findMedia(services, request);
    return {
      _links: { self: { href: `${mediaUrl(settings.publicUrl, media.mediaId)}/streams` } },
      streams: streamsOf(media, settings.publicUrl),
    };
  });

  app.get("/v3/media/:mediaId/streams/:streamName", async (request, reply) => {
    const media = await findMedia(services, request);
    const { streamName } = request.params as { streamName: string };
    const names = streamsOf(media, settings.publicUrl).map((stream) => stream.streamName);
    const key = names.includes(streamName) ? streamBlob(media, streamName as StreamName) : undefined;
    if (key === undefined) {
      throw new ApiError(
        "notFound",
        `This media has no stream ${JSON.stringify(streamName)}${names.length ? `; it has ${names.join(", ")}` : " yet"}`,
      );
    }
    const size = await blobs.size(key);
    if (size === undefined) throw new ApiError("notFound", `The stream ${streamName} is no longer stored`);
    // The redacted audio keeps the original's container and codec.
    return reply
      .header("content-type", media.mediaContentType ?? "application/octet-stream")
      .header("content-length", String(size))
      .send(await blobs.read(key));
  });
}

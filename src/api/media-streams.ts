/**
 * The media streams: `GET /v3/media/{mediaId}/streams` lists them, `GET .../streams/{streamName}` sends
 * the bytes, streamed from the blob store; and an encrypted item's results, `GET .../encrypted`.
 */
import type { FastifyInstance } from "fastify";
import { ApiError } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { encryptedResultsKey } from "../blobs/blob-store.ts";
import { availableStreams, isEncrypted, mediaUrl, streamsOf } from "../documents/media-document.ts";
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
    const streams = availableStreams(media);
    const key = streams.find((stream) => stream.name === streamName)?.blob;
    if (key === undefined) {
      const names = streams.map((stream) => stream.name);
      throw new ApiError(
        "notFound",
        `This media has no stream ${JSON.stringify(streamName)}${names.length ? `; it has ${names.join(", ")}` : " yet"}`,
      );
    }
    const size = await blobs.size(key);
    if (size === undefined) throw new ApiError("notFound", `The stream ${streamName} is no longer stored`);
    // The redacted audio keeps the original's container and codec; an encrypted stream is an OpenPGP
    // message.
    return reply
      .header(
        "content-type",
        isEncrypted(media)
          ? "application/octet-stream"
          : (media.mediaContentType ?? "application/octet-stream"),
      )
      .header("content-length", String(size))
      .send(await blobs.read(key));
  });

  // Client-supplied encryption: the whole media document, encrypted to the client's key (VoiceBase's
  // `getEncryptedMediaById`).
  app.get("/v3/media/:mediaId/encrypted", async (request, reply) => {
    const media = await findMedia(services, request);
    const key = encryptedResultsKey(media.mediaId);
    const size = isEncrypted(media) && media.status === "finished" ? await blobs.size(key) : undefined;
    if (size === undefined) {
      throw new ApiError(
        "notFound",
        isEncrypted(media)
          ? `Media ${media.mediaId} has no encrypted results yet; it is ${media.status}`
          : `Media ${media.mediaId} is not encrypted: its results are at GET /v3/media/${media.mediaId}`,
      );
    }
    return reply
      .header("content-type", "application/octet-stream")
      .header("content-length", String(size))
      .send(await blobs.read(key));
  });
}

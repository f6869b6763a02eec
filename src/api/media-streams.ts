/**
 * The media streams: `GET /v3/media/{mediaId}/streams` lists them, `GET .../streams/{streamName}` sends
 * the bytes, streamed from the blob store; and an encrypted item's results, `GET .../encrypted`.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { type Static, Type } from "typebox";
import { encryptedResultsKey } from "../blobs/blob-store.ts";
import { availableStreams, isEncrypted, mediaUrl, streamsOf } from "../documents/media-document.ts";
import { checkStreamLink } from "../documents/stream-links.ts";
import { ApiError } from "../domain/errors.ts";
import type { MediaRecord } from "../domain/media.ts";
import type { Services } from "../services.ts";
import type { HarkApp } from "./hark-app.ts";
import { getMedia } from "../store/media.ts";
import { requireAccount } from "./auth.ts";
import { findMedia, linksNow, MediaParams } from "./media-lookup.ts";
import { accountRefusals, Binary, response } from "./schemas/common.ts";
import { StreamList } from "./schemas/media.ts";

const TAGS = ["Media"];

const StreamParams = Type.Object({
  ...MediaParams.properties,
  streamName: Type.String({
    description:
      "A `streamName` the stream list gives: `original`, `redacted-audio`, or for an encrypted item `original-encrypted`, `redacted-encrypted`.",
  }),
});

export function registerStreamRoutes(app: HarkApp, services: Services): void {
  const { settings, blobs } = services;

  app.get(
    "/v3/media/:mediaId/streams",
    {
      schema: {
        operationId: "getStreamsById",
        tags: TAGS,
        summary: "List the media streams",
        params: MediaParams,
        response: {
          200: response(StreamList, "The streams the item has now."),
          ...accountRefusals("notFound"),
        },
      },
    },
    async (request) => {
      const media = await findMedia(services, request.account.accountId, request.params.mediaId);
      return {
        _links: { self: { href: `${mediaUrl(settings.publicUrl, media.mediaId)}/streams` } },
        streams: streamsOf(media, linksNow(services)),
      };
    },
  );

  // Client-supplied encryption: the whole media document, encrypted to the client's key (VoiceBase's
  // `getEncryptedMediaById`).
  app.get(
    "/v3/media/:mediaId/encrypted",
    {
      schema: {
        operationId: "getEncryptedMediaById",
        tags: TAGS,
        summary: "Get an encrypted item's results",
        description:
          "The whole media document (metadata included), as a binary OpenPGP message encrypted to the public key `configuration.encryption` named; once processing has finished.",
        params: MediaParams,
        response: {
          200: {
            description: "The encrypted media document.",
            content: { "application/octet-stream": { schema: Binary() } },
          },
          ...accountRefusals("notFound"),
        },
      },
    },
    async (request, reply) => {
      const media = await findMedia(services, request.account.accountId, request.params.mediaId);
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
    },
  );
}

/**
 * `GET /v3/media/{mediaId}/streams/{streamName}`, registered outside the routes that require a token: a
 * signed link is a credential of its own, good for that one stream of that one item.
 */
export function registerStreamBytesRoute(app: HarkApp, services: Services): void {
  const { blobs } = services;
  app.get(
    "/v3/media/:mediaId/streams/:streamName",
    {
      schema: {
        operationId: "getStreamByMediaIdAndName",
        tags: TAGS,
        summary: "Get the bytes of a stream",
        description:
          "Fetched with the Bearer token, or with no token through the signed link (`?expires=…&signature=…`) that `streams[].streamLocation` gives, until it expires (`HARK_STREAM_LINK_TTL_SECONDS`) or the item is deleted. The Content-Type is the uploaded media's (`application/octet-stream` when unknown, and for an encrypted item's streams, binary OpenPGP messages).",
        params: StreamParams,
        querystring: StreamLinkQuery,
        // A signed link (the `streamLocation` documents give) needs no token; without one, the token.
        security: [{ accountToken: [] }, {}],
        response: {
          200: {
            description: "The stream's bytes.",
            content: { "application/octet-stream": { schema: Binary() } },
          },
          ...accountRefusals("notFound", "streamLinkInvalid"),
        },
      },
    },
    async (request, reply) => {
      const { streamName } = request.params;
      const media = await streamMedia(services, request, reply, request.params, request.query);
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
    },
  );
}

const StreamLinkQuery = Type.Object({
  expires: Type.Optional(Type.String({ description: "A signed link's expiry, Unix seconds." })),
  signature: Type.Optional(Type.String({ description: "A signed link's signature." })),
});

/** The item a stream request may read: by its signed link, or as the token's account sees it. */
async function streamMedia(
  services: Services,
  request: FastifyRequest,
  reply: FastifyReply,
  { mediaId, streamName }: Static<typeof StreamParams>,
  { expires, signature }: Static<typeof StreamLinkQuery>,
): Promise<MediaRecord> {
  if (expires === undefined && signature === undefined) {
    await requireAccount(services)(request, reply);
    return findMedia(services, request.account.accountId, mediaId);
  }
  const check = checkStreamLink(
    services.streamLinkSecret,
    { mediaId: mediaId.toLowerCase(), streamName, expires: expires ?? "", signature: signature ?? "" },
    services.clock.now(),
  );
  if (check !== "valid") {
    throw new ApiError(
      "streamLinkInvalid",
      check === "expired"
        ? "This stream link has expired; GET /v3/media/{mediaId}/streams with your token gives a fresh one"
        : "This stream link is not one Hark signed for this stream; use the streamLocation a document gives, whole",
    );
  }
  const media = await getMedia(services.db, mediaId.toLowerCase());
  if (!media) throw new ApiError("notFound", `There is no media ${JSON.stringify(mediaId)}; it was deleted`);
  return media;
}

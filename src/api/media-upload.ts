/**
 * `POST /v3/media`: a multipart upload of `media` (a file) or `mediaUrl`, with optional `configuration`
 * and `metadata` JSON. The file streams straight into the blob store. Parts may come in any order, so the
 * texts are checked once the body has been read; any fault removes what was stored and answers 4xx. The
 * media row, its deliveries and its processing job commit in one transaction.
 */
import { randomUUID } from "node:crypto";
import { Type } from "typebox";
import { mediaPrefix, originalKey } from "../blobs/blob-store.ts";
import { mediaDocument } from "../documents/media-document.ts";
import { ApiError, type ErrorEntry, errorEntry } from "../domain/errors.ts";
import { ConfigurationSchema, MetadataSchema } from "../intake/configuration-schema.ts";
import {
  checkOutboundUrl,
  parseConfiguration,
  parseMetadata,
  TEXT_PART_FAULTS,
  type UrlPolicy,
  urlPolicyOf,
} from "../intake/configuration.ts";
import { UNKNOWN_CONTENT_TYPE } from "../pipeline/media-content-type.ts";
import { declaredMediaLengthMs, MediaTooLongError } from "../pipeline/probe.ts";
import type { Services } from "../services.ts";
import { peekAllowance, takeAllowance } from "../store/account-limits.ts";
import { getMedia, insertMedia } from "../store/media.ts";
import { ACCOUNT_FAULTS, accountFaults } from "./account-checks.ts";
import { requireAllowance } from "./account-limits.ts";
import type { HarkApp } from "./hark-app.ts";
import { linksNow } from "./media-lookup.ts";
import { accountRefusals, Binary, ref, response } from "./schemas/common.ts";
import { MediaDocument } from "./schemas/media.ts";
import { type ReceivedParts, receiveParts } from "./upload-parts.ts";

const TEXT_PARTS = ["configuration", "metadata", "mediaUrl"] as const;
type Received = ReceivedParts<(typeof TEXT_PARTS)[number]>;

/**
 * The multipart body, as the OpenAPI description shows it. The route does not validate the body with it:
 * the parts stream (the file straight into the blob store) and are checked as they arrive, then the
 * texts by intake/configuration.ts with the very schemas referred to here.
 */
const UploadBody = Type.Object(
  {
    media: Type.Optional({
      ...Binary(),
      description: "The media file, streamed to storage. Give this or `mediaUrl`, not both.",
    }),
    mediaUrl: Type.Optional(
      Type.String({
        format: "uri",
        description: "A public `https` URL Hark downloads the media from. Give this or `media`, not both.",
      }),
    ),
    configuration: Type.Optional(ref(ConfigurationSchema, "JSON text (a plain field or a file part).")),
    metadata: Type.Optional(ref(MetadataSchema, "JSON text (a plain field or a file part).")),
  },
  { additionalProperties: false },
);

export function registerUploadRoute(app: HarkApp, services: Services): void {
  const { settings, db, blobs, jobs, clock } = services;
  // Callback URLs and a mediaUrl are URLs Hark will call: one policy for both.
  const urlPolicy = urlPolicyOf(settings);

  app.post(
    "/v3/media",
    {
      schema: {
        operationId: "postMedia",
        tags: ["Media"],
        summary: "Upload media for transcription and analysis",
        description:
          "Multipart: a `media` file (streamed to storage) or a `mediaUrl` Hark downloads, with an optional `configuration` and `metadata`, each JSON. Parts may come in any order; an unknown or repeated part is refused. The configuration is checked strictly and every fault is listed; nothing is stored when any is found. Every multipart style reads alike: a plain field, a field typed `application/json`, a file part (`configuration.json`, a `mediaUrl` typed `text/url`). The answer's `warnings` name what the configuration asks for that Hark does not compute yet.",
        body: { content: { "multipart/form-data": { schema: UploadBody } } },
        response: {
          200: response(MediaDocument, "The media document, `status: accepted`."),
          ...accountRefusals(
            ...TEXT_PART_FAULTS,
            "invalidMultipart",
            ...ACCOUNT_FAULTS,
            "mediaMissing",
            "mediaUrlMalformed",
            "tooManyAttachments",
            "invalidRequest",
            "bodyTooLarge",
            "requestTimeout",
            "unsupportedMediaType",
            "uploadsPerMinuteExceeded",
            "mediaTooLong",
          ),
        },
      },
      // The body is read part by part by `receiveParts` (below), not validated as a whole.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new ApiError(
          "unsupportedMediaType",
          "Upload media as multipart/form-data with a 'media' file part (or a 'mediaUrl' field) and an optional 'configuration'",
        );
      }
      const { accountId } = request.account;
      const perMinute = settings.accountUploadsPerMinute;
      // Refused before the body is read, when the account is over its limit already.
      requireAllowance(
        reply,
        "upload",
        perMinute,
        await peekAllowance(db, accountId, "upload", perMinute, clock.now()),
      );
      const mediaId = randomUUID();
      try {
        const received = await receiveParts(request, TEXT_PARTS, {
          blobs,
          key: originalKey(mediaId),
          maxBytes: settings.maxUploadBytes,
        });
        const faults: ErrorEntry[] = [];
        const configuration = parseConfiguration(received.texts.configuration, urlPolicy);
        if (!configuration.ok) faults.push(...configuration.errors);
        const metadata = parseMetadata(received.texts.metadata, settings.maxMetadataBytes);
        if (!metadata.ok) faults.push(...metadata.errors);
        const mediaUrl = received.texts.mediaUrl?.trim() || undefined;
        faults.push(...sourceFaults(received, mediaUrl, urlPolicy));
        if (faults.length === 0 && received.file) faults.push(...(await lengthFaults(services, mediaId)));
        if (configuration.ok) {
          faults.push(...(await accountFaults(db, accountId, configuration.value)));
        }
        const [first, ...rest] = faults;
        if (first) throw ApiError.of(first, ...rest);
        if (!configuration.ok || !metadata.ok) throw new Error("unreachable");

        const config = configuration.value;
        await db.transaction(async (sql) => {
          // Counted with the upload, under the account's lock: of concurrent uploads none slips past it.
          requireAllowance(
            reply,
            "upload",
            perMinute,
            await takeAllowance(sql, accountId, "upload", perMinute, clock.now()),
          );
          await insertMedia(sql, {
            mediaId,
            accountId,
            configuration: config,
            metadata: metadata.value,
            mediaUrl,
            mediaContentType: received.file ? (received.file.contentType ?? UNKNOWN_CONTENT_TYPE) : undefined,
            originalBlob: received.file ? originalKey(mediaId) : undefined,
            originalBytes: received.file?.bytes,
            timeToLiveSeconds: config.timeToLiveInSeconds ?? settings.defaultTtlSeconds,
            dateCreated: clock.now(),
            deliveryIds: config.callbacks.map(() => randomUUID()),
          });
          await jobs.enqueueProcess(sql, { mediaId, accountId, priority: config.priority });
        });
      } catch (error) {
        await blobs
          .deletePrefix(mediaPrefix(mediaId))
          .catch((e) => request.log.error({ err: e }, "cleanup failed"));
        throw error;
      }
      const media = await getMedia(db, mediaId);
      if (!media) throw new Error(`media ${mediaId} vanished right after its upload`);
      return reply.status(200).send(mediaDocument(media, linksNow(services)));
    },
  );
}

/**
 * Media whose container says it is longer than HARK_MAX_MEDIA_SECONDS is refused before anything is
 * queued: a 100 KB WAV at one sample a second claims 28 hours. Asked only where the file is on this
 * machine already (the filesystem store): from S3 it would be downloaded a second time. A length the
 * container does not say (a streamed recording), or a file ffprobe cannot read, is left to processing,
 * which checks the same limit before decoding.
 */
async function lengthFaults(services: Services, mediaId: string): Promise<ErrorEntry[]> {
  const { settings, blobs } = services;
  if (settings.blobStore !== "filesystem") return [];
  const lengthMs = await blobs.withLocalFile(originalKey(mediaId), (file) => declaredMediaLengthMs(file));
  const maxLengthMs = settings.maxMediaSeconds * 1000;
  if (lengthMs === undefined || lengthMs <= maxLengthMs) return [];
  return [errorEntry("mediaTooLong", new MediaTooLongError(lengthMs, maxLengthMs).message)];
}

function sourceFaults(received: Received, mediaUrl: string | undefined, urlPolicy: UrlPolicy): ErrorEntry[] {
  if (received.file && mediaUrl) {
    return [errorEntry("invalidRequest", "Send either a 'media' file or a 'mediaUrl', not both")];
  }
  if (!received.file && !mediaUrl) {
    return [
      errorEntry(
        "mediaMissing",
        "The request has neither a 'media' file part nor a 'mediaUrl'; send one of them",
      ),
    ];
  }
  if (received.file && received.file.bytes === 0) {
    return [errorEntry("mediaMissing", "The 'media' file is empty")];
  }
  if (mediaUrl) {
    const fault = checkOutboundUrl(mediaUrl, urlPolicy);
    if (fault)
      return [
        errorEntry(
          fault.kind === "malformed" ? "mediaUrlMalformed" : "urlNotAllowed",
          `mediaUrl ${fault.message}`,
        ),
      ];
  }
  return [];
}

/**
 * `POST /v3/media/{mediaId}`: reprocess an item, VoiceBase's "align a transcript and re-run the job".
 * Multipart with an optional `configuration`, `metadata` and `transcript` (a corrected plain text); no
 * `media` or `mediaUrl`, as the stored original is what is processed again. The item starts its next run
 * (see domain/media.ts): the new configuration, status `accepted`, the last run's results gone, one new
 * delivery per callback, and the processing job, all in one transaction. The earlier runs' deliveries keep
 * their state and log.
 *
 * Without a `configuration` part the item is processed again as it was configured. A `transcript` is
 * aligned to the recognised words and read by every analysis, in this run and the later ones, until
 * another reprocess gives another.
 */
import { randomUUID } from "node:crypto";
import { Type } from "typebox";
import { mediaDocument } from "../documents/media-document.ts";
import type { Configuration } from "../domain/configuration.ts";
import { ApiError, type ErrorEntry, errorEntry } from "../domain/errors.ts";
import type { MediaRecord } from "../domain/media.ts";
import { ConfigurationSchema, MetadataSchema } from "../intake/configuration-schema.ts";
import { parseConfiguration, parseMetadata, TEXT_PART_FAULTS, urlPolicyOf } from "../intake/configuration.ts";
import { stringFault } from "../intake/json-values.ts";
import { normalise, tokenise } from "../pipeline/align.ts";
import type { Services } from "../services.ts";
import { takeAllowance } from "../store/account-limits.ts";
import { getMedia, startNextRun } from "../store/media.ts";
import { ACCOUNT_FAULTS, accountFaults } from "./account-checks.ts";
import { requireAllowance } from "./account-limits.ts";
import type { HarkApp } from "./hark-app.ts";
import { findMedia, linksNow, MediaParams } from "./media-lookup.ts";
import { accountRefusals, ref, response } from "./schemas/common.ts";
import { MediaDocument } from "./schemas/media.ts";
import { receiveParts } from "./upload-parts.ts";

const TEXT_PARTS = ["configuration", "metadata", "transcript"] as const;

const NO_NEW_MEDIA =
  "reprocesses the stored original and takes no new media; to process other media, upload it with POST /v3/media";
const REFUSED_PARTS = {
  media: `A reprocess ${NO_NEW_MEDIA}. Send only 'configuration', 'metadata' and 'transcript'`,
  mediaUrl: `A reprocess ${NO_NEW_MEDIA}. Send only 'configuration', 'metadata' and 'transcript'`,
};

/** The multipart body, as the OpenAPI description shows it; the texts are checked by intake/. */
const ReprocessBody = Type.Object(
  {
    configuration: Type.Optional(
      ref(
        ConfigurationSchema,
        "JSON text (a plain field or a file part). Left out: the item is processed again as it was configured.",
      ),
    ),
    metadata: Type.Optional(
      ref(MetadataSchema, "JSON text (a plain field or a file part). Left out: the metadata stays."),
    ),
    transcript: Type.Optional(
      Type.String({
        description:
          "A corrected transcript, plain text (a plain field or a file part). Its words, spelling and punctuation become the transcript, each at the time of the recognised word it aligns to; every analysis reads them.",
      }),
    ),
  },
  { additionalProperties: false },
);

export function registerReprocessRoute(app: HarkApp, services: Services): void {
  const { settings, db, blobs, jobs, clock } = services;
  const urlPolicy = urlPolicyOf(settings);

  app.post(
    "/v3/media/:mediaId",
    {
      schema: {
        operationId: "postMediaById",
        tags: ["Media"],
        summary: "Reprocess media: align a corrected transcript and re-run the job",
        description:
          "Processes a `finished` or `failed` item again from its stored original, with a new `configuration` (callbacks, analyses, detectors, redaction...) or, without one, its own. A `transcript` part (plain text) is aligned to the recognised words and becomes the transcript the analyses read. Answers the media document, `status: accepted`; the item's results are those of the new run once it ends, and its callbacks are called then. The earlier runs' callbacks keep their delivery state and log. A `media` or `mediaUrl` part is refused.",
        params: MediaParams,
        body: { content: { "multipart/form-data": { schema: ReprocessBody } } },
        response: {
          200: response(MediaDocument, "The media document, `status: accepted`."),
          ...accountRefusals(
            "notFound",
            "stillProcessing",
            "originalUnavailable",
            "invalidMultipart",
            "invalidRequest",
            ...TEXT_PART_FAULTS,
            ...ACCOUNT_FAULTS,
            "bodyTooLarge",
            "requestTimeout",
            "unsupportedMediaType",
            "uploadsPerMinuteExceeded",
          ),
        },
      },
      // The body is read part by part (below), not validated as a whole.
      validatorCompiler: () => () => true,
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new ApiError(
          "unsupportedMediaType",
          "Reprocess with multipart/form-data: an optional 'configuration', 'metadata' and 'transcript'",
        );
      }
      const { accountId } = request.account;
      const media = await findMedia(services, accountId, request.params.mediaId);
      const received = await receiveParts(request, TEXT_PARTS, undefined, REFUSED_PARTS);
      requireEnded(media);
      const unavailable = await originalFault(media, (key) => blobs.size(key));
      if (unavailable) throw new ApiError("originalUnavailable", unavailable);

      const faults: ErrorEntry[] = [];
      let configuration: Configuration = media.configuration;
      if (received.texts.configuration !== undefined) {
        const parsed = parseConfiguration(received.texts.configuration, urlPolicy);
        if (parsed.ok) {
          configuration = parsed.value;
          faults.push(...(await accountFaults(db, accountId, configuration)));
        } else {
          faults.push(...parsed.errors);
        }
      }
      const metadata = parseMetadata(received.texts.metadata, settings.maxMetadataBytes);
      if (!metadata.ok) faults.push(...metadata.errors);
      const transcript = received.texts.transcript;
      const unkeepable = transcript === undefined ? undefined : stringFault(transcript);
      if (unkeepable !== undefined) {
        faults.push(errorEntry("invalidRequest", `The 'transcript' part ${unkeepable}`));
      } else if (transcript !== undefined && !hasWords(transcript)) {
        faults.push(
          errorEntry(
            "invalidRequest",
            "The 'transcript' part has no words; send the corrected transcript as plain text, or leave the part out",
          ),
        );
      }
      const [first, ...rest] = faults;
      if (first) throw ApiError.of(first, ...rest);
      if (!metadata.ok) throw new Error("unreachable");

      await db.transaction(async (sql) => {
        // A reprocess costs what an upload does: it counts against the same limit.
        const perMinute = settings.accountUploadsPerMinute;
        requireAllowance(
          reply,
          "upload",
          perMinute,
          await takeAllowance(sql, accountId, "upload", perMinute, clock.now()),
        );
        const next = await startNextRun(sql, {
          mediaId: media.mediaId,
          configuration,
          metadata: metadata.value,
          givenTranscript: transcript,
          timeToLiveSeconds: configuration.timeToLiveInSeconds ?? settings.defaultTtlSeconds,
          now: clock.now(),
          deliveryIds: configuration.callbacks.map(() => randomUUID()),
        });
        // Another reprocess of the same item got there first (its refusal rolls the count back).
        if (!next) requireEnded({ ...media, status: "running" });
        await jobs.enqueueProcess(sql, {
          mediaId: media.mediaId,
          accountId,
          priority: configuration.priority,
        });
      });
      const reprocessed = await getMedia(db, media.mediaId);
      if (!reprocessed) throw new Error(`media ${media.mediaId} vanished right after its reprocess`);
      return reply.status(200).send(mediaDocument(reprocessed, linksNow(services)));
    },
  );
}

function requireEnded(media: MediaRecord): void {
  if (media.status === "accepted" || media.status === "running") {
    throw new ApiError(
      "stillProcessing",
      `Media ${media.mediaId} is ${media.status}; reprocess it once processing has ended (wait for its callback, or poll GET /v3/media/${media.mediaId})`,
    );
  }
}

/**
 * Why there is no original to process again, if there is none. An item encrypted to the client's key
 * keeps its original only encrypted: Hark cannot read it. One whose `mediaUrl` download never succeeded
 * has none yet, and its next run downloads it again.
 */
async function originalFault(
  media: MediaRecord,
  sizeOf: (key: string) => Promise<number | undefined>,
): Promise<string | undefined> {
  const again = "upload the media again with the new configuration";
  if (media.configuration.encryption !== undefined) {
    return `Media ${media.mediaId} is encrypted to your public key: Hark holds its original only encrypted and cannot process it again; ${again}`;
  }
  const present =
    media.originalBlob === undefined
      ? media.mediaUrl !== undefined
      : (await sizeOf(media.originalBlob)) !== undefined;
  return present ? undefined : `Media ${media.mediaId} has no stored original to process again; ${again}`;
}

function hasWords(text: string): boolean {
  return tokenise(text).some((token) => token.kind === "word" && normalise(token.text) !== "");
}

/**
 * `GET` and `PUT /v3/media/{mediaId}/metadata`: a media item's metadata (VoiceBase's `VbMetadata`), read
 * and replaced on its own. The body is checked as an upload's `metadata` is (intake/configuration.ts), so
 * its faults carry the same codes (10107 not JSON, 10008 an unknown property, 10108/10109 externalId).
 *
 * An encrypted item's metadata belongs to its encrypted results, as VoiceBase keeps it: neither read nor
 * replaced here (404, as `GET .../transcript` answers for such an item), and never shown in the clear.
 */
import { ApiError } from "../domain/errors.ts";
import type { Metadata } from "../domain/media.ts";
import { MetadataSchema } from "../intake/configuration-schema.ts";
import { parseMetadata } from "../intake/configuration.ts";
import type { Services } from "../services.ts";
import { getMetadata, replaceMetadata } from "../store/media-metadata.ts";
import type { HarkApp } from "./hark-app.ts";
import { MediaParams } from "./media-lookup.ts";
import { accountRefusals, JSON_BODY_ERRORS, ref, response } from "./schemas/common.ts";

const TAGS = ["Media"];
const METADATA_FAULTS = [
  "metadataUnparseable",
  "configurationPropertyNotAllowed",
  "configurationInvalid",
  "externalIdEmpty",
  "externalIdTooLong",
] as const;

export function registerMetadataRoutes(app: HarkApp, services: Services): void {
  const { db, settings } = services;

  const metadataOf = async (accountId: string, mediaId: string): Promise<Metadata> => {
    const stored = await getMetadata(db, mediaId.toLowerCase(), accountId);
    if (stored === undefined) {
      throw new ApiError("notFound", `There is no media ${JSON.stringify(mediaId)} in this account`);
    }
    if (stored.encrypted) throw encrypted(mediaId);
    return stored.metadata ?? {};
  };

  app.get(
    "/v3/media/:mediaId/metadata",
    {
      schema: {
        operationId: "getMetadataById",
        tags: TAGS,
        summary: "Get a media item's metadata",
        description:
          "`{}` when the item has none. An encrypted item's metadata is inside its encrypted results.",
        params: MediaParams,
        response: { 200: response(MetadataSchema, "The metadata."), ...accountRefusals("notFound") },
      },
    },
    async (request) => metadataOf(request.account.accountId, request.params.mediaId),
  );

  // Its own scope, so that the body is read as an upload's metadata is, with the same codes.
  void app.register(async (scope: HarkApp) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser("*", (request, _payload, done) =>
      done(
        new ApiError(
          "unsupportedMediaType",
          `Send the metadata as a JSON object with Content-Type application/json; got ${request.headers["content-type"] ?? "none"}`,
        ),
      ),
    );
    scope.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
      const parsed = parseMetadata(String(body), settings.maxMetadataBytes);
      if (!parsed.ok) {
        const [first, ...rest] = parsed.errors;
        return done(first ? ApiError.of(first, ...rest) : new ApiError("metadataUnparseable", "Invalid"));
      }
      if (parsed.value === undefined) {
        return done(
          new ApiError(
            "metadataUnparseable",
            "The body is empty: send the metadata as a JSON object ({} for none)",
          ),
        );
      }
      return done(null, parsed.value);
    });

    scope.put(
      "/v3/media/:mediaId/metadata",
      {
        schema: {
          operationId: "setMetadataById",
          tags: TAGS,
          summary: "Replace a media item's metadata",
          description:
            "The body replaces the metadata whole (`{}` removes it), at any stage of processing; `externalId` and search follow at once. Callbacks already rendered keep the metadata they were rendered with. An encrypted item's metadata cannot be replaced.",
          params: MediaParams,
          body: ref(MetadataSchema),
          response: {
            200: response(MetadataSchema, "The metadata as stored."),
            ...accountRefusals("notFound", ...METADATA_FAULTS, ...JSON_BODY_ERRORS),
          },
        },
      },
      async (request) => {
        const { mediaId } = request.params;
        const { accountId } = request.account;
        if (!(await replaceMetadata(db, mediaId.toLowerCase(), accountId, request.body))) {
          await metadataOf(accountId, mediaId); // throws the reason: no such item, or encrypted
        }
        return request.body;
      },
    );
  });
}

function encrypted(mediaId: string): ApiError {
  return new ApiError(
    "notFound",
    `Media ${mediaId} is encrypted to your public key: its metadata is inside its encrypted results (GET /v3/media/${mediaId}/encrypted) and cannot be replaced`,
  );
}

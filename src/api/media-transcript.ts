/**
 * The transcript of a finished media item: `GET /v3/media/{mediaId}/transcript` (JSON, VoiceBase's shape:
 * the envelope and the transcript, `alternateFormats` only as `includeAlternateFormat` asks) and
 * `GET /v3/media/{mediaId}/transcript/{text|srt|webvtt|dfxp}`, each with the spec's Content-Type.
 */
import { Type } from "typebox";
import { transcriptDocument } from "../documents/media-document.ts";
import type { Transcript } from "../domain/transcript.ts";
import { CONTENT_TYPES, RENDERED_FORMATS, renderFormat } from "../formats/index.ts";
import type { Services } from "../services.ts";
import type { HarkApp } from "./hark-app.ts";
import { findMedia, MediaParams, requireFinished, requirePlaintext } from "./media-lookup.ts";
import { accountRefusals, response } from "./schemas/common.ts";
import { TranscriptDocument } from "./schemas/media.ts";

const TAGS = ["Media"];

const FORMATS_IN_WORDS = RENDERED_FORMATS.join(", ");

const TranscriptQuery = Type.Object(
  {
    includeAlternateFormat: Type.Optional(
      Type.Array(
        Type.String({
          pattern: `^(${RENDERED_FORMATS.join("|")})(,(${RENDERED_FORMATS.join("|")}))*$`,
          "x-allowed": `${FORMATS_IN_WORDS}, comma-separated or repeated`,
        }),
        {
          description: `Renderings to add to \`transcript.alternateFormats\` (base64): ${FORMATS_IN_WORDS}, comma-separated or repeated.`,
        },
      ),
    ),
  },
  { additionalProperties: false },
);

const FormatParams = Type.Object({
  ...MediaParams.properties,
  format: Type.Enum(RENDERED_FORMATS, { description: "The rendering." }),
});

export function registerTranscriptRoutes(app: HarkApp, services: Services): void {
  app.get(
    "/v3/media/:mediaId/transcript",
    {
      schema: {
        operationId: "getTranscript",
        tags: TAGS,
        summary: "Get the JSON transcript",
        description:
          "The envelope and the transcript of a finished item. An encrypted item's transcript is only inside its encrypted results (404 here).",
        params: MediaParams,
        querystring: TranscriptQuery,
        response: {
          200: response(TranscriptDocument, "The transcript document."),
          ...accountRefusals("invalidRequest", "notFound", "notFinished"),
        },
      },
    },
    async (request) => {
      const media = await findMedia(services, request.account.accountId, request.params.mediaId);
      requirePlaintext(media);
      requireFinished(media, "transcript");
      const asked = (request.query.includeAlternateFormat ?? []).flatMap((value) => value.split(","));
      return transcriptDocument(media, services.settings.publicUrl, asked);
    },
  );

  app.get(
    "/v3/media/:mediaId/transcript/:format",
    {
      schema: {
        operationId: "getTranscriptInFormat",
        tags: TAGS,
        summary: "Get the transcript rendered as text, SRT, WebVTT or DFXP",
        description:
          "VoiceBase lists one path per format (`getTextById`, `getSubtitlesById`, `getSubtitleWebVttById`, `getSubtitleDfxpById`); the Content-Type is the format's.",
        params: FormatParams,
        response: {
          200: {
            description: "The rendering.",
            content: Object.fromEntries(
              RENDERED_FORMATS.map((format) => [CONTENT_TYPES[format], { schema: Type.String() }]),
            ),
          },
          ...accountRefusals("notFound", "notFinished"),
        },
      },
    },
    async (request, reply) => {
      const { format } = request.params;
      const media = await findMedia(services, request.account.accountId, request.params.mediaId);
      requirePlaintext(media);
      requireFinished(media, "transcript");
      const transcript = media.sections.transcript as Transcript;
      return reply.header("content-type", CONTENT_TYPES[format]).send(renderFormat(format, transcript.words));
    },
  );
}

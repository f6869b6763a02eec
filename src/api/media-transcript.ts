/**
 * The transcript of a finished media item: `GET /v3/media/{mediaId}/transcript` (JSON, VoiceBase's shape:
 * the envelope and the transcript, `alternateFormats` only as `includeAlternateFormat` asks) and
 * `GET /v3/media/{mediaId}/transcript/{text|srt|webvtt|dfxp}`, each with the spec's Content-Type.
 */
import type { FastifyInstance } from "fastify";
import type { Transcript } from "../domain/transcript.ts";
import { ApiError } from "../domain/errors.ts";
import { CONTENT_TYPES, RENDERED_FORMATS, type RenderedFormat, renderFormat } from "../formats/index.ts";
import type { Services } from "../services.ts";
import { transcriptDocument } from "../documents/media-document.ts";
import { findMedia, requireFinished, requirePlaintext } from "./media-lookup.ts";

export function registerTranscriptRoutes(app: FastifyInstance, services: Services): void {
  app.get("/v3/media/:mediaId/transcript", async (request) => {
    const media = await findMedia(services, request);
    requirePlaintext(media);
    requireFinished(media, "transcript");
    const asked = alternateFormatsAsked(
      (request.query as Record<string, string | string[]>).includeAlternateFormat,
    );
    return transcriptDocument(media, services.settings.publicUrl, asked);
  });

  app.get("/v3/media/:mediaId/transcript/:format", async (request, reply) => {
    const { format } = request.params as { format: string };
    if (!(RENDERED_FORMATS as readonly string[]).includes(format)) {
      throw new ApiError(
        "notFound",
        `There is no transcript format ${JSON.stringify(format)}; use ${RENDERED_FORMATS.join(", ")}`,
      );
    }
    const media = await findMedia(services, request);
    requirePlaintext(media);
    requireFinished(media, "transcript");
    const transcript = media.sections.transcript as Transcript;
    return reply
      .header("content-type", CONTENT_TYPES[format as RenderedFormat])
      .send(renderFormat(format as RenderedFormat, transcript.words));
  });
}

function alternateFormatsAsked(value: string | string[] | undefined): string[] {
  const asked = (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) =>
    v.split(","),
  );
  const unknown = asked.filter((format) => !(RENDERED_FORMATS as readonly string[]).includes(format));
  if (unknown.length > 0) {
    throw new ApiError(
      "invalidRequest",
      `includeAlternateFormat takes ${RENDERED_FORMATS.join(", ")}; got ${unknown.join(", ")}`,
    );
  }
  return asked;
}

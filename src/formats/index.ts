import type { AlternateFormat, TranscriptFormat, Word } from "../domain/transcript.ts";
import { renderDfxp } from "./dfxp.ts";
import { renderSrt } from "./srt.ts";
import { renderText } from "./text.ts";
import { renderWebVtt } from "./webvtt.ts";

/** The formats a transcript is rendered into as text, besides its JSON. */
export type RenderedFormat = AlternateFormat["format"];

/**
 * Content-Type of each transcript format, exactly as the callback table of the spec gives them; a
 * pre-signed upload URL may be signed over this header, so it must not gain parameters such as a charset.
 */
export const CONTENT_TYPES: Readonly<Record<TranscriptFormat, string>> = {
  json: "application/json",
  text: "text/plain",
  srt: "text/srt",
  webvtt: "text/vtt",
  dfxp: "application/ttaf+xml",
};

const RENDERERS: Readonly<Record<RenderedFormat, (words: readonly Word[]) => string>> = {
  text: renderText,
  srt: renderSrt,
  webvtt: renderWebVtt,
  dfxp: renderDfxp,
};

/** In the order VoiceBase lists them. */
export const RENDERED_FORMATS: readonly RenderedFormat[] = ["text", "srt", "webvtt", "dfxp"];

export function renderFormat(format: RenderedFormat, words: readonly Word[]): string {
  return RENDERERS[format](words);
}

/** The `alternateFormats` of a transcript: every rendered format, Base64 of its UTF-8 bytes. */
export function alternateFormats(words: readonly Word[]): AlternateFormat[] {
  return RENDERED_FORMATS.map((format) => ({
    format,
    contentType: CONTENT_TYPES[format],
    contentEncoding: "Base64",
    charset: "utf-8",
    data: Buffer.from(renderFormat(format, words), "utf8").toString("base64"),
  }));
}

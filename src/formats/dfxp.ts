import type { Word } from "../domain/transcript.ts";
import { buildCues, clockTime, speakerLabel } from "./captions.ts";

/**
 * The namespace of VoiceBase's DFXP: the TTAF1 draft (`application/ttaf+xml`, the content type the spec
 * gives), not the later TTML1 recommendation's `http://www.w3.org/ns/ttml`.
 */
export const TTAF1_NAMESPACE = "http://www.w3.org/2006/04/ttaf1";

/** Attribute values are always written in double quotes, so `'` needs no escaping. */
function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * DFXP captions in the TTAF1 namespace: one `p` per cue, lines joined by `<br/>`, and the first cue of
 * each speaker turn beginning with `Name: ` as in VoiceBase's other caption formats. No cues gives an
 * empty `div`, which the format allows.
 */
export function renderDfxp(words: readonly Word[]): string {
  const paragraphs = buildCues(words).map((cue) => {
    const lines = [...cue.lines];
    if (cue.turnStart && cue.speaker !== undefined) lines[0] = speakerLabel(cue.speaker) + (lines[0] ?? "");
    const times = `begin="${clockTime(cue.start, ".")}" end="${clockTime(cue.end, ".")}"`;
    return `      <p ${times}>${lines.map(escapeXml).join("<br/>")}</p>\n`;
  });
  const div = paragraphs.length === 0 ? "    <div/>\n" : `    <div>\n${paragraphs.join("")}    </div>\n`;
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    `<tt xml:lang="en" xmlns="${TTAF1_NAMESPACE}">\n` +
    `  <body>\n${div}  </body>\n` +
    "</tt>\n"
  );
}

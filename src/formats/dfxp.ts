import type { Word } from "../domain/transcript.ts";
import { buildCues, clockTime } from "./captions.ts";

/** Attribute values are always written in double quotes, so `'` needs no escaping. */
function escapeXml(text: string): string {
  return text
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");
}

/**
 * TTML1 (DFXP) captions. Each speaker is declared once in the head as a `ttm:agent` and each cue's `p`
 * points at it; agent ids are `speaker1`, `speaker2`... in order of first appearance, because names are
 * free text and cannot serve as XML ids. No cues gives an empty `div`, which TTML allows.
 */
export function renderDfxp(words: readonly Word[]): string {
  const cues = buildCues(words);
  const agentIds = new Map<string, string>();
  for (const cue of cues) {
    if (cue.speaker !== undefined && !agentIds.has(cue.speaker)) {
      agentIds.set(cue.speaker, `speaker${agentIds.size + 1}`);
    }
  }
  const agents = [...agentIds].map(
    ([name, id]) =>
      `    <ttm:agent xml:id="${id}" type="person">\n` +
      `      <ttm:name type="full">${escapeXml(name)}</ttm:name>\n` +
      "    </ttm:agent>\n",
  );
  const paragraphs = cues.map((cue) => {
    const agent = cue.speaker === undefined ? "" : ` ttm:agent="${agentIds.get(cue.speaker)}"`;
    const times = `begin="${clockTime(cue.start, ".")}" end="${clockTime(cue.end, ".")}"`;
    return `      <p ${times}${agent}>${cue.lines.map(escapeXml).join("<br/>")}</p>\n`;
  });
  const head = agents.length === 0 ? "  <head/>\n" : `  <head>\n${agents.join("")}  </head>\n`;
  const div = paragraphs.length === 0 ? "    <div/>\n" : `    <div>\n${paragraphs.join("")}    </div>\n`;
  return (
    '<?xml version="1.0" encoding="utf-8"?>\n' +
    '<tt xml:lang="en" xmlns="http://www.w3.org/ns/ttml" xmlns:tts="http://www.w3.org/ns/ttml#styling"' +
    ' xmlns:ttm="http://www.w3.org/ns/ttml#metadata">\n' +
    head +
    `  <body>\n${div}  </body>\n` +
    "</tt>\n"
  );
}

import type { Word } from "../domain/transcript.ts";
import { buildCues, clockTime } from "./captions.ts";

/** WebVTT parsers accept CRLF, LF or CR alike; LF as in the W3C specification's own examples. */
const EOL = "\n";

/**
 * WebVTT cue text is markup: `<` opens a tag and `&` a character reference, and escaping `>` also keeps
 * `-->` out of the text, where it would end the cue.
 */
function escapeCueText(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * WebVTT captions: the `WEBVTT` header, then numbered cues with `HH:MM:SS.mmm` times. Every cue with a
 * known speaker is a voice span, `<v Name>`, so players and styles (`::cue(v[voice="Name"])`) can tell
 * speakers apart; each cue carries it because cues are shown independently. No cues, just the header.
 */
export function renderWebVtt(words: readonly Word[]): string {
  const cues = buildCues(words).map((cue, index) => {
    const lines = cue.lines.map(escapeCueText);
    if (cue.speaker !== undefined) lines[0] = `<v ${escapeCueText(cue.speaker)}>${lines[0] ?? ""}`;
    const timing = `${clockTime(cue.start, ".")} --> ${clockTime(cue.end, ".")}`;
    return [String(index + 1), timing, ...lines].join(EOL) + EOL;
  });
  const header = `WEBVTT${EOL}`;
  return cues.length === 0 ? header : header + EOL + cues.join(EOL);
}

import type { Word } from "../domain/transcript.ts";
import { buildCues, clockTime, speakerLabel } from "./captions.ts";

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
 * WebVTT captions: the `WEBVTT` header, then numbered cues with `HH:MM:SS.mmm` times. The first cue of
 * each speaker turn begins with `Name: `, as VoiceBase's WebVTT does (closed-captioning guide), rather than
 * a `<v Name>` voice span: clients of VoiceBase read the label from the text. No cues, just the header.
 */
export function renderWebVtt(words: readonly Word[]): string {
  const cues = buildCues(words).map((cue, index) => {
    const lines = cue.lines.map(escapeCueText);
    if (cue.turnStart && cue.speaker !== undefined) {
      lines[0] = escapeCueText(speakerLabel(cue.speaker)) + (lines[0] ?? "");
    }
    const timing = `${clockTime(cue.start, ".")} --> ${clockTime(cue.end, ".")}`;
    return [String(index + 1), timing, ...lines].join(EOL) + EOL;
  });
  const header = `WEBVTT${EOL}`;
  return cues.length === 0 ? header : header + EOL + cues.join(EOL);
}

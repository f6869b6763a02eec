import type { Word } from "../domain/transcript.ts";
import { buildCues, clockTime, speakerLabel } from "./captions.ts";

/**
 * CRLF throughout: the SubRip convention (the format comes from a Windows tool), and what VoiceBase's own
 * SRT uses (its base64 sample decodes to CRLF), so a client that splits VoiceBase output on "\r\n" keeps
 * working.
 */
const EOL = "\r\n";

/**
 * SubRip has no escaping, so text goes out as spoken; only the arrow is broken up, because a line holding
 * `-->` is taken for a timing line by lenient parsers.
 */
function cueText(text: string): string {
  return text.replace(/-{2,}>/g, "->");
}

/**
 * SubRip captions: cues numbered from 1, `HH:MM:SS,mmm` times, a blank line between cues. The first cue
 * of each speaker turn begins with `Name: `, as VoiceBase's captions do. No cues, no bytes.
 */
export function renderSrt(words: readonly Word[]): string {
  return buildCues(words)
    .map((cue, index) => {
      const lines = [...cue.lines];
      if (cue.turnStart && cue.speaker !== undefined) {
        lines[0] = speakerLabel(cue.speaker) + (lines[0] ?? "");
      }
      const timing = `${clockTime(cue.start, ",")} --> ${clockTime(cue.end, ",")}`;
      return [String(index + 1), timing, ...lines.map(cueText)].join(EOL) + EOL;
    })
    .join(EOL);
}

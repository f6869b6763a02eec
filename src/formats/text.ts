import type { Word } from "../domain/transcript.ts";
import { cleanText, namesSpeakers, speakerLabel } from "./captions.ts";

interface Paragraph {
  speaker?: string;
  text: string;
}

/**
 * Plain text: one paragraph per speaker turn, labelled `Name: ` as VoiceBase labels speakers (only when
 * there are two speakers or more: a mono transcript is its words alone, as VoiceBase's), paragraphs
 * separated by a blank line so that a turn stays one line however long it is. LF line ends, ending with a
 * newline; a transcript without words gives the empty string rather than a lone newline.
 */
export function renderText(words: readonly Word[]): string {
  const labelled = namesSpeakers(words);
  const paragraphs: Paragraph[] = [];
  let current: Paragraph = { text: "" };
  paragraphs.push(current);
  for (const word of words) {
    const text = cleanText(word.w);
    if (word.m === "turn") {
      current = text === "" || !labelled ? { text: "" } : { speaker: text, text: "" };
      paragraphs.push(current);
    } else if (text !== "") {
      const glue = current.text === "" || word.m === "punc" ? "" : " ";
      current.text += glue + text;
    }
  }
  const rendered = paragraphs
    .filter((paragraph) => paragraph.text !== "")
    .map((paragraph) =>
      paragraph.speaker === undefined ? paragraph.text : speakerLabel(paragraph.speaker) + paragraph.text,
    );
  return rendered.length === 0 ? "" : `${rendered.join("\n\n")}\n`;
}

import type { Word } from "../domain/transcript.ts";

/** Widest caption line, in characters: the limit of common caption style guides (Netflix's among them). */
export const MAX_LINE_CHARS = 42;
/** Lines shown at once; more would cover too much of the picture. */
export const MAX_LINES = 2;
/** Longest time one cue stays on screen, in ms. */
export const MAX_CUE_MS = 6000;
/** A silence longer than this, in ms, ends the cue so text does not linger over nothing. */
export const MAX_PAUSE_MS = 1500;
/**
 * A sentence end closes the cue only once the cue holds at least this many characters; below it, short
 * sentences ("Yes. Sure.") share a cue instead of flashing by one at a time.
 */
export const MIN_CHARS_TO_BREAK_AT_SENTENCE = 30;

/** Text that should appear on screen together. Times are whole milliseconds; cues never overlap. */
export interface Cue {
  start: number;
  end: number;
  /** Who is speaking, when the transcript names speakers (see `namesSpeakers`). */
  speaker?: string;
  /**
   * True for the first cue of a speaker's turn: the cue where a label such as `Agent: ` belongs. The first
   * line of such a cue is laid out short enough to leave room for that label.
   */
  turnStart: boolean;
  /** One to {@link MAX_LINES} lines, each at most {@link MAX_LINE_CHARS} long unless a single word is longer. */
  lines: string[];
}

/** A spoken word with the punctuation that follows it. */
interface Token {
  text: string;
  start: number;
  end: number;
  sentenceEnd: boolean;
}

/** A speaker turn, or the words before the first turn (which have no speaker). */
interface Turn {
  speaker?: string;
  tokens: Token[];
}

const SENTENCE_END = /[.?!…]$/u;

/**
 * Line breaks or control characters inside a word would end a SubRip/WebVTT cue early or make XML
 * ill-formed, so every word is reduced to printable text on one line.
 */
export function cleanText(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Zl}\p{Zp}\s]+/gu, " ")
    .replace(/[\p{Cs}\uFFFE\uFFFF]/gu, "")
    .trim();
}

/** The label a cue starting a turn carries in every caption format, and each turn in plain text, as VoiceBase's. */
export function speakerLabel(speaker: string): string {
  return `${speaker}: `;
}

function millis(ms: number): number {
  return Number.isFinite(ms) ? Math.max(0, Math.round(ms)) : 0;
}

/**
 * Whether renderings label turns with their speaker: when the transcript has two speakers or more, as
 * VoiceBase's stereo captions do. A mono transcript has one turn entry naming its only speaker
 * ("Speaker" unless the upload named it); VoiceBase renders such a transcript without labels.
 */
export function namesSpeakers(words: readonly Word[]): boolean {
  const names = new Set(words.flatMap((word) => (word.m === "turn" ? [cleanText(word.w)] : [])));
  names.delete("");
  return names.size > 1;
}

function splitTurns(words: readonly Word[]): Turn[] {
  const labelled = namesSpeakers(words);
  const turns: Turn[] = [];
  let current: Turn = { tokens: [] };
  turns.push(current);
  for (const word of words) {
    const text = cleanText(word.w);
    if (word.m === "turn") {
      current = text === "" || !labelled ? { tokens: [] } : { speaker: text, tokens: [] };
      turns.push(current);
      continue;
    }
    if (text === "") continue;
    const start = millis(word.s);
    const end = Math.max(start, millis(word.e));
    const previous = current.tokens.at(-1);
    if (word.m === "punc" && previous !== undefined) {
      previous.text += text;
      previous.end = Math.max(previous.end, end);
      previous.sentenceEnd = SENTENCE_END.test(text);
      continue;
    }
    current.tokens.push({ text, start, end, sentenceEnd: word.m === "punc" && SENTENCE_END.test(text) });
  }
  return turns.filter((turn) => turn.tokens.length > 0);
}

/**
 * Fills lines greedily: the first line up to `firstLineWidth`, the others up to `width`. A word longer than
 * its line gets a line of its own. Greedy filling uses the fewest lines possible, so it also decides fit.
 */
function fill(texts: readonly string[], firstLineWidth: number, width: number): string[] {
  const lines: string[] = [];
  for (const text of texts) {
    const last = lines.at(-1);
    const limit = lines.length === 1 ? firstLineWidth : width;
    if (last !== undefined && last.length + 1 + text.length <= limit) {
      lines[lines.length - 1] = `${last} ${text}`;
    } else {
      lines.push(text);
    }
  }
  return lines;
}

/**
 * The fewest lines, then the most even ones, as captioners lay text out: filling greedily at full width
 * would leave a full line over a one-word line.
 */
function layOut(texts: readonly string[], firstLineWidth: number): string[] {
  const fewest = fill(texts, firstLineWidth, MAX_LINE_CHARS);
  for (let width = 1; width < MAX_LINE_CHARS; width++) {
    const even = fill(texts, Math.min(firstLineWidth, width), width);
    if (even.length <= fewest.length) return even;
  }
  return fewest;
}

function cuesOfTurn(turn: Turn): Cue[] {
  const labelWidth = turn.speaker === undefined ? 0 : speakerLabel(turn.speaker).length;
  const cues: Cue[] = [];
  let pending: Token[] = [];
  const firstLineWidth = (): number =>
    cues.length === 0 ? Math.max(0, MAX_LINE_CHARS - labelWidth) : MAX_LINE_CHARS;
  const texts = (): string[] => pending.map((token) => token.text);
  const flush = (): void => {
    const first = pending[0];
    const last = pending.at(-1);
    if (first === undefined || last === undefined) return;
    const cue: Cue = {
      start: first.start,
      end: last.end,
      turnStart: cues.length === 0,
      lines: layOut(texts(), firstLineWidth()),
    };
    if (turn.speaker !== undefined) cue.speaker = turn.speaker;
    cues.push(cue);
    pending = [];
  };
  for (const token of turn.tokens) {
    const first = pending[0];
    const last = pending.at(-1);
    if (
      first !== undefined &&
      last !== undefined &&
      (token.start - last.end > MAX_PAUSE_MS ||
        token.end - first.start > MAX_CUE_MS ||
        fill([...texts(), token.text], firstLineWidth(), MAX_LINE_CHARS).length > MAX_LINES)
    ) {
      flush();
    }
    pending.push(token);
    if (token.sentenceEnd && texts().join(" ").length >= MIN_CHARS_TO_BREAK_AT_SENTENCE) flush();
  }
  flush();
  return cues;
}

/**
 * Every caption format shows the same cues, so a viewer switching formats sees the same timing.
 * Starts are made strictly increasing and each end is clamped to the next start, because words of
 * two channels can overlap in time while a caption track must not (SubRip players show one cue at a time).
 */
function untangle(cues: Cue[]): Cue[] {
  let previousStart = -1;
  for (const cue of cues) {
    cue.start = Math.max(cue.start, previousStart + 1);
    previousStart = cue.start;
  }
  cues.forEach((cue, index) => {
    const next = cues[index + 1];
    let end = Math.max(cue.end, cue.start + 1);
    if (next !== undefined) end = Math.min(end, next.start);
    cue.end = end;
  });
  return cues;
}

/**
 * Groups a transcript's words into caption cues, ordered by start time: a transcript that lists one
 * channel's words after the other's still gives a track that plays in time order.
 */
export function buildCues(words: readonly Word[]): Cue[] {
  const cues = splitTurns(words).flatMap(cuesOfTurn);
  return untangle(cues.sort((a, b) => a.start - b.start));
}

/**
 * `HH:MM:SS` plus the fraction in milliseconds, the clock form SubRip, WebVTT and TTML share (they differ
 * only in the separator). Hours grow past two digits rather than wrap.
 */
export function clockTime(ms: number, fractionSeparator: "," | "."): string {
  const total = millis(ms);
  const hours = Math.floor(total / 3_600_000);
  const minutes = Math.floor(total / 60_000) % 60;
  const seconds = Math.floor(total / 1000) % 60;
  const fraction = total % 1000;
  const two = (n: number): string => String(n).padStart(2, "0");
  return `${two(hours)}:${two(minutes)}:${two(seconds)}${fractionSeparator}${String(fraction).padStart(3, "0")}`;
}

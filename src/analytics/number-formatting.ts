/**
 * VoiceBase's number formatting (`transcript.formatting.enableNumberFormatting`, on by default): numbers
 * said in words are written as digits, as the formatting guide shows: "one hundred thirty eight dollars
 * and sixty five cents" is "$138.65", "six five zero eight nine seven five one seven zero" is
 * "650-897-5170", one word timed from the first digit said to the last. Also percentages ("12%"),
 * ordinals ("21st"), times ("3:30 PM"), and digit strings such as card and account numbers.
 *
 * It runs last, on the words the detectors and redactors have already read (see analyse.ts): a number
 * they cover is "[redacted]" by then and cannot be formatted back into view. Pure.
 */
import type { Transcript, Word } from "../domain/transcript.ts";
import { alternateFormats } from "../formats/index.ts";
import { type NumberChunk, ordinalSuffix, readNumbers } from "./number-words.ts";

/** Words `from` up to (not including) `to` of a stretch of speech, written as the one word `text`. */
export interface Replacement {
  from: number;
  to: number;
  text: string;
}

const MONTHS = new Set(
  ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october"].concat([
    "november",
    "december",
  ]),
);
const CURRENCY = new Set(["dollar", "dollars", "bucks"]);
const CENTS = new Set(["cent", "cents"]);
const MERIDIEM: Readonly<Record<string, string>> = { "a.m.": "AM", am: "AM", "p.m.": "PM", pm: "PM" };

/**
 * The replacements that format the numbers in one speaker's uninterrupted words (`words` as recognised,
 * any case), in order and not overlapping.
 */
export function numberReplacements(words: readonly string[]): Replacement[] {
  const lower = words.map((word) => word.toLowerCase());
  const replacements: Replacement[] = [];
  for (let index = 0; index < lower.length;) {
    // A sentence that opens with "Oh" opens with the interjection, not a zero.
    const chunks = words[index] === "Oh" ? [] : readNumbers(lower, index);
    // "oh" on its own, however often, is the interjection.
    if (chunks.every((chunk) => lower[chunk.from] === "oh")) {
      index += 1;
      continue;
    }
    const formatted = formatRun(lower, chunks);
    replacements.push(...formatted);
    index = Math.max(chunks.at(-1)?.to ?? index + 1, formatted.at(-1)?.to ?? 0);
  }
  return replacements;
}

/** A number as it will be written, before the words after it (dollars, percent, a.m.) are looked at. */
interface Item {
  from: number;
  to: number;
  text: string;
  chunk?: NumberChunk;
  time?: boolean;
}

/** The replacements for consecutive numbers, with the unit words that follow the last of them. */
function formatRun(words: readonly string[], chunks: readonly NumberChunk[]): Replacement[] {
  const items = itemsOf(words, chunks);
  const replacements: Replacement[] = [];
  items.forEach((item, index) => {
    const last = index === items.length - 1;
    const written = last ? withUnit(words, item) : [item];
    // A lone "one" is mostly the pronoun ("the one I want"): left alone unless a unit says it counts.
    const lone = written.length === 1 && item.to - item.from === 1 && words[item.from] === "one";
    if (!lone || written[0]?.text !== "1") replacements.push(...written);
  });
  return replacements;
}

/**
 * Consecutive numbers become what is written: an amount, decimal or ordinal stands alone; numbers read
 * digit by digit or in pairs ("four one one one", "nineteen ninety nine") are one string of digits,
 * dashed as a US phone number when it has the length of one; an hour and its minutes are a time.
 */
function itemsOf(words: readonly string[], chunks: readonly NumberChunk[]): Item[] {
  const items: Item[] = [];
  let digits: NumberChunk[] = [];
  const flush = () => {
    const first = digits[0];
    const last = digits.at(-1);
    if (first !== undefined && last !== undefined) {
      const time = timeOf(words, digits);
      const text = time ?? phone(digits.map((chunk) => chunk.digits).join(""));
      items.push({
        from: first.from,
        to: last.to,
        text,
        ...(digits.length === 1 && { chunk: first }),
        ...(time !== undefined && { time: true }),
      });
    }
    digits = [];
  };
  for (const chunk of chunks) {
    if (chunk.scaled || chunk.ordinal || chunk.decimal) {
      flush();
      items.push({ from: chunk.from, to: chunk.to, text: standalone(words, chunk), chunk });
    } else {
      digits.push(chunk);
    }
  }
  flush();
  return items;
}

function standalone(words: readonly string[], chunk: NumberChunk): string {
  if (!chunk.ordinal) return chunk.digits;
  // "first" and "second" are more often not numbers at all: single ordinal words count next to a month.
  const compound = chunk.to - chunk.from > 1 || chunk.value > 20;
  const dated =
    MONTHS.has(words[chunk.from - 1] ?? "") ||
    (words[chunk.to] === "of" && MONTHS.has(words[chunk.to + 1] ?? ""));
  return compound || dated ? `${chunk.value}${ordinalSuffix(chunk.value)}` : (words[chunk.from] ?? "");
}

/**
 * "three thirty", "eleven oh five": an hour (1–12) and its minutes, written "3:30" when "a.m."/"p.m."
 * follows or "at" comes before; otherwise they stay digits ("330"), as a room or flight number would.
 */
function timeOf(words: readonly string[], chunks: readonly NumberChunk[]): string | undefined {
  const [hour, first, second] = chunks;
  if (hour === undefined || hour.value < 1 || hour.value > 12 || hour.to - hour.from !== 1) return undefined;
  let minutes: string | undefined;
  if (chunks.length === 2 && first !== undefined && first.value >= 10 && first.value <= 59) {
    minutes = first.digits;
  } else if (chunks.length === 3 && words[first?.from ?? -1] === "oh" && second?.value !== undefined) {
    minutes = second.value >= 1 && second.value <= 9 ? `0${second.digits}` : undefined;
  }
  if (minutes === undefined) return undefined;
  const end = chunks.at(-1)?.to ?? 0;
  const cued = MERIDIEM[words[end] ?? ""] !== undefined || words[hour.from - 1] === "at";
  return cued ? `${hour.value}:${minutes}` : undefined;
}

/** Ten digits as 650-897-5170, eleven after a 1 as 1-650-897-5170, seven as 897-5170. */
function phone(digits: string): string {
  const match =
    /^(1)(\d{3})(\d{3})(\d{4})$/u.exec(digits) ??
    /^(\d{3})(\d{3})(\d{4})$/u.exec(digits) ??
    /^(\d{3})(\d{4})$/u.exec(digits);
  return match === null ? digits : match.slice(1).join("-");
}

/** The last number of a run with the word after it: "$138.65", "12%", "3:30" then "PM". */
function withUnit(words: readonly string[], item: Item): Replacement[] {
  const after = words[item.to] ?? "";
  const meridiem = MERIDIEM[after];
  const hour =
    item.chunk !== undefined && !item.chunk.ordinal && item.chunk.value >= 1 && item.chunk.value <= 12;
  if (meridiem !== undefined && (item.time === true || hour)) {
    return [item, { from: item.to, to: item.to + 1, text: meridiem }];
  }
  if (item.time === true || item.chunk?.ordinal === true) return [item];
  if (after === "percent") return [{ from: item.from, to: item.to + 1, text: `${item.text}%` }];
  if (CURRENCY.has(after)) {
    const dollars = item.chunk?.scaled === true ? grouped(item.text) : item.text;
    const cents = centsAfter(words, item.to + 1);
    if (cents === undefined) return [{ from: item.from, to: item.to + 1, text: `$${dollars}` }];
    return [{ from: item.from, to: cents.to, text: `$${dollars}.${cents.text}` }];
  }
  return [item];
}

/** "and sixty five cents" after the dollars: the two digits of the cents, and where the words end. */
function centsAfter(words: readonly string[], index: number): Replacement | undefined {
  const from = words[index] === "and" ? index + 1 : index;
  const [cents, ...more] = readNumbers(words, from);
  if (cents === undefined || more.length > 0 || cents.scaled || cents.ordinal || cents.decimal)
    return undefined;
  if (cents.value >= 100 || !CENTS.has(words[cents.to] ?? "")) return undefined;
  return { from, to: cents.to + 1, text: cents.digits.padStart(2, "0") };
}

/** 1500 as 1,500: how amounts of money are written. */
function grouped(digits: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/gu, ",");
}

/**
 * The transcript with its numbers formatted. Each number becomes one word with `s` of its first word,
 * `e` of its last, the lowest confidence among them, and the first one's channel `v`; punctuation and
 * turns stay, and every entry is numbered `p` again. A number never spans a turn or a full stop.
 */
export function formatNumbers(transcript: Transcript): Transcript {
  const words: Word[] = [];
  let stretch: Word[] = [];
  const flush = () => {
    const replacements = numberReplacements(stretch.map((word) => word.w));
    let at = 0;
    for (const { from, to, text } of replacements) {
      words.push(...stretch.slice(at, from), merged(stretch.slice(from, to), text));
      at = to;
    }
    words.push(...stretch.slice(at));
    stretch = [];
  };
  for (const word of transcript.words) {
    if (word.m === undefined) {
      stretch.push(word);
    } else {
      flush();
      words.push(word);
    }
  }
  flush();
  const numbered = words.map((word, p) => (word.p === p ? word : { ...word, p }));
  return { ...transcript, words: numbered, alternateFormats: alternateFormats(numbered) };
}

function merged(words: readonly Word[], text: string): Word {
  const first = words[0] as Word;
  const last = words.at(-1) as Word;
  const c = Math.min(...words.map((word) => word.c));
  return { ...first, c, e: last.e, w: text };
}

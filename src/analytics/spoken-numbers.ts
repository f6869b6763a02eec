/**
 * Digits read aloud, as the recogniser spells them: "four one one one", "oh eight twenty five", "double
 * five". Sensitive-number detectors work on these runs of digits rather than on numerals, since Hark's
 * transcripts never format numbers. Pure.
 */
import type { SpokenWord } from "./turns.ts";

/** Consecutive number words of one speaker, read as a string of digits. */
export interface DigitRun {
  speakerName: string;
  /** The digits in the order spoken, e.g. "0825" for "oh eight twenty five". */
  digits: string;
  /** The words the digits were read from, first and last always number words; fillers may sit between. */
  words: SpokenWord[];
  /** Start of the first word and end of the last, in ms. */
  s: number;
  e: number;
}

/**
 * A longer silence between two number words ends the run. People read a card number in groups with a
 * breath between them (the transcript even puts a full stop there), but rarely pause three seconds in
 * the middle of one number.
 */
export const MAX_DIGIT_GAP_MS = 3000;

const UNITS: Readonly<Record<string, string>> = {
  zero: "0",
  oh: "0",
  one: "1",
  two: "2",
  three: "3",
  four: "4",
  five: "5",
  six: "6",
  seven: "7",
  eight: "8",
  nine: "9",
};

const TEENS: Readonly<Record<string, string>> = {
  ten: "10",
  eleven: "11",
  twelve: "12",
  thirteen: "13",
  fourteen: "14",
  fifteen: "15",
  sixteen: "16",
  seventeen: "17",
  eighteen: "18",
  nineteen: "19",
};

const TENS: Readonly<Record<string, string>> = {
  twenty: "2",
  thirty: "3",
  forty: "4",
  fifty: "5",
  sixty: "6",
  seventy: "7",
  eighty: "8",
  ninety: "9",
};

const REPEATS: Readonly<Record<string, number>> = { double: 2, triple: 3 };

/**
 * Words said inside a number without ending it: hesitations, and the separators people read out in
 * "one two three dash four five" or "oh eight slash twenty five". They never start or end a run.
 */
const FILLERS: ReadonlySet<string> = new Set(["uh", "um", "er", "ah", "dash", "hyphen", "slash"]);

/**
 * Where a number word has its digits: "twenty" stands for "20" on its own and for "2" before a unit, so a
 * word can only be read together with the word after it.
 */
interface Reading {
  digits: string;
  /** How many words, from this one, the digits were read from. */
  length: number;
}

/**
 * The runs of spoken digits, in transcript order. A run never joins two speakers' words, nor words more
 * than {@link MAX_DIGIT_GAP_MS} apart. Read as digits:
 *
 * - "zero" … "nine", and "oh" for zero; a run made of "oh" alone is the interjection, not a number;
 * - "ten" … "nineteen" as two digits; "twenty" … "ninety" as two digits, or with a following "one" …
 *   "nine" as the two digits of "twenty one";
 * - "double"/"triple" before a digit word repeat it;
 * - numerals the recogniser may write as such ("4111").
 *
 * "hundred", "thousand" and the like end a run: amounts are not the digit strings the detectors look for.
 * Words are compared in lower case, so a sentence-initial "Four" counts.
 */
export function digitRuns(words: readonly SpokenWord[]): DigitRun[] {
  const runs: DigitRun[] = [];
  let current: DigitRun | undefined;
  /** Fillers after the last number word of the current run: kept only if another number word follows. */
  let pending: SpokenWord[] = [];

  const close = () => {
    if (current !== undefined && !isInterjection(current)) runs.push(current);
    current = undefined;
    pending = [];
  };

  for (let i = 0; i < words.length;) {
    const word = words[i] as SpokenWord;
    const reading = readAt(words, i);
    if (reading === undefined) {
      if (current !== undefined && FILLERS.has(normal(word.w)) && word.speakerName === current.speakerName) {
        pending.push(word);
      } else {
        close();
      }
      i += 1;
      continue;
    }
    const read = words.slice(i, i + reading.length);
    const first = read[0] as SpokenWord;
    const last = read.at(-1) as SpokenWord;
    const joins =
      current !== undefined &&
      first.speakerName === current.speakerName &&
      first.s - current.e <= MAX_DIGIT_GAP_MS;
    if (current !== undefined && joins) {
      current.digits += reading.digits;
      current.words.push(...pending, ...read);
      current.e = last.e;
      pending = [];
    } else {
      close();
      current = {
        speakerName: first.speakerName,
        digits: reading.digits,
        words: read,
        s: first.s,
        e: last.e,
      };
    }
    i += reading.length;
  }
  close();
  return runs;
}

/** The reading of the number word at `index` (with the word after it where they go together). */
function readAt(words: readonly SpokenWord[], index: number): Reading | undefined {
  const word = words[index];
  if (word === undefined) return undefined;
  const text = normal(word.w);
  const next = words[index + 1];
  // Words of another speaker never combine: the next one starts a different run.
  const nextText = next !== undefined && next.speakerName === word.speakerName ? normal(next.w) : "";

  if (/^\d+$/u.test(text)) return { digits: text, length: 1 };
  const unit = UNITS[text];
  if (unit !== undefined) return { digits: unit, length: 1 };
  const teen = TEENS[text];
  if (teen !== undefined) return { digits: teen, length: 1 };
  const tens = TENS[text];
  if (tens !== undefined) {
    const following = UNITS[nextText];
    // "twenty oh" is not a number; "twenty" then "oh" read as 20 and 0 is.
    if (following !== undefined && following !== "0") return { digits: tens + following, length: 2 };
    return { digits: `${tens}0`, length: 1 };
  }
  const times = REPEATS[text];
  const repeated = UNITS[nextText];
  if (times !== undefined && repeated !== undefined) return { digits: repeated.repeat(times), length: 2 };
  return undefined;
}

function isInterjection(run: DigitRun): boolean {
  return run.words.every((word) => normal(word.w) === "oh");
}

function normal(word: string): string {
  return word.toLowerCase();
}

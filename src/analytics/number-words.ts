/**
 * Reading number words as numbers: "one hundred thirty eight" is 138, "nineteen ninety nine" is the two
 * numbers 19 and 99, "twenty first" the ordinal 21. The number formatter (number-formatting.ts) decides
 * what to write from these readings. Pure; words are compared in lower case.
 */

/** One number read from consecutive words: a cardinal, an ordinal, a decimal or a repeated digit. */
export interface NumberChunk {
  /** Index of the first word read, and of the word after the last one. */
  from: number;
  to: number;
  /** As written in digits: "138", "0" for "oh", "55" for "double five", "3.5" for "three point five". */
  digits: string;
  value: number;
  /** "hundred", "thousand" or a larger scale was said: the words were an amount, not a string of digits. */
  scaled: boolean;
  ordinal: boolean;
  decimal: boolean;
}

const UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const TEENS = ["ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen"].concat([
  "eighteen",
  "nineteen",
]);
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const ORDINAL_UNITS = [
  "",
  "first",
  "second",
  "third",
  "fourth",
  "fifth",
  "sixth",
  "seventh",
  "eighth",
  "ninth",
];
const ORDINAL_TEENS = ["tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth"].concat([
  "sixteenth",
  "seventeenth",
  "eighteenth",
  "nineteenth",
]);
const ORDINAL_TENS = [
  "",
  "",
  "twentieth",
  "thirtieth",
  "fortieth",
  "fiftieth",
  "sixtieth",
  "seventieth",
].concat(["eightieth", "ninetieth"]);
const SCALES: Readonly<Record<string, number>> = { thousand: 1e3, million: 1e6, billion: 1e9 };
const ORDINAL_SCALES: Readonly<Record<string, number>> = { thousandth: 1e3, millionth: 1e6, billionth: 1e9 };
const REPEATS: Readonly<Record<string, number>> = { double: 2, triple: 3 };

type Kind = "unit" | "teen" | "tens" | "hundred" | "scale";
interface Lexeme {
  kind: Kind;
  value: number;
  ordinal: boolean;
}

function lexeme(word: string | undefined): Lexeme | undefined {
  if (word === undefined) return undefined;
  const at = (list: readonly string[]) => list.indexOf(word);
  if (at(UNITS) >= 1) return { kind: "unit", value: at(UNITS), ordinal: false };
  if (at(ORDINAL_UNITS) >= 1) return { kind: "unit", value: at(ORDINAL_UNITS), ordinal: true };
  if (at(TEENS) >= 0) return { kind: "teen", value: 10 + at(TEENS), ordinal: false };
  if (at(ORDINAL_TEENS) >= 0) return { kind: "teen", value: 10 + at(ORDINAL_TEENS), ordinal: true };
  if (at(TENS) >= 2) return { kind: "tens", value: 10 * at(TENS), ordinal: false };
  if (at(ORDINAL_TENS) >= 2) return { kind: "tens", value: 10 * at(ORDINAL_TENS), ordinal: true };
  if (word === "hundred" || word === "hundredth") {
    return { kind: "hundred", value: 100, ordinal: word === "hundredth" };
  }
  const scale = SCALES[word] ?? ORDINAL_SCALES[word];
  if (scale !== undefined) return { kind: "scale", value: scale, ordinal: word in ORDINAL_SCALES };
  return undefined;
}

/** A word that reads as one digit: "zero" … "nine" and "oh". */
export function digitOf(word: string | undefined): string | undefined {
  if (word === "oh") return "0";
  const index = word === undefined ? -1 : UNITS.indexOf(word);
  return index >= 0 ? String(index) : undefined;
}

/** Where each kind of word may follow the words before it in one cardinal number. */
const MAY_FOLLOW: Readonly<Record<Kind, readonly (Kind | "none" | "tensunit")[]>> = {
  unit: ["none", "tens", "hundred", "scale"],
  teen: ["none", "hundred", "scale"],
  tens: ["none", "hundred", "scale"],
  hundred: ["unit", "teen", "tens", "tensunit"],
  scale: ["unit", "teen", "tens", "tensunit", "hundred"],
};

/**
 * The number read from `words` at `index`, reading as many words as make one number, or undefined when
 * the word there is not a number word. "oh", "zero", numerals and "double five" are numbers of their
 * own; "a" counts as one before "hundred" or "thousand"; "and" is skipped after a scale ("two hundred
 * and five"); "point" followed by digits makes a decimal. An ordinal word ends the number.
 */
export function readNumber(words: readonly string[], index: number): NumberChunk | undefined {
  const word = words[index];
  if (word === undefined) return undefined;
  if (/^\d+$/u.test(word)) return withDecimals(words, plain(index, index + 1, word));
  const digit = digitOf(word);
  if (digit === "0") return withDecimals(words, plain(index, index + 1, "0"));
  const times = REPEATS[word];
  const repeated = digitOf(words[index + 1]);
  if (times !== undefined && repeated !== undefined) return plain(index, index + 2, repeated.repeat(times));

  let total = 0;
  let current = 0;
  let last = "none" as Kind | "none" | "tensunit";
  let largest = Infinity;
  let scaled = false;
  let ordinal = false;
  let at = index;
  if (word === "a" && ["hundred", "thousand", "million"].includes(words[index + 1] ?? "")) {
    current = 1;
    last = "unit";
    at += 1;
  }
  while (at < words.length && !ordinal) {
    const next = words[at];
    if (next === "and" && (last === "hundred" || last === "scale") && andJoins(words, at)) {
      at += 1;
      continue;
    }
    const read = lexeme(next);
    if (read === undefined || !MAY_FOLLOW[read.kind].includes(last)) break;
    if (read.kind === "hundred") {
      if (current < 1 || current > 99) break;
      current *= 100;
      scaled = true;
      last = "hundred";
    } else if (read.kind === "scale") {
      if (current < 1 || read.value >= largest) break;
      total += current * read.value;
      current = 0;
      largest = read.value;
      scaled = true;
      last = "scale";
    } else {
      current += read.value;
      last = read.kind === "unit" && last === "tens" ? "tensunit" : read.kind;
    }
    ordinal = read.ordinal;
    at += 1;
  }
  if (at === index || last === "none") return undefined;
  // "a" alone, or "and" left dangling, is not part of the number.
  const value = total + current;
  const chunk = { from: index, to: at, digits: String(value), value, scaled, ordinal, decimal: false };
  return ordinal ? chunk : withDecimals(words, chunk);
}

/**
 * "and" belongs to the number only where a smaller part follows it and no larger scale after that:
 * "two hundred and five" is one number, "one thousand and two thousand" two.
 */
function andJoins(words: readonly string[], at: number): boolean {
  const after = lexeme(words[at + 1]);
  if (after === undefined || after.kind === "hundred" || after.kind === "scale") return false;
  return ![words[at + 2], words[at + 3]].some((word) => word !== undefined && word in SCALES);
}

function plain(from: number, to: number, digits: string): NumberChunk {
  return { from, to, digits, value: Number(digits), scaled: false, ordinal: false, decimal: false };
}

function withDecimals(words: readonly string[], chunk: NumberChunk): NumberChunk {
  if (words[chunk.to] !== "point" || digitOf(words[chunk.to + 1]) === undefined) return chunk;
  let at = chunk.to + 1;
  let decimals = "";
  for (let digit = digitOf(words[at]); digit !== undefined; digit = digitOf(words[at])) {
    decimals += digit;
    at += 1;
  }
  const digits = `${chunk.digits}.${decimals}`;
  return { ...chunk, to: at, digits, value: Number(digits), decimal: true };
}

/** Consecutive numbers from `index` on: "six five zero" is three, "nineteen ninety nine" two. */
export function readNumbers(words: readonly string[], index: number): NumberChunk[] {
  const chunks: NumberChunk[] = [];
  for (let chunk = readNumber(words, index); chunk !== undefined; chunk = readNumber(words, chunk.to)) {
    chunks.push(chunk);
  }
  return chunks;
}

/** "1st", "22nd", "113th". */
export function ordinalSuffix(value: number): string {
  const lastTwo = value % 100;
  if (lastTwo >= 11 && lastTwo <= 13) return "th";
  return ["th", "st", "nd", "rd"][value % 10] ?? "th";
}

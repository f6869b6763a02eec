/**
 * How often number formatting writes what was said as the expected digits: sentences with numbers are
 * spoken by flite, heard by pocketsphinx, assembled and formatted as processing does, and each expected
 * written form ("650-897-5170", "$138.65") is looked for among the formatted words. Each sentence is
 * also formatted straight from its own words, which tells the formatter's share of the misses from the
 * recogniser's.
 *
 * Two sets: "tuned", the examples the formatter was written and unit-tested against
 * (test/analytics/number-formatting.test.ts), and "held-out", sentences generated here from a fixed seed
 * that the formatter was never adjusted to. Run: npm run bench:numbers
 */
import { join } from "node:path";
import { formatNumbers, numberReplacements } from "../src/analytics/number-formatting.ts";
import { assembleTranscript } from "../src/pipeline/assemble.ts";
import { transcribeSpeaker } from "../src/pipeline/transcribe.ts";
import { buildSpeech, tempDir } from "../test/pipeline/speech.ts";

interface Case {
  text: string;
  expected: string;
}

const TUNED: Case[] = [
  {
    text: "the total of your bill comes to one hundred thirty eight dollars and sixty five cents",
    expected: "$138.65",
  },
  {
    text: "please give me a call back at six five zero eight nine seven five one seven zero",
    expected: "650-897-5170",
  },
  {
    text: "my card is four one one one one one one one one one one one one one one one",
    expected: "4111111111111111",
  },
  { text: "it expires oh eight twenty five", expected: "0825" },
  { text: "it was in nineteen ninety nine", expected: "1999" },
  { text: "we started in two thousand seventeen", expected: "2017" },
  { text: "rates rose three point five percent", expected: "3.5%" },
  { text: "that is twelve percent", expected: "12%" },
  { text: "it costs one thousand five hundred dollars", expected: "$1,500" },
  { text: "see you at three thirty", expected: "3:30" },
  { text: "the twenty first of march", expected: "21st" },
  { text: "we have two hundred and five people", expected: "205" },
];

const UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
const TEENS = [
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
const ORDINALS: Record<number, string> = {
  1: "first",
  2: "second",
  3: "third",
  5: "fifth",
  8: "eighth",
  9: "ninth",
  12: "twelfth",
};

/** Spelled independently of src/analytics/number-words.ts, so its mistakes are not copied here. */
function below100(n: number): string {
  if (n < 10) return UNITS[n] ?? "";
  if (n < 20) return TEENS[n - 10] ?? "";
  return `${TENS[Math.floor(n / 10)]}${n % 10 === 0 ? "" : ` ${UNITS[n % 10]}`}`;
}
function cardinal(n: number): string {
  const parts: string[] = [];
  if (n >= 1000) parts.push(`${cardinal(Math.floor(n / 1000))} thousand`);
  const rest = n % 1000;
  if (rest >= 100) parts.push(`${UNITS[Math.floor(rest / 100)]} hundred`);
  if (rest % 100 > 0 || n === 0) parts.push(below100(rest % 100));
  return parts.join(" ");
}
function ordinal(n: number): string {
  const word = ORDINALS[n % 10 === 0 ? n : n % 10] ?? `${below100(n % 10)}th`;
  if (n < 10) return word;
  if (n < 20) return ORDINALS[n] ?? `${below100(n)}th`;
  if (n % 10 === 0) return `${TENS[n / 10]?.replace(/y$/u, "ieth")}`;
  return `${TENS[Math.floor(n / 10)]} ${word}`;
}
function suffix(n: number): string {
  if (n % 100 >= 11 && n % 100 <= 13) return "th";
  return ["th", "st", "nd", "rd"][n % 10] ?? "th";
}

/** A small deterministic generator (mulberry32), so the held-out set is the same on every run. */
function random(seed: number): (below: number) => number {
  let state = seed;
  return (below) => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * below);
  };
}

function heldOut(count: number): Case[] {
  const next = random(20261123);
  const digits = (length: number, first = 1) =>
    Array.from({ length }, (_, index) => (index === 0 ? first + next(10 - first) : next(10)));
  const make: (() => Case)[] = [
    () => {
      const d = digits(10, 2);
      const s = d.join("");
      return {
        text: `call me back at ${d.map((x) => UNITS[x]).join(" ")} thanks`,
        expected: `${s.slice(0, 3)}-${s.slice(3, 6)}-${s.slice(6)}`,
      };
    },
    () => {
      const d = digits(16, 3);
      return { text: `the card number is ${d.map((x) => UNITS[x]).join(" ")} okay`, expected: d.join("") };
    },
    () => {
      const dollars = 1 + next(2999);
      const cents = next(100);
      const money =
        dollars >= 1000
          ? `${Math.floor(dollars / 1000)},${String(dollars % 1000).padStart(3, "0")}`
          : String(dollars);
      return cents === 0
        ? { text: `the balance is ${cardinal(dollars)} dollars today`, expected: `$${money}` }
        : {
            text: `the balance is ${cardinal(dollars)} dollars and ${below100(cents)} cents`,
            expected: `$${money}.${String(cents).padStart(2, "0")}`,
          };
    },
    () => {
      const percent = 1 + next(99);
      return { text: `sales grew ${cardinal(percent)} percent this year`, expected: `${percent}%` };
    },
    () => {
      const year = 1950 + next(50);
      return {
        text: `the house was built in ${below100(Math.floor(year / 100))} ${year % 100 < 10 ? `oh ${UNITS[year % 100]}` : below100(year % 100)}`,
        expected: String(year),
      };
    },
    () => {
      const hour = 1 + next(12);
      const minute = 10 + next(50);
      return {
        text: `the meeting starts at ${below100(hour)} ${below100(minute)}`,
        expected: `${hour}:${minute}`,
      };
    },
    () => {
      const day = 1 + next(31);
      return { text: `the invoice is due on march ${ordinal(day)}`, expected: `${day}${suffix(day)}` };
    },
    () => {
      const amount = 100 + next(9900);
      return { text: `we shipped ${cardinal(amount)} orders last week`, expected: String(amount) };
    },
  ];
  return Array.from({ length: count }, (_, index) => (make[index % make.length] as () => Case)());
}

function formattedWords(words: readonly string[]): string[] {
  const out: string[] = [];
  let at = 0;
  for (const { from, to, text } of numberReplacements(words)) {
    out.push(...words.slice(at, from), text);
    at = to;
  }
  return [...out, ...words.slice(at)];
}

async function measure(name: string, cases: readonly Case[], dir: string): Promise<void> {
  let textHits = 0;
  let speechHits = 0;
  for (const [index, { text, expected }] of cases.entries()) {
    if (formattedWords(text.split(" ")).includes(expected)) textHits += 1;
    const file = join(dir, `${name}-${index}.wav`);
    await buildSpeech([{ silenceMs: 300 }, { text }, { silenceMs: 300 }], file);
    const heard = await transcribeSpeaker(file, 0);
    const { words, voiceActivity, confidence } = assembleTranscript([
      { speakerName: "", channel: 0, words: heard },
    ]);
    const formatted = formatNumbers({ words, voiceActivity, confidence, alternateFormats: [] }).words;
    const hit = formatted.some((word) => word.w === expected);
    if (hit) speechHits += 1;
    else console.log(`  miss ${expected}: heard "${heard.map((word) => word.word).join(" ")}"`);
  }
  const pct = (hits: number) => `${hits}/${cases.length} (${((100 * hits) / cases.length).toFixed(0)}%)`;
  console.log(
    `${name}: from the words said ${pct(textHits)}; through flite and pocketsphinx ${pct(speechHits)}`,
  );
}

const { dir, cleanup } = await tempDir("hark-numbers-");
try {
  await measure("tuned", TUNED, dir);
  await measure("held-out", heldOut(40), dir);
} finally {
  await cleanup();
}

/**
 * Vocabulary terms in pocketsphinx's keyword search, and its hits in the recognised words. Pure.
 *
 * Why a keyword pass beside the n-gram search rather than in it: a word in the dictionary but not in the
 * language model is never produced by the n-gram search, and adding words to the 27 MB trigram model
 * means rewriting it per item (Debian does not even install `sphinx_lm_convert`). The keyword search
 * needs only the terms' own pronunciations: with a dictionary of just those it runs at a tenth of the
 * n-gram search's time. Each hit then replaces the recognised words it covers.
 */
import type { RecognizedWord } from "../domain/transcript.ts";
import type { PronouncedTerm } from "./pronunciations.ts";

/**
 * The keyword search's threshold is a ratio p(phrase)/p(anything else) below which a hit is dropped,
 * written as a power of ten: 1e-20 hears more than 1e-10. Longer phrases score lower, so the exponent
 * grows with the phones; a higher weight lowers the threshold, so the term is heard more readily.
 * `baseExponent` and `perPhone` were chosen by `npm run bench:vocabulary` on its tuning half only (the most
 * terms heard less false insertions). `perWeight` is a judgement the bench cannot make (it has no right
 * weight to find): one power of ten per step. On the bench's tuning half (145 s of calls) every term at
 * weight 0 or 1 was heard 23 times of 28 with 3 false insertions; at weight 5, 22 with 10.
 */
export interface ThresholdTuning {
  baseExponent: number;
  perPhone: number;
  perWeight: number;
}

export const DEFAULT_THRESHOLD_TUNING: ThresholdTuning = { baseExponent: 7, perPhone: 2.5, perWeight: 1 };

/** The keyword threshold's exponent (the threshold is `1e-<exponent>`); rises with phones and with weight. */
export function thresholdExponent(
  phoneCount: number,
  weight: number,
  tuning: ThresholdTuning = DEFAULT_THRESHOLD_TUNING,
): number {
  const exponent = tuning.baseExponent + tuning.perPhone * phoneCount + tuning.perWeight * weight;
  return Math.max(1, Math.round(exponent));
}

/** The files pocketsphinx's keyword search reads, and what each of its entries stands for. */
export interface KeywordSearch {
  /** `-dict`: one entry per pronunciation, named `hark_term_<term>_<pronunciation>`. */
  dictionary: string;
  /** `-kws`: one `entry /1e-N/` line per pronunciation. */
  keywords: string;
  /** Entry name → the term's text. */
  terms: Map<string, string>;
}

export function keywordSearch(
  terms: readonly PronouncedTerm[],
  tuning: ThresholdTuning = DEFAULT_THRESHOLD_TUNING,
): KeywordSearch {
  const dictionary: string[] = [];
  const keywords: string[] = [];
  const names = new Map<string, string>();
  for (const [termIndex, term] of terms.entries()) {
    for (const [index, phones] of term.pronunciations.entries()) {
      // A made-up name: the term's own spelling may hold anything, and pocketsphinx reads words up to a space.
      const name = `hark_term_${termIndex}_${index}`;
      dictionary.push(`${name} ${phones.join(" ")}`);
      keywords.push(`${name} /1e-${thresholdExponent(phones.length, term.weight, tuning)}/`);
      names.set(name, term.term);
    }
  }
  return { dictionary: `${dictionary.join("\n")}\n`, keywords: `${keywords.join("\n")}\n`, terms: names };
}

/** A term heard by the keyword search: its text, times in ms from the start of the media, confidence 0..1. */
export interface KeywordHit {
  term: string;
  start: number;
  end: number;
  confidence: number;
}

/** `hark_term_0_1  1.630 2.280 0.886465`: what `pocketsphinx_continuous -kws ... -time yes` prints per hit. */
const HIT_LINE = /^(hark_term_\d+_\d+)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?)\s+(\d+(?:\.\d+)?(?:e[-+]?\d+)?)$/i;

export function parseKeywordHits(stdout: string, search: KeywordSearch, offsetMs = 0): KeywordHit[] {
  const hits: KeywordHit[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const match = HIT_LINE.exec(line.trim());
    if (!match) continue;
    const [, name = "", startS = "", endS = "", confidence = ""] = match;
    const term = search.terms.get(name.toLowerCase());
    if (term === undefined) continue;
    const start = Math.round(offsetMs + Number(startS) * 1000);
    const end = Math.max(start, Math.round(offsetMs + Number(endS) * 1000));
    hits.push({ term, start, end, confidence: Math.min(1, Math.max(0, Number(confidence) || 0)) });
  }
  return hits;
}

function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}

/**
 * The recognised words with each hit in place of the words it covers (those whose middle falls within
 * the hit): the term's words share the hit's time in proportion to their length, and carry its
 * confidence; a word the hit covers only partly is cut back to the hit's edge, so that no words overlap. Hits that overlap each other (two terms, or two pronunciations of one) keep the most
 * confident. In time order.
 */
export function mergeKeywordHits(
  words: readonly RecognizedWord[],
  hits: readonly KeywordHit[],
): RecognizedWord[] {
  const kept: KeywordHit[] = [];
  for (const hit of [...hits].sort((a, b) => b.confidence - a.confidence || a.start - b.start)) {
    if (!kept.some((other) => overlaps(hit, other))) kept.push(hit);
  }
  if (kept.length === 0) return [...words];
  const covered = (word: RecognizedWord) => {
    const middle = (word.start + word.end) / 2;
    return kept.some((hit) => middle >= hit.start && middle <= hit.end);
  };
  const merged = [
    ...words.filter((word) => !covered(word)).map((word) => clipped(word, kept)),
    ...kept.flatMap(termWords),
  ];
  return merged.sort((a, b) => a.start - b.start || a.end - b.end);
}

/** A word a hit partly covers, cut back to the hit's edge: the hit's words own that time now. */
function clipped(word: RecognizedWord, hits: readonly KeywordHit[]): RecognizedWord {
  let { start, end } = word;
  for (const hit of hits) {
    if (!overlaps({ start, end }, hit)) continue;
    if (start < hit.start) end = hit.start;
    else start = hit.end;
  }
  return start === word.start && end === word.end ? word : { ...word, start, end: Math.max(start, end) };
}

/** The term's words across the hit's time, each as long as its share of the letters. */
function termWords(hit: KeywordHit): RecognizedWord[] {
  const parts = hit.term.split(/\s+/).filter((part) => part !== "");
  const letters = parts.reduce((sum, part) => sum + part.length, 0);
  const span = hit.end - hit.start;
  let at = hit.start;
  let used = 0;
  return parts.map((part) => {
    used += part.length;
    const end = hit.start + Math.round((span * used) / letters);
    const word = { word: part, start: at, end, confidence: hit.confidence };
    at = end;
    return word;
  });
}

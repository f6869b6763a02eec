/**
 * pocketsphinx's keyword search over one audio piece, for vocabulary terms: a second, short run of
 * `pocketsphinx_continuous` with `-kws` and a dictionary of only the terms (see `keyword-spotting.ts` for
 * why and for what its hits do to the words).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RecognizedWord } from "../domain/transcript.ts";
import {
  DEFAULT_THRESHOLD_TUNING,
  keywordSearch,
  mergeKeywordHits,
  parseKeywordHits,
  type ThresholdTuning,
} from "./keyword-spotting.ts";
import type { PronouncedTerm } from "./pronunciations.ts";
import { run } from "./run.ts";

export interface KeywordPassOptions {
  binary: string;
  /** The acoustic model directory (`-hmm`). */
  acousticModel: string;
  tuning?: ThresholdTuning;
  signal?: AbortSignal;
}

/** The recognised words of a piece with the vocabulary's terms heard in it put in place. */
export async function spotKeywords(
  words: readonly RecognizedWord[],
  wavPath: string,
  offsetMs: number,
  vocabulary: readonly PronouncedTerm[],
  options: KeywordPassOptions,
): Promise<RecognizedWord[]> {
  const search = keywordSearch(vocabulary, options.tuning ?? DEFAULT_THRESHOLD_TUNING);
  if (search.terms.size === 0) return [...words];
  // Tiny files (a line per pronunciation); the piece's directory may be the media's own, so not there.
  const dir = await mkdtemp(join(tmpdir(), "hark-keywords-"));
  try {
    const dictionary = join(dir, "terms.dict");
    const keywords = join(dir, "terms.kws");
    await writeFile(dictionary, search.dictionary);
    await writeFile(keywords, search.keywords);
    const args = [
      ...["-infile", wavPath, "-time", "yes", "-logfn", "/dev/null"],
      ...["-hmm", options.acousticModel, "-dict", dictionary, "-kws", keywords],
    ];
    const { stdout } = await run(options.binary, args, { signal: options.signal });
    return mergeKeywordHits(words, parseKeywordHits(stdout, search, offsetMs));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

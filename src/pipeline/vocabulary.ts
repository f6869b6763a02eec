/**
 * Gives vocabulary terms their pronunciations (see `pronunciations.ts` for the choice): words from the
 * recogniser's own dictionary, the others from flite's letter-to-sound rules (`t2p`, Debian's `flite`
 * package; trained on CMUdict, so its guesses are in the dictionary's style). What reads files and starts
 * programs is here; what decides is pure and tested on its own.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { DEBIAN_POCKETSPHINX_MODEL_DIR } from "./pocketsphinx.ts";
import {
  flitePhones,
  parseDictionary,
  type PronouncedTerm,
  pronounce,
  type RecognitionTerm,
  termsToListenFor,
  wordsMissingFrom,
} from "./pronunciations.ts";
import { run } from "./run.ts";

export interface PronounceOptions {
  /** A CMUdict-format file; defaults to the one of pocketsphinx's US English model. */
  dictionaryPath?: string;
  /** flite's letter-to-sound program. */
  t2pBinary?: string;
  signal?: AbortSignal;
}

export interface PronouncedVocabulary {
  /** The terms that have a pronunciation, in the order given. */
  terms: PronouncedTerm[];
  /** The terms none could be found for (symbols only, or letter to sound is not installed). */
  unpronounceable: string[];
}

/** Read once per process: 3 MB, 135,000 words, about 0.1 s to parse. */
const dictionaries = new Map<string, Promise<Map<string, string[]>>>();

function dictionary(path: string): Promise<Map<string, string[]>> {
  let loaded = dictionaries.get(path);
  if (loaded === undefined) {
    loaded = readFile(path, "utf8").then(parseDictionary);
    loaded.catch(() => dictionaries.delete(path));
    dictionaries.set(path, loaded);
  }
  return loaded;
}

export async function pronounceTerms(
  given: readonly RecognitionTerm[],
  options: PronounceOptions = {},
): Promise<PronouncedVocabulary> {
  if (given.length === 0) return { terms: [], unpronounceable: [] };
  const words = await dictionary(
    options.dictionaryPath ?? join(DEBIAN_POCKETSPHINX_MODEL_DIR, "cmudict-en-us.dict"),
  );
  const fromDictionary = (word: string) => words.get(word);
  const terms = termsToListenFor(given, fromDictionary);
  const guessed = new Map<string, string[]>();
  // One word per run: several in one text run together without a boundary. A few ms each.
  for (const word of wordsMissingFrom(terms, fromDictionary)) {
    const phones = await letterToSound(word, options);
    if (phones !== undefined) guessed.set(word, phones);
  }
  const pronounced = terms.map((term) => pronounce(term, fromDictionary, (word) => guessed.get(word)));
  return {
    terms: pronounced.filter((term) => term.pronunciations.length > 0),
    unpronounceable: pronounced.filter((term) => term.pronunciations.length === 0).map((term) => term.term),
  };
}

async function letterToSound(word: string, options: PronounceOptions): Promise<string[] | undefined> {
  try {
    const { stdout } = await run(options.t2pBinary ?? "t2p", [word], { signal: options.signal });
    return flitePhones(stdout);
  } catch (error) {
    options.signal?.throwIfAborted();
    // Not installed, or it failed on this word: the term is reported as unpronounceable, not fatal.
    if (error instanceof Error) return undefined;
    throw error;
  }
}

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
  dictionaryLookup,
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

/** Read once per process, when an item first has a vocabulary: 135,000 words, about 0.5 s, 27 MB of heap. */
const dictionaries = new Map<string, Promise<Map<string, string>>>();

function dictionary(path: string): Promise<Map<string, string>> {
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
  const fromDictionary = dictionaryLookup(words);
  const terms = termsToListenFor(given, fromDictionary);
  const guessed = new Map<string, string[]>();
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

/**
 * Guesses kept per process: one word per `t2p` run (several in one text run together without a
 * boundary) costs about 5 ms, so a saved vocabulary of 1000 new words would cost 5 s on every item.
 */
const guesses = new Map<string, string[]>();
const MAX_KEPT_GUESSES = 50_000;

async function letterToSound(word: string, options: PronounceOptions): Promise<string[] | undefined> {
  const known = guesses.get(word);
  if (known !== undefined) return known;
  try {
    const { stdout } = await run(options.t2pBinary ?? "t2p", [word], { signal: options.signal });
    const phones = flitePhones(stdout);
    if (phones !== undefined && guesses.size < MAX_KEPT_GUESSES) guesses.set(word, phones);
    return phones;
  } catch (error) {
    options.signal?.throwIfAborted();
    // Not installed, or it failed on this word: the term is reported as unpronounceable, not fatal.
    if (error instanceof Error) return undefined;
    throw error;
  }
}

/**
 * How a vocabulary term is pronounced, for the recogniser: a list of CMU (ARPAbet) phone strings, one per
 * way of saying it. Pure: the dictionary and the letter-to-sound rules are passed in as lookups (see
 * `vocabulary.ts` for where they come from).
 *
 * The order of preference is VoiceBase's meaning of the fields:
 * 1. the term's own words, each in the dictionary (CMUdict), for names and rare words the dictionary has;
 * 2. each `soundsLike` spelling, its words from the dictionary or else from letter to sound: "AFFO" sounds
 *    like "A. F. F. O." says how the client hears a term the dictionary cannot know;
 * 3. only when neither gave one: the term's words, those the dictionary lacks from letter to sound.
 */

/** A term as recognition uses it: the text to write when it is heard, how it may sound, how strongly. */
export interface RecognitionTerm {
  term: string;
  soundsLike?: readonly string[];
  /** 0 (default) to 5: the higher, the more readily the recogniser writes the term. */
  weight?: number;
  /**
   * Listened for only when the dictionary lacks one of its words (a word of a script vocabulary): the
   * language model already places the words it has in context better than a keyword search would.
   */
  unknownOnly?: boolean;
}

/** A term with its pronunciations: each a list of phones (`["Z", "AO", "R", ...]`), never empty. */
export interface PronouncedTerm {
  term: string;
  weight: number;
  pronunciations: string[][];
}

/** The first pronunciation of a lower-case word, as phones, or `undefined` when the source has none. */
export type PhoneLookup = (word: string) => readonly string[] | undefined;

/** A term may sound several ways; a few are enough, and each costs the keyword search time. */
export const MAX_PRONUNCIATIONS = 4;

/**
 * The words of a text as dictionaries spell them: lower case, letters, digits and inner apostrophes
 * ("O'Brien" → "o'brien"); other characters separate words ("X-Ray" → x ray). A lone letter keeps its
 * dot: CMUdict spells a letter's name so ("a." is EY, "a" the article), and VoiceBase's own example of
 * `soundsLike` spells a term letter by letter that way ("A. F. F. O.").
 */
export function spokenWordsOf(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9']+\.?/g) ?? [])
    .map((word) => word.replace(/^'+|'+(?=\.?$)/g, ""))
    .map((word) => (/^[a-z]\.$/.test(word) ? word : word.replace(/\.$/, "")))
    .filter((word) => word !== "" && word !== ".");
}

/** How a dictionary may spell a word: a letter's name ("o.") may be missing, then the letter ("o"). */
function spellings(word: string): string[] {
  return word.endsWith(".") ? [word, word.slice(0, -1)] : [word];
}

/** The phones of a word from the first lookup that has some, in any of its spellings. */
function phonesOfWord(word: string, lookups: readonly PhoneLookup[]): readonly string[] | undefined {
  for (const lookup of lookups) {
    for (const spelling of spellings(word)) {
      const phones = lookup(spelling);
      if (phones !== undefined && phones.length > 0) return phones;
    }
  }
  return undefined;
}

/** The phones of a text when every word has some from one of the lookups, tried in order. */
function phonesOf(text: string, lookups: readonly PhoneLookup[]): string[] | undefined {
  const words = spokenWordsOf(text);
  if (words.length === 0) return undefined;
  const phones: string[] = [];
  for (const word of words) {
    const found = phonesOfWord(word, lookups);
    if (found === undefined) return undefined;
    phones.push(...found);
  }
  return phones;
}

/**
 * The term's pronunciations, best first, without repeats, at most `MAX_PRONUNCIATIONS`; empty when none
 * of the ways above gives one (a term of symbols only, and no `soundsLike`).
 */
export function pronounce(
  term: RecognitionTerm,
  dictionary: PhoneLookup,
  letterToSound: PhoneLookup,
): PronouncedTerm {
  const candidates: (string[] | undefined)[] = [
    phonesOf(term.term, [dictionary]),
    ...(term.soundsLike ?? []).map((spelling) => phonesOf(spelling, [dictionary, letterToSound])),
  ];
  if (!candidates.some((phones) => phones !== undefined)) {
    candidates.push(phonesOf(term.term, [dictionary, letterToSound]));
  }
  const seen = new Set<string>();
  const pronunciations: string[][] = [];
  for (const phones of candidates) {
    if (phones === undefined || seen.has(phones.join(" "))) continue;
    seen.add(phones.join(" "));
    pronunciations.push(phones);
  }
  return {
    term: term.term,
    weight: term.weight ?? 0,
    pronunciations: pronunciations.slice(0, MAX_PRONUNCIATIONS),
  };
}

/** The terms worth listening for: all but the `unknownOnly` ones whose words the dictionary has. */
export function termsToListenFor(
  terms: readonly RecognitionTerm[],
  dictionary: PhoneLookup,
): RecognitionTerm[] {
  return terms.filter(
    (term) =>
      term.unknownOnly !== true ||
      spokenWordsOf(term.term).some((word) => phonesOfWord(word, [dictionary]) === undefined),
  );
}

/** The words of terms that the dictionary lacks: what letter to sound must be asked for, each once. */
export function wordsMissingFrom(terms: readonly RecognitionTerm[], dictionary: PhoneLookup): string[] {
  const missing = new Set<string>();
  for (const term of terms) {
    for (const text of [term.term, ...(term.soundsLike ?? [])]) {
      for (const word of spokenWordsOf(text)) {
        if (phonesOfWord(word, [dictionary]) === undefined) missing.add(word);
      }
    }
  }
  return [...missing];
}

/**
 * A CMUdict-format dictionary (`word PH ON ES`, alternates as `word(2) ...`): each word's first
 * pronunciation, its phones in one string ("HH AH L OW"). pocketsphinx's `cmudict-en-us.dict` is in this
 * format. One string rather than an array per word: the whole dictionary then keeps 27 MB of heap, not 42.
 */
export function parseDictionary(text: string): Map<string, string> {
  const entries = new Map<string, string>();
  for (const line of text.split("\n")) {
    const space = line.search(/\s/);
    if (space <= 0) continue;
    const word = line.slice(0, space);
    const phones = line.slice(space).trim().replace(/\s+/g, " ");
    if (phones === "" || word.includes("(") || entries.has(word)) continue;
    entries.set(word, phones);
  }
  return entries;
}

/** `parseDictionary`'s map as a lookup. */
export function dictionaryLookup(entries: ReadonlyMap<string, string>): PhoneLookup {
  return (word) => entries.get(word)?.split(" ");
}

/** CMU's 39 phones: what pocketsphinx's US English model and CMUdict use. */
export const CMU_PHONES: ReadonlySet<string> = new Set(
  "AA AE AH AO AW AY B CH D DH EH ER EY F G HH IH IY JH K L M N NG OW OY P R S SH T TH UH UW V W Y Z ZH".split(
    " ",
  ),
);

/** flite phones CMU's set lacks, as the nearest CMU phones (flite's `cmulex` phone set). */
const FLITE_TO_CMU: Record<string, string[]> = {
  ax: ["AH"],
  axr: ["ER"],
  dx: ["D"],
  el: ["AH", "L"],
  em: ["AH", "M"],
  en: ["AH", "N"],
  hv: ["HH"],
  nx: ["N"],
};

/**
 * What flite's `t2p` prints (e.g. `pau z ao1 r b aa1 t r ih k s pau`) as CMU phones: stress digits and
 * pauses go. `undefined` when a phone has no CMU equivalent, or there are none.
 */
export function flitePhones(output: string): string[] | undefined {
  const phones = output
    .trim()
    .split(/\s+/)
    .map((phone) => phone.replace(/\d$/, ""))
    .filter((phone) => phone !== "" && phone !== "pau")
    .flatMap((phone) => FLITE_TO_CMU[phone] ?? [phone.toUpperCase()]);
  return phones.length > 0 && phones.every((phone) => CMU_PHONES.has(phone)) ? phones : undefined;
}

/**
 * Custom vocabularies (VoiceBase's custom-vocabulary guide): words and phrases the recogniser should
 * expect, kept by name with `PUT /v3/definition/vocabularies/{vocabularyName}` and named by uploads in
 * `configuration.vocabularies[].vocabularyName`. A vocabulary holds either terms (each with optional
 * "sounds like" spellings and a weight) or scripts (phrases whose word order matters), never both.
 *
 * The limits are VoiceBase's where its guide gives one; the rest are Hark's, said where they are set.
 * Pure: what is judged here (cleaning, which kind, repeats) is shared by the definitions API and by the
 * upload's ad-hoc vocabularies.
 */

export const VOCABULARY_TYPES = ["terms", "scripts"] as const;
export type VocabularyType = (typeof VOCABULARY_TYPES)[number];

/** VoiceBase's `VbVocabularyTerm`. */
export interface VocabularyTerm {
  term: string;
  soundsLike?: string[];
  /** 0 (VoiceBase's default, also when left out) to 5: how strongly the recogniser prefers the term. */
  weight?: number;
}

/** A stored vocabulary: terms or scripts, by its type. Either list may be empty (then uploads refuse it, 20009). */
export type Vocabulary =
  | { vocabularyName: string; vocabularyType: "terms"; terms: VocabularyTerm[] }
  | { vocabularyName: string; vocabularyType: "scripts"; scripts: string[] };

/**
 * VoiceBase's guide: "a limit of 1000 terms per file processed". A vocabulary may hold as many, so one
 * vocabulary can always be used alone. Scripts have no published limit; Hark gives them the same.
 */
export const MAX_VOCABULARY_TERMS = 1000;
export const MAX_VOCABULARY_SCRIPTS = 1000;
/** VoiceBase's guide: terms and phrases are limited to 64 characters. Sounds-like spellings too (Hark's). */
export const MAX_TERM_LENGTH = 64;
/** VoiceBase's guide: up to 100 sounds-like spellings per term. */
export const MAX_SOUNDS_LIKE = 100;
export const MIN_TERM_WEIGHT = 0;
export const MAX_TERM_WEIGHT = 5;
/** Hark's: a script is a sentence or a short paragraph, not a document. */
export const MAX_SCRIPT_LENGTH = 1000;

/** Trimmed, inner white space collapsed to one space: how terms, spellings and scripts are stored. */
export function cleanText(text: string): string {
  return text.trim().replace(/\s+/g, " ");
}

export function cleanTerm(term: VocabularyTerm): VocabularyTerm {
  return {
    term: cleanText(term.term),
    ...(term.soundsLike !== undefined && { soundsLike: term.soundsLike.map(cleanText) }),
    ...(term.weight !== undefined && { weight: term.weight }),
  };
}

/**
 * The values that occur more than once, ignoring letter case (as cleaned), each once in the order of
 * its second occurrence. "Bryon" and "bryon" are one word to the recogniser: which spelling should it
 * write? The client must say.
 */
export function repeatedValues(values: readonly string[]): string[] {
  const seen = new Set<string>();
  const repeated = new Map<string, string>();
  for (const value of values) {
    const key = cleanText(value).toLowerCase();
    if (seen.has(key) && !repeated.has(key)) repeated.set(key, cleanText(value));
    seen.add(key);
  }
  return [...repeated.values()];
}

/** The number of terms or scripts; 0 is an empty vocabulary. */
export function vocabularySize(vocabulary: Vocabulary): number {
  return vocabulary.vocabularyType === "terms" ? vocabulary.terms.length : vocabulary.scripts.length;
}

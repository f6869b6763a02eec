/**
 * The checks VoiceBase makes of a configuration's `vocabularies` (errors 20006–20017) that its schema
 * cannot express. Whether a named vocabulary exists is the upload's to ask the store. Pure.
 */
import { type ErrorEntry, errorEntry } from "../domain/errors.ts";
import { MAX_VOCABULARY_TERMS, repeatedValues } from "../domain/vocabularies.ts";
import type { ConfigurationInput } from "./configuration-schema.ts";

export function vocabularyFaults(config: ConfigurationInput): ErrorEntry[] {
  const vocabularies = config.vocabularies ?? [];
  const errors: ErrorEntry[] = [];
  vocabularies.forEach((vocabulary, index) => {
    const field = `configuration.vocabularies[${index}]`;
    const adHoc = vocabulary.terms !== undefined || vocabulary.scripts !== undefined;
    if (vocabulary.vocabularyName === undefined && !adHoc) {
      errors.push(
        errorEntry(
          "vocabularyNothingGiven",
          `${field} names no vocabulary and has no terms; give one or the other`,
        ),
      );
    }
    if (vocabulary.vocabularyName !== undefined && adHoc) {
      errors.push(
        errorEntry(
          "vocabularyNamedAndTerms",
          `${field} has both vocabularyName ${JSON.stringify(vocabulary.vocabularyName)} and terms; put the named vocabulary and the terms in two elements`,
        ),
      );
    }
    (vocabulary.terms ?? []).forEach((term, termIndex) => {
      if (term.term.trim() === "") {
        errors.push(
          errorEntry(
            "vocabularyTermEmpty",
            `${field}.terms[${termIndex}].term is empty; give it a value or remove it`,
          ),
        );
      }
    });
  });
  const terms = vocabularies.flatMap((vocabulary) =>
    (vocabulary.terms ?? []).map((term) => term.term.trim()),
  );
  if (terms.length > MAX_VOCABULARY_TERMS) {
    errors.push(
      errorEntry(
        "vocabularyTermsOverLimit",
        `configuration.vocabularies has ${terms.length} terms; the most is ${MAX_VOCABULARY_TERMS}`,
      ),
    );
  }
  const duplicated = repeatedValues(terms);
  if (duplicated.length > 0) {
    errors.push(
      errorEntry(
        "vocabularyTermsDuplicated",
        `configuration.vocabularies repeats the terms ${duplicated.map((term) => JSON.stringify(term)).join(", ")}; give each term once`,
      ),
    );
  }
  return errors;
}

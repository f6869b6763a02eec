/**
 * The terms an item's recognition listens for, resolved when the item is processed: the configuration's
 * ad hoc vocabulary terms, the saved vocabularies it names (as they are now, so an edit since the upload
 * counts), and the keywords of the spotting groups it asks for, so that a keyword the recogniser's
 * language model lacks can still be spotted. Each is given its pronunciations here; what could not be
 * pronounced, or was deleted since the upload, is said in the item's messages.
 */
import type { Configuration } from "../domain/configuration.ts";
import type { SpottingGroup } from "../domain/definitions.ts";
import { type Message, messageCodes } from "../domain/errors.ts";
import { MAX_VOCABULARY_TERMS, type Vocabulary } from "../domain/vocabularies.ts";
import type { PronouncedTerm, RecognitionTerm } from "../pipeline/pronunciations.ts";
import { pronounceTerms } from "../pipeline/vocabulary.ts";
import type { Sql } from "../store/database.ts";
import { getSpottingGroups } from "../store/definitions.ts";
import { getVocabularies } from "../store/vocabularies.ts";

export interface RecognitionVocabulary {
  terms: PronouncedTerm[];
  messages: Message[];
}

export async function recognitionVocabulary(
  db: Sql,
  accountId: string,
  configuration: Configuration,
  signal?: AbortSignal,
): Promise<RecognitionVocabulary> {
  const names = configuration.vocabularyNames ?? [];
  const [saved, groups] = await Promise.all([
    getVocabularies(db, accountId, names),
    getSpottingGroups(db, accountId, configuration.analyses?.spottingGroups ?? []),
  ]);
  const messages: Message[] = names
    .filter((name) => !saved.some((vocabulary) => vocabulary.vocabularyName === name))
    .map((name) => ({
      code: messageCodes.definitionMissing,
      message: `Vocabulary ${name} was deleted after the upload; recognition did not use its terms`,
    }));
  const wanted = recognitionTerms(adHocTerms(configuration.raw), saved, groups);
  const { terms, unpronounceable } = await pronounceTerms(wanted, signal && { signal });
  for (const term of unpronounceable) {
    messages.push({
      code: messageCodes.featureNotComputed,
      message: `Vocabulary term ${JSON.stringify(term)} has no pronunciation Hark could find, so recognition did not listen for it; give it a soundsLike spelling in English words`,
    });
  }
  return { terms, messages };
}

/**
 * All terms to listen for, each once (letter case aside): ad hoc and saved vocabulary terms first, as
 * given, then the words of saved scripts and the spotting keywords, both at weight 0 and listened for
 * only where the recogniser's dictionary lacks a word of theirs: its language model already hears the
 * others in context, and `npm run bench:vocabulary` measured the keyword pass on six common keywords
 * ("cancel", "refund", ...) adding 4 to 6 false insertions in 72 s of calls for at most 2 more heard. A term
 * given twice keeps its first spelling, every `soundsLike`, and its highest weight. At most VoiceBase's
 * 1000 terms per item. Pure.
 */
export function recognitionTerms(
  adHoc: readonly RecognitionTerm[],
  saved: readonly Vocabulary[],
  spottingGroups: readonly SpottingGroup[],
): RecognitionTerm[] {
  const byKey = new Map<string, RecognitionTerm>();
  const add = (term: RecognitionTerm) => {
    const key = term.term.toLowerCase();
    const known = byKey.get(key);
    if (known === undefined) {
      byKey.set(key, term);
      return;
    }
    const soundsLike = [...new Set([...(known.soundsLike ?? []), ...(term.soundsLike ?? [])])];
    const weight = Math.max(known.weight ?? 0, term.weight ?? 0);
    byKey.set(key, {
      term: known.term,
      ...(soundsLike.length > 0 && { soundsLike }),
      ...(weight > 0 && { weight }),
      // Unknown-only when every source says so: a term a client named outright is always listened for.
      ...(known.unknownOnly === true && term.unknownOnly === true && { unknownOnly: true }),
    });
  };
  adHoc.forEach(add);
  for (const vocabulary of saved) {
    if (vocabulary.vocabularyType === "terms") vocabulary.terms.forEach(add);
  }
  for (const vocabulary of saved) {
    if (vocabulary.vocabularyType !== "scripts") continue;
    for (const script of vocabulary.scripts) {
      for (const word of script.split(/\s+/)) {
        const bare = word.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
        if (bare !== "") add({ term: bare, unknownOnly: true });
      }
    }
  }
  for (const group of spottingGroups) {
    for (const keyword of group.keywords) add({ term: keyword, unknownOnly: true });
  }
  return [...byKey.values()].slice(0, MAX_VOCABULARY_TERMS);
}

/** `configuration.vocabularies[].terms[]` as the upload's schema let them in (checked there). */
export function adHocTerms(raw: Record<string, unknown>): RecognitionTerm[] {
  const vocabularies = Array.isArray(raw.vocabularies) ? (raw.vocabularies as unknown[]) : [];
  return vocabularies.flatMap((vocabulary) => {
    const terms = (vocabulary as { terms?: unknown } | null)?.terms;
    if (!Array.isArray(terms)) return [];
    return terms.flatMap((term: { term?: unknown; soundsLike?: unknown; weight?: unknown }) => {
      if (typeof term?.term !== "string" || term.term.trim() === "") return [];
      const soundsLike = Array.isArray(term.soundsLike)
        ? term.soundsLike.filter((s): s is string => typeof s === "string" && s.trim() !== "")
        : [];
      return [
        {
          term: term.term.trim().replace(/\s+/g, " "),
          ...(soundsLike.length > 0 && { soundsLike }),
          ...(typeof term.weight === "number" && { weight: term.weight }),
        },
      ];
    });
  });
}

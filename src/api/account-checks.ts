/**
 * What a configuration names that must exist in the account: the public key it encrypts to, the
 * definitions (spotting groups, categories, classifiers) its analyses use and the saved vocabularies. An upload and a reprocess check
 * them alike, before anything is stored.
 */
import type { Configuration } from "../domain/configuration.ts";
import { type ErrorEntry, type ErrorName, errorEntry } from "../domain/errors.ts";
import { MAX_VOCABULARY_TERMS, repeatedValues, type Vocabulary } from "../domain/vocabularies.ts";
import type { Sql } from "../store/database.ts";
import { definitionsFor } from "../store/definitions-for.ts";
import { getPublicKey } from "../store/public-keys.ts";
import { vocabulariesFor } from "../store/vocabularies.ts";

/** The codes `accountFaults` gives, for the routes' OpenAPI descriptions. */
export const ACCOUNT_FAULTS = [
  "publicKeyNotFound",
  "spottingGroupNotFound",
  "definitionNotFound",
  "vocabularyNotFound",
  "vocabularyEmpty",
  "vocabularyTermsOverLimit",
  "vocabularyTermsDuplicated",
] as const satisfies readonly ErrorName[];

/**
 * Every fault, none when all is there. Gives `configuration.encryption` the key's hash, as the analytics
 * body shows it.
 */
export async function accountFaults(
  sql: Sql,
  accountId: string,
  configuration: Configuration,
): Promise<ErrorEntry[]> {
  const faults: ErrorEntry[] = [];
  const wanted = configuration.encryption;
  const key = wanted && (await getPublicKey(sql, accountId, wanted.publicKeyId));
  if (wanted && !key) {
    faults.push(
      errorEntry(
        "publicKeyNotFound",
        `configuration.encryption.publicKeyId ${JSON.stringify(wanted.publicKeyId)} is not a public key of this account; upload it with POST /v3/security/public-keys`,
      ),
    );
  }
  if (wanted && key) wanted.publicKeyHash = key.publicKeyHash;
  const { missing } = await definitionsFor(sql, accountId, configuration.analyses);
  for (const { kind, name } of missing) {
    faults.push(
      errorEntry(
        kind === "Spotting group" ? "spottingGroupNotFound" : "definitionNotFound",
        `${kind} ${name} is not defined in this account; define it first`,
      ),
    );
  }
  const vocabularies = await vocabulariesFor(sql, accountId, configuration.vocabularyNames ?? []);
  for (const name of vocabularies.missing) {
    faults.push(
      errorEntry(
        "vocabularyNotFound",
        `configuration.vocabularies names ${JSON.stringify(name)}, which this account has not saved; save it with PUT /v3/definition/vocabularies/${encodeURIComponent(name)} first`,
      ),
    );
  }
  faults.push(...savedTermFaults(vocabularies.found, configuration.adHocTerms ?? []));
  for (const name of vocabularies.empty) {
    faults.push(
      errorEntry(
        "vocabularyEmpty",
        `configuration.vocabularies names ${JSON.stringify(name)}, which has no terms; add terms to it or leave it out`,
      ),
    );
  }
  return faults;
}

/**
 * VoiceBase's limits across the saved vocabularies an upload names and its ad hoc terms: 1000 terms in
 * all (20010), each term once (20017). The ad hoc terms alone were checked with the configuration; only
 * what the saved ones add is reported here.
 */
function savedTermFaults(saved: readonly Vocabulary[], adHoc: readonly string[]): ErrorEntry[] {
  const savedTerms = saved.flatMap((vocabulary) =>
    vocabulary.vocabularyType === "terms" ? vocabulary.terms.map((term) => term.term) : [],
  );
  if (savedTerms.length === 0) return [];
  const all = [...savedTerms, ...adHoc];
  const faults: ErrorEntry[] = [];
  if (all.length > MAX_VOCABULARY_TERMS && adHoc.length <= MAX_VOCABULARY_TERMS) {
    faults.push(
      errorEntry(
        "vocabularyTermsOverLimit",
        `configuration.vocabularies has ${all.length} terms with the saved vocabularies it names; the most is ${MAX_VOCABULARY_TERMS}`,
      ),
    );
  }
  const alreadyReported = new Set(repeatedValues(adHoc).map((term) => term.toLowerCase()));
  const repeated = repeatedValues(all).filter((term) => !alreadyReported.has(term.toLowerCase()));
  if (repeated.length > 0) {
    faults.push(
      errorEntry(
        "vocabularyTermsDuplicated",
        `configuration.vocabularies repeats the terms ${repeated.map((term) => JSON.stringify(term)).join(", ")} across its saved and ad hoc vocabularies; give each term once`,
      ),
    );
  }
  return faults;
}

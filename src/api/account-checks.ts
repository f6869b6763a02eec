/**
 * What a configuration names that must exist in the account: the public key it encrypts to, the
 * definitions (spotting groups, categories, classifiers) its analyses use and the saved vocabularies. An upload and a reprocess check
 * them alike, before anything is stored.
 */
import type { Configuration } from "../domain/configuration.ts";
import { type ErrorEntry, type ErrorName, errorEntry } from "../domain/errors.ts";
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

/**
 * What a configuration names that must exist in the account: the public key it encrypts to and the
 * definitions (spotting groups, categories, classifiers) its analyses use. An upload and a reprocess check
 * them alike, before anything is stored.
 */
import type { Configuration } from "../domain/configuration.ts";
import { type ErrorEntry, errorEntry } from "../domain/errors.ts";
import type { Sql } from "../store/database.ts";
import { definitionsFor } from "../store/definitions-for.ts";
import { getPublicKey } from "../store/public-keys.ts";

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
  for (const name of missing) {
    faults.push(errorEntry("definitionNotFound", `${name} is not defined in this account; define it first`));
  }
  return faults;
}

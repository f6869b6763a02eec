/**
 * An account's OpenPGP public keys in PostgreSQL (client-supplied encryption). Keys are checked before they
 * are stored (security/openpgp.ts); here they are only kept, listed and removed. Every function takes the
 * account: another account's keys are never seen.
 */
import { isUuid } from "../domain/ids.ts";
import type { Sql } from "./database.ts";

export interface PublicKey {
  publicKeyId: string;
  /** The key text exactly as uploaded. */
  armored: string;
  fingerprint: string;
  /** Lower-case hex SHA-256 of `armored`. */
  publicKeyHash: string;
  dateCreated: Date;
}

interface PublicKeyRow {
  public_key_id: string;
  armored: string;
  fingerprint: string;
  public_key_hash: string;
  created_at: Date;
}

const COLUMNS = "public_key_id, armored, fingerprint, public_key_hash, created_at";

export async function createPublicKey(
  sql: Sql,
  accountId: string,
  key: Omit<PublicKey, "dateCreated">,
  now: Date,
): Promise<PublicKey> {
  const { rows } = await sql.query<PublicKeyRow>(
    `insert into public_keys (public_key_id, account_id, armored, fingerprint, public_key_hash, created_at)
     values ($1, $2, $3, $4, $5, $6)
     returning ${COLUMNS}`,
    [key.publicKeyId, accountId, key.armored, key.fingerprint, key.publicKeyHash, now],
  );
  const row = rows[0];
  if (!row) throw new Error("insert into public_keys returned no row");
  return publicKeyOf(row);
}

/** The account's keys, oldest first. */
export async function listPublicKeys(sql: Sql, accountId: string): Promise<PublicKey[]> {
  const { rows } = await sql.query<PublicKeyRow>(
    `select ${COLUMNS} from public_keys where account_id = $1 order by created_at, public_key_id`,
    [accountId],
  );
  return rows.map(publicKeyOf);
}

/**
 * One key of the account; undefined when it has none of that id. Any string may be asked for (an upload's
 * configuration names the id): one that is not a UUID is no key, rather than a database error.
 */
export async function getPublicKey(
  sql: Sql,
  accountId: string,
  publicKeyId: string,
): Promise<PublicKey | undefined> {
  if (!isUuid(publicKeyId)) return undefined;
  const { rows } = await sql.query<PublicKeyRow>(
    `select ${COLUMNS} from public_keys where account_id = $1 and public_key_id = $2`,
    [accountId, publicKeyId],
  );
  return rows[0] && publicKeyOf(rows[0]);
}

/** Whether the account had the key (it has not any more). */
export async function deletePublicKey(sql: Sql, accountId: string, publicKeyId: string): Promise<boolean> {
  if (!isUuid(publicKeyId)) return false;
  const deleted = await sql.query("delete from public_keys where account_id = $1 and public_key_id = $2", [
    accountId,
    publicKeyId,
  ]);
  return deleted.rowCount === 1;
}

function publicKeyOf(row: PublicKeyRow): PublicKey {
  return {
    publicKeyId: row.public_key_id,
    armored: row.armored,
    fingerprint: row.fingerprint,
    publicKeyHash: row.public_key_hash,
    dateCreated: row.created_at,
  };
}

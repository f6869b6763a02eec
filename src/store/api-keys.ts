/**
 * An account's API keys in PostgreSQL (`/v3/profile/keys`). A key's token is random, shown once, and
 * stored only as its SHA-256, as the account's own token is. Every function that reads or changes a key
 * takes the account: another account's keys are never seen.
 */
import { randomBytes } from "node:crypto";
import { hashToken } from "./accounts.ts";
import type { Sql } from "./database.ts";

export interface ApiKey {
  keyId: string;
  lastSix: string;
  ephemeral: boolean;
  scope: string | undefined;
  issued: Date;
  /** When it stops working; undefined: not until it is deleted. */
  expirationDate: Date | undefined;
}

interface KeyRow {
  key_id: string;
  last_six: string;
  ephemeral: boolean;
  scope: string | null;
  issued_at: Date;
  expires_at: Date | null;
}

const COLUMNS = "key_id, last_six, ephemeral, scope, issued_at, expires_at";

/** Makes a key and its token; the token is in the answer and nowhere else. */
export async function createApiKey(
  sql: Sql,
  accountId: string,
  key: Omit<ApiKey, "lastSix">,
): Promise<ApiKey & { bearerToken: string }> {
  const bearerToken = `hark_${randomBytes(32).toString("base64url")}`;
  const { rows } = await sql.query<KeyRow>(
    `insert into api_keys (key_id, account_id, token_hash, last_six, ephemeral, scope, issued_at, expires_at)
     values ($1, $2, $3, $4, $5, $6, $7, $8)
     returning ${COLUMNS}`,
    [
      key.keyId,
      accountId,
      hashToken(bearerToken),
      bearerToken.slice(-6),
      key.ephemeral,
      key.scope ?? null,
      key.issued,
      key.expirationDate ?? null,
    ],
  );
  const row = rows[0];
  if (!row) throw new Error("inserting an API key returned no row");
  return { ...keyOf(row), bearerToken };
}

/** The account's keys, expired ones included (VoiceBase's `expired` says which), oldest first. */
export async function listApiKeys(sql: Sql, accountId: string): Promise<ApiKey[]> {
  const { rows } = await sql.query<KeyRow>(
    `select ${COLUMNS} from api_keys where account_id = $1 order by issued_at, key_id`,
    [accountId],
  );
  return rows.map(keyOf);
}

export async function getApiKey(sql: Sql, accountId: string, keyId: string): Promise<ApiKey | undefined> {
  const { rows } = await sql.query<KeyRow>(
    `select ${COLUMNS} from api_keys where account_id = $1 and key_id = $2`,
    [accountId, keyId],
  );
  return rows[0] && keyOf(rows[0]);
}

/** Deletes a key: its token stops working with the next request. */
export async function deleteApiKey(sql: Sql, accountId: string, keyId: string): Promise<boolean> {
  const deleted = await sql.query("delete from api_keys where account_id = $1 and key_id = $2", [
    accountId,
    keyId,
  ]);
  return deleted.rowCount === 1;
}

function keyOf(row: KeyRow): ApiKey {
  return {
    keyId: row.key_id,
    lastSix: row.last_six,
    ephemeral: row.ephemeral,
    scope: row.scope ?? undefined,
    issued: row.issued_at,
    expirationDate: row.expires_at ?? undefined,
  };
}

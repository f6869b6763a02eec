/**
 * Accounts and their bearer tokens: the user token made with the account, and the API keys it makes
 * (store/api-keys.ts). A token is random, shown once, and stored only as its SHA-256.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Account } from "../domain/account.ts";
import type { Sql } from "./database.ts";

export function hashToken(token: string): Buffer {
  return createHash("sha256").update(token, "utf8").digest();
}

/** Creates an account; resolves to undefined when the name is taken. */
export async function createAccount(
  sql: Sql,
  accountName: string,
): Promise<(Account & { token: string }) | undefined> {
  const token = `hark_${randomBytes(32).toString("base64url")}`;
  const accountId = randomUUID();
  const inserted = await sql.query(
    `insert into accounts (account_id, account_name, token_hash) values ($1, $2, $3)
     on conflict (account_name) do nothing`,
    [accountId, accountName, hashToken(token)],
  );
  return inserted.rowCount === 1 ? { accountId, accountName, token } : undefined;
}

export async function accountByToken(sql: Sql, token: string): Promise<Account | undefined> {
  const { rows } = await sql.query<{ account_id: string; account_name: string }>(
    "select account_id, account_name from accounts where token_hash = $1",
    [hashToken(token)],
  );
  const row = rows[0];
  return row && { accountId: row.account_id, accountName: row.account_name };
}

/** What a bearer token is: the account's user token (no `apiKey`), or one of its API keys in force. */
export interface Credential {
  account: Account;
  apiKey?: { keyId: string; scope: string | undefined };
}

/**
 * The account a bearer token belongs to, as its user token or an API key that has not expired at `now`
 * (store/api-keys.ts). A deleted key's token is simply no longer found.
 */
export async function credentialByToken(sql: Sql, token: string, now: Date): Promise<Credential | undefined> {
  const { rows } = await sql.query<{
    account_id: string;
    account_name: string;
    key_id: string | null;
    scope: string | null;
  }>(
    `select account_id, account_name, null::uuid as key_id, null::text as scope
     from accounts where token_hash = $1
     union all
     select a.account_id, a.account_name, k.key_id, k.scope
     from api_keys k join accounts a using (account_id)
     where k.token_hash = $1 and (k.expires_at is null or k.expires_at > $2)`,
    [hashToken(token), now],
  );
  const row = rows[0];
  if (!row) return undefined;
  const account = { accountId: row.account_id, accountName: row.account_name };
  return row.key_id === null
    ? { account }
    : { account, apiKey: { keyId: row.key_id, scope: row.scope ?? undefined } };
}

/** Accounts and their bearer tokens. A token is random, shown once, and stored only as its SHA-256. */
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

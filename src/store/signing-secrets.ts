/**
 * An account's signing secrets in PostgreSQL. A secret is active from its creation until its expiry (none
 * until a rotation sets one); every active secret signs every callback try of the account's media. Every
 * function that reads or changes a secret takes the account: another account's secrets are never seen.
 */
import type { Sql } from "./database.ts";

export interface SigningSecret {
  secretId: string;
  secret: string;
  dateCreated: Date;
  /** When it stops signing; undefined: not until it is deleted. */
  dateExpires: Date | undefined;
}

interface SecretRow {
  secret_id: string;
  secret: string;
  created_at: Date;
  expires_at: Date | null;
}

const COLUMNS = "secret_id, secret, created_at, expires_at";

/** Whether a secret signs at `now`. Pure; the SQL below says the same as `expires_at > $now`. */
export function isActive(secret: Pick<SigningSecret, "dateExpires">, now: Date): boolean {
  return secret.dateExpires === undefined || secret.dateExpires.getTime() > now.getTime();
}

/**
 * Stores a new secret unless the account already has `limit` active ones (one statement, so the count
 * and the insert see the same rows); resolves to undefined when it has.
 */
export async function createSigningSecret(
  sql: Sql,
  accountId: string,
  secret: { secretId: string; secret: string },
  now: Date,
  limit: number,
): Promise<SigningSecret | undefined> {
  const { rows } = await sql.query<SecretRow>(
    `insert into signing_secrets (secret_id, account_id, secret, created_at)
     select $1, $2, $3, $4
     where (select count(*) from signing_secrets
            where account_id = $2 and (expires_at is null or expires_at > $4)) < $5
     returning ${COLUMNS}`,
    [secret.secretId, accountId, secret.secret, now, limit],
  );
  return rows[0] && secretOf(rows[0]);
}

/** The account's secrets, active or expired, oldest first. */
export async function listSigningSecrets(sql: Sql, accountId: string): Promise<SigningSecret[]> {
  const { rows } = await sql.query<SecretRow>(
    `select ${COLUMNS} from signing_secrets where account_id = $1 order by created_at, secret_id`,
    [accountId],
  );
  return rows.map(secretOf);
}

export async function getSigningSecret(
  sql: Sql,
  accountId: string,
  secretId: string,
): Promise<SigningSecret | undefined> {
  const { rows } = await sql.query<SecretRow>(
    `select ${COLUMNS} from signing_secrets where account_id = $1 and secret_id = $2`,
    [accountId, secretId],
  );
  return rows[0] && secretOf(rows[0]);
}

export async function deleteSigningSecret(sql: Sql, accountId: string, secretId: string): Promise<boolean> {
  const deleted = await sql.query("delete from signing_secrets where account_id = $1 and secret_id = $2", [
    accountId,
    secretId,
  ]);
  return deleted.rowCount === 1;
}

/**
 * Sets when a secret stops signing, unless it has expired already (it cannot be brought back): then it is
 * left as it was, and `changed` is false. Undefined when the account has no such secret.
 */
export async function expireSigningSecret(
  sql: Sql,
  accountId: string,
  secretId: string,
  expiresAt: Date,
  now: Date,
): Promise<{ secret: SigningSecret; changed: boolean } | undefined> {
  const { rows } = await sql.query<SecretRow & { changed: boolean }>(
    `with updated as (
       update signing_secrets set expires_at = $3
       where account_id = $1 and secret_id = $2 and (expires_at is null or expires_at > $4)
       returning ${COLUMNS})
     select ${COLUMNS}, true as changed from updated
     union all
     select ${COLUMNS}, false from signing_secrets
     where account_id = $1 and secret_id = $2 and not exists (select from updated)`,
    [accountId, secretId, expiresAt, now],
  );
  const row = rows[0];
  return row && { secret: secretOf(row), changed: row.changed };
}

/** Per account, the secrets that sign at `now`, newest first; an account without any is left out. */
export async function activeSecrets(
  sql: Sql,
  accountIds: readonly string[],
  now: Date,
): Promise<Map<string, string[]>> {
  if (accountIds.length === 0) return new Map();
  const { rows } = await sql.query<{ key: string; secret: string }>(
    `select account_id as key, secret from signing_secrets
     where account_id = any($1::uuid[]) and (expires_at is null or expires_at > $2)
     order by created_at desc, secret_id`,
    [[...new Set(accountIds)], now],
  );
  return grouped(rows);
}

/**
 * Per media item, the secrets of its account that sign at `now`, newest first: what the dispatcher
 * loads for a claimed batch, in one query (a delivery reaches its account through its media item).
 */
export async function activeSecretsOfMedia(
  sql: Sql,
  mediaIds: readonly string[],
  now: Date,
): Promise<Map<string, string[]>> {
  if (mediaIds.length === 0) return new Map();
  const { rows } = await sql.query<{ key: string; secret: string }>(
    `select m.media_id as key, s.secret
     from media m join signing_secrets s on s.account_id = m.account_id
     where m.media_id = any($1::uuid[]) and (s.expires_at is null or s.expires_at > $2)
     order by s.created_at desc, s.secret_id`,
    [[...new Set(mediaIds)], now],
  );
  return grouped(rows);
}

function grouped(rows: { key: string; secret: string }[]): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const { key, secret } of rows) {
    const list = byKey.get(key);
    if (list) list.push(secret);
    else byKey.set(key, [secret]);
  }
  return byKey;
}

function secretOf(row: SecretRow): SigningSecret {
  return {
    secretId: row.secret_id,
    secret: row.secret,
    dateCreated: row.created_at,
    dateExpires: row.expires_at ?? undefined,
  };
}

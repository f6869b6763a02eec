/**
 * An account's searchable fields (`/v3/definition/media/search`) in PostgreSQL. Media search documents
 * hold the values of these fields (migration 008's trigger fills them as media are stored and changed), so
 * replacing the fields recomputes the account's documents in the same transaction: a search sees the old
 * fields or the new ones, never a mixture. VoiceBase indexes only media processed after the change; Hark
 * indexes all of the account's media, so a field declared late still finds the media stored before.
 */
import type { Database, Sql } from "./database.ts";

/** The account's searchable fields; none until it defines some. */
export async function getSearchableFields(sql: Sql, accountId: string): Promise<string[]> {
  const { rows } = await sql.query<{ fields: string[] }>(
    "select fields from searchable_fields where account_id = $1",
    [accountId],
  );
  return rows[0]?.fields ?? [];
}

/** Replaces the account's searchable fields (already validated) and reindexes its media. */
export async function putSearchableFields(
  db: Database,
  accountId: string,
  fields: readonly string[],
  now: Date,
): Promise<void> {
  await db.transaction(async (sql) => {
    const { rows } = await sql.query<{ fields: string[] }>(
      `insert into searchable_fields (account_id, fields, updated_at) values ($1, $2, $3)
       on conflict (account_id) do update set fields = excluded.fields, updated_at = excluded.updated_at
       returning (select fields from searchable_fields where account_id = $1) as fields`,
      [accountId, fields, now],
    );
    // Unchanged fields leave every document as it is: no need to rewrite the account's rows.
    const before = rows[0]?.fields ?? [];
    if (before.length === fields.length && before.every((field, i) => field === fields[i])) return;
    await sql.query(
      `update media set search_document = media_search_document(configuration, metadata, sections, $2)
       where account_id = $1`,
      [accountId, fields],
    );
  });
}

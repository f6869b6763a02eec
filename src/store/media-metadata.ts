/**
 * A media item's metadata alone (`/v3/media/{mediaId}/metadata`), without reading its results. Changing
 * it changes what the item's `externalId` and search document say (both follow the column: a generated
 * column and migration 008's trigger).
 */
import type { Metadata } from "../domain/media.ts";
import type { Sql } from "./database.ts";

export interface StoredMetadata {
  metadata: Metadata | undefined;
  /** Client-supplied encryption: the metadata belongs to the encrypted results. */
  encrypted: boolean;
}

/** The item's metadata, if the item exists and belongs to `accountId`. */
export async function getMetadata(
  sql: Sql,
  mediaId: string,
  accountId: string,
): Promise<StoredMetadata | undefined> {
  const { rows } = await sql.query<{ metadata: Metadata | null; encrypted: boolean }>(
    `select metadata, configuration ? 'encryption' as encrypted from media where media_id = $1 and account_id = $2`,
    [mediaId, accountId],
  );
  const row = rows[0];
  return row && { metadata: row.metadata ?? undefined, encrypted: row.encrypted };
}

/**
 * Replaces the metadata of a plaintext item; resolves to false, changing nothing, when there is no such
 * item of the account or it is encrypted.
 */
export async function replaceMetadata(
  sql: Sql,
  mediaId: string,
  accountId: string,
  metadata: Metadata,
): Promise<boolean> {
  const result = await sql.query(
    `update media set metadata = $3
     where media_id = $1 and account_id = $2 and not configuration ? 'encryption'`,
    [mediaId, accountId, JSON.stringify(metadata)],
  );
  return result.rowCount === 1;
}

/**
 * The media a VBQL search reads: an account's finished items with their transcript's words and their
 * metadata, a page at a time, newest first (the order and index of `GET /v3/media`). A search pages
 * through them so that it holds one page of transcripts at a time, however many items the account has.
 *
 * An item encrypted to the client's key keeps no transcript in its row (processing/end-processing.ts):
 * it cannot be searched, and is not read.
 */
import type { Metadata } from "../domain/media.ts";
import type { Word } from "../domain/transcript.ts";
import type { Sql } from "./database.ts";

export interface SearchableMedia {
  mediaId: string;
  dateCreated: Date;
  lengthMs: number | undefined;
  metadata: Metadata | undefined;
  /** The transcript's `words[]`, redacted where a detector said so, as the media document shows them. */
  words: Word[];
}

/** Where the next page starts: after this item, in the order newest first. */
export interface SearchCursor {
  dateCreated: Date;
  mediaId: string;
}

interface Row {
  media_id: string;
  date_created: Date;
  length_ms: number | null;
  metadata: Metadata | null;
  words: Word[];
}

export async function searchableMediaPage(
  sql: Sql,
  accountId: string,
  after: SearchCursor | undefined,
  limit: number,
): Promise<SearchableMedia[]> {
  const { rows } = await sql.query<Row>(
    `select media_id, date_created, length_ms, metadata, sections -> 'transcript' -> 'words' as words
     from media
     where account_id = $1 and status = 'finished' and jsonb_typeof(sections -> 'transcript' -> 'words') = 'array'
       and ($2::timestamptz is null or (date_created, media_id) < ($2::timestamptz, $3::uuid))
     order by date_created desc, media_id desc
     limit $4`,
    [accountId, after?.dateCreated ?? null, after?.mediaId ?? null, limit],
  );
  return rows.map((row) => ({
    mediaId: row.media_id,
    dateCreated: row.date_created,
    lengthMs: row.length_ms ?? undefined,
    metadata: row.metadata ?? undefined,
    words: row.words,
  }));
}

/**
 * Searching an account's media (`GET /v3/media`): one statement for a page, reading only the columns a
 * listing shows (never the results, which may be megabytes per item). Full text runs on
 * `media.search_document` and its GIN index; extendedFilter on containment and the `metadata` GIN index
 * (migration 008). An encrypted item's metadata and results match nothing and its metadata is not read.
 * A page holds at most `pageMetadataBytes` of metadata (migration 019 keeps each item's size).
 */
import type { ErrorEntry } from "../domain/errors.ts";
import {
  containing,
  filterValues,
  type MediaSearch,
  pageLength,
  readingOrder,
  type TextQuery,
} from "../domain/media-search.ts";
import type { MediaStatus, MediaSummaryRecord, Metadata } from "../domain/media.ts";
import type { Sql } from "./database.ts";

interface SummaryRow {
  media_id: string;
  account_id: string;
  account_name: string;
  status: MediaStatus;
  encryption: { publicKeyId: string; publicKeyHash?: string } | null;
  metadata: Metadata | null;
  media_content_type: string | null;
  length_ms: number | null;
  errors: ErrorEntry[] | null;
  time_to_live_seconds: number;
  date_created: Date;
  date_finished: Date | null;
  expires_on: Date;
}

const NOT_ENCRYPTED = "not m.configuration ? 'encryption'";

/** Whether `mediaId` is an item of the account: a page cursor must be one. */
export async function mediaExists(sql: Sql, accountId: string, mediaId: string): Promise<boolean> {
  const { rowCount } = await sql.query("select 1 from media where media_id = $1 and account_id = $2", [
    mediaId,
    accountId,
  ]);
  return rowCount === 1;
}

/**
 * A page of the account's media matching `search`, in its `sortOrder`; `more`: whether items lie beyond
 * the page on the side read away from (found by reading one row more than the page).
 */
export async function searchMedia(
  sql: Sql,
  accountId: string,
  search: MediaSearch,
): Promise<{ media: MediaSummaryRecord[]; more: boolean }> {
  const values: unknown[] = [accountId];
  const param = (value: unknown) => `$${values.push(value)}`;
  const where = ["m.account_id = $1"];
  if (search.externalId !== undefined) where.push(`m.external_id = ${param(search.externalId)}`);
  if (search.text) where.push(...textConditions(search.text, param));
  for (const filter of search.extended) {
    const alternatives = filterValues(filter.value).map(
      (value) => `m.metadata @> ${param(JSON.stringify(containing(filter.path, value)))}::jsonb`,
    );
    where.push(NOT_ENCRYPTED, `(${alternatives.join(" or ")})`);
  }
  if (search.createdFrom) {
    where.push(`m.date_created ${search.createdFrom.inclusive ? ">=" : ">"} ${param(search.createdFrom.at)}`);
  }
  if (search.createdUntil) {
    where.push(
      `m.date_created ${search.createdUntil.inclusive ? "<=" : "<"} ${param(search.createdUntil.at)}`,
    );
  }
  // Compared in SQL, at PostgreSQL's microseconds: a JavaScript Date would round the cursor's time.
  const cursor = (mediaId: string) =>
    `(select c.date_created, c.media_id from media c where c.media_id = ${param(mediaId)} and c.account_id = $1)`;
  if (search.after !== undefined) where.push(`(m.date_created, m.media_id) > ${cursor(search.after)}`);
  if (search.before !== undefined) where.push(`(m.date_created, m.media_id) < ${cursor(search.before)}`);

  const { read, reversed } = readingOrder(search);
  // Each row's shown metadata size, and the sum of those before it in reading order: the metadata itself
  // is read only for rows that start within the page's budget, so the rows `pageLength` leaves out cost
  // their size, never their metadata (the window runs over the rows as the limit pulls them).
  const shownBytes = `case when ${NOT_ENCRYPTED} then m.metadata_bytes else 0 end`;
  const order = `m.date_created ${read}, m.media_id ${read}`;
  const bytesBefore = `coalesce(sum(${shownBytes}) over (order by ${order} rows between unbounded preceding and 1 preceding), 0)`;
  const { rows } = await sql.query<SummaryRow & { metadata_bytes: number }>(
    `select m.media_id, m.account_id, a.account_name, m.status, m.configuration -> 'encryption' as encryption,
            case when ${NOT_ENCRYPTED} and ${bytesBefore} <= ${param(search.pageMetadataBytes)} then m.metadata end
              as metadata,
            ${shownBytes} as metadata_bytes,
            m.media_content_type, m.length_ms, m.errors, m.time_to_live_seconds, m.date_created, m.date_finished,
            m.expires_on
     from media m join accounts a using (account_id)
     where ${where.join(" and ")}
     order by ${order}
     limit ${param(search.limit + 1)}`,
    values,
  );
  const kept = pageLength(
    rows.map((row) => row.metadata_bytes),
    search.limit,
    search.pageMetadataBytes,
  );
  const page = rows.slice(0, kept).map(toSummary);
  return { media: reversed ? page.reverse() : page, more: rows.length > kept };
}

/**
 * A query kept to one field is checked on that field alone; the whole document's index finds the
 * candidates first, unless the query excludes words (a word elsewhere would then hide a match).
 */
function textConditions(text: TextQuery, param: (value: unknown) => string): string[] {
  const query = `websearch_to_tsquery('simple', ${param(text.words)})`;
  const indexed = `m.search_document @@ ${query}`;
  if (text.field === "all") return [indexed];
  const exact =
    typeof text.field === "string"
      ? `ts_filter(m.search_document, ${param(`{${WEIGHTS[text.field]}}`)}::"char"[]) @@ ${query}`
      : `${NOT_ENCRYPTED} and jsonb_to_tsvector('simple', m.metadata #> ${param(["extended", ...text.field.extended])}::text[], '["string", "numeric"]') @@ ${query}`;
  return text.negated ? [exact] : [indexed, exact];
}

/** The weights migration 008 gives each field in `search_document`. */
const WEIGHTS = { title: "a", description: "b", transcript: "d" } as const;

function toSummary(row: SummaryRow): MediaSummaryRecord {
  return {
    mediaId: row.media_id,
    account: { accountId: row.account_id, accountName: row.account_name },
    status: row.status,
    configuration: row.encryption === null ? {} : { encryption: row.encryption },
    metadata: row.metadata ?? undefined,
    mediaContentType: row.media_content_type ?? undefined,
    lengthMs: row.length_ms ?? undefined,
    errors: row.errors ?? undefined,
    timeToLiveSeconds: row.time_to_live_seconds,
    dateCreated: row.date_created,
    dateFinished: row.date_finished ?? undefined,
    expiresOn: row.expires_on,
  };
}

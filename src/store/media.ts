/**
 * Media items and their deliveries in PostgreSQL. Every function takes the `Sql` to run on, so a caller
 * can put several of them (and the jobs they cause) in one transaction.
 */
import type { Configuration } from "../domain/configuration.ts";
import type { DeliveryFate } from "../domain/delivery.ts";
import type { ErrorEntry, Message } from "../domain/errors.ts";
import type {
  MediaStatus,
  Metadata,
  MediaRecord,
  PhaseTimes,
  Sections,
  ProgressTask,
} from "../domain/media.ts";
import type { Sql } from "./database.ts";

export interface NewMedia {
  mediaId: string;
  accountId: string;
  configuration: Configuration;
  metadata: Metadata | undefined;
  mediaUrl: string | undefined;
  mediaContentType: string | undefined;
  originalBlob: string | undefined;
  originalBytes: number | undefined;
  timeToLiveSeconds: number;
  dateCreated: Date;
  /** One per callback of the configuration, in order. */
  deliveryIds: string[];
}

export async function insertMedia(sql: Sql, media: NewMedia): Promise<void> {
  await sql.query(
    `insert into media (media_id, account_id, status, configuration, metadata, media_url, media_content_type,
                        original_blob, original_bytes, time_to_live_seconds, date_created, expires_on)
     values ($1, $2, 'accepted', $3, $4, $5, $6, $7, $8, $9::integer, $10, $10::timestamptz + make_interval(secs => $9::integer))`,
    [
      media.mediaId,
      media.accountId,
      JSON.stringify(media.configuration),
      media.metadata === undefined ? null : JSON.stringify(media.metadata),
      media.mediaUrl ?? null,
      media.mediaContentType ?? null,
      media.originalBlob ?? null,
      media.originalBytes ?? null,
      media.timeToLiveSeconds,
      media.dateCreated,
    ],
  );
  await insertDeliveries(sql, media.mediaId, 0, media.deliveryIds, media.configuration.callbacks);
}

/** One waiting delivery per callback of a run, in order. */
async function insertDeliveries(
  sql: Sql,
  mediaId: string,
  run: number,
  deliveryIds: readonly string[],
  callbacks: readonly Configuration["callbacks"][number][],
): Promise<void> {
  if (deliveryIds.length === 0) return;
  await sql.query(
    `insert into deliveries (delivery_id, media_id, run, position, callback)
     select id, $1, $2, ordinality - 1, callback
     from unnest($3::uuid[], $4::jsonb[]) with ordinality as c(id, callback)`,
    [mediaId, run, deliveryIds, callbacks.map((c) => JSON.stringify(c))],
  );
}

export interface Reprocess {
  mediaId: string;
  configuration: Configuration;
  /** Replaces the item's metadata; undefined keeps it. */
  metadata: Metadata | undefined;
  /** Replaces the transcript to align; undefined keeps the one an earlier reprocess gave, if any. */
  givenTranscript: string | undefined;
  timeToLiveSeconds: number;
  now: Date;
  /** One per callback of the new configuration, in order. */
  deliveryIds: string[];
}

/**
 * Starts the item's next run: its new configuration (and metadata, transcript to align), back to
 * `accepted` with the last run's results, errors, messages and progress gone, and one waiting delivery
 * per new callback. The earlier runs' deliveries stay as they are. Resolves to false, changing nothing,
 * when the item is not `finished` or `failed` (still processing, or gone). The caller enqueues the job
 * in the same transaction.
 */
export async function startNextRun(sql: Sql, reprocess: Reprocess): Promise<boolean> {
  const { rows } = await sql.query<{ run: number }>(
    `update media set status = 'accepted', configuration = $2, metadata = coalesce($3::jsonb, metadata),
                      given_transcript = coalesce($4, given_transcript), sections = '{}'::jsonb, errors = null,
                      messages = '[]'::jsonb, progress = '{}'::jsonb, redacted_blob = null, date_finished = null,
                      time_to_live_seconds = $5::integer,
                      expires_on = $6::timestamptz + make_interval(secs => $5::integer), run = run + 1
     where media_id = $1 and status in ('finished', 'failed')
     returning run`,
    [
      reprocess.mediaId,
      JSON.stringify(reprocess.configuration),
      reprocess.metadata === undefined ? null : JSON.stringify(reprocess.metadata),
      reprocess.givenTranscript ?? null,
      reprocess.timeToLiveSeconds,
      reprocess.now,
    ],
  );
  const run = rows[0]?.run;
  if (run === undefined) return false;
  await insertDeliveries(
    sql,
    reprocess.mediaId,
    run,
    reprocess.deliveryIds,
    reprocess.configuration.callbacks,
  );
  return true;
}

// The columns a MediaRecord holds; not `m.*`, which would carry the search document (migration 008) too.
const SELECT_MEDIA = `
  select m.media_id, m.account_id, a.account_name, m.status, m.configuration, m.metadata, m.media_url,
         m.media_content_type, m.original_blob, m.original_bytes, m.redacted_blob, m.length_ms, m.sections,
         m.errors, m.messages, m.progress, m.time_to_live_seconds, m.date_created, m.date_finished, m.expires_on,
         m.run, m.given_transcript
  from media m join accounts a using (account_id)`;

interface MediaRow {
  media_id: string;
  account_id: string;
  account_name: string;
  status: MediaStatus;
  configuration: Configuration;
  metadata: Metadata | null;
  media_url: string | null;
  media_content_type: string | null;
  original_blob: string | null;
  original_bytes: number | null;
  redacted_blob: string | null;
  length_ms: number | null;
  sections: Sections;
  errors: ErrorEntry[] | null;
  messages: Message[];
  /** Each task's `ProgressTask` by its id, and the phase times under `PHASE_TIMES`. */
  progress: Record<string, unknown>;
  time_to_live_seconds: number;
  date_created: Date;
  date_finished: Date | null;
  expires_on: Date;
  run: number;
  given_transcript: string | null;
}

function toRecord(row: MediaRow): MediaRecord {
  return {
    mediaId: row.media_id,
    account: { accountId: row.account_id, accountName: row.account_name },
    status: row.status,
    configuration: row.configuration,
    metadata: row.metadata ?? undefined,
    mediaUrl: row.media_url ?? undefined,
    mediaContentType: row.media_content_type ?? undefined,
    originalBlob: row.original_blob ?? undefined,
    originalBytes: row.original_bytes ?? undefined,
    redactedBlob: row.redacted_blob ?? undefined,
    lengthMs: row.length_ms ?? undefined,
    sections: row.sections,
    errors: row.errors ?? undefined,
    messages: row.messages,
    ...progressOf(row.progress),
    timeToLiveSeconds: row.time_to_live_seconds,
    dateCreated: row.date_created,
    dateFinished: row.date_finished ?? undefined,
    expiresOn: row.expires_on,
    run: row.run,
    ...(row.given_transcript !== null && { givenTranscript: row.given_transcript }),
  };
}

/** The media item, if it exists and belongs to `accountId` (or to anyone, when `accountId` is undefined). */
export async function getMedia(
  sql: Sql,
  mediaId: string,
  accountId?: string,
): Promise<MediaRecord | undefined> {
  const { rows } = await sql.query<MediaRow>(
    `${SELECT_MEDIA} where m.media_id = $1 and ($2::uuid is null or m.account_id = $2)`,
    [mediaId, accountId ?? null],
  );
  return rows[0] && toRecord(rows[0]);
}

/** Deletes the row (deliveries go with it); resolves to whether there was one. */
export async function deleteMedia(sql: Sql, mediaId: string, accountId?: string): Promise<boolean> {
  const result = await sql.query(
    "delete from media where media_id = $1 and ($2::uuid is null or account_id = $2)",
    [mediaId, accountId ?? null],
  );
  return result.rowCount === 1;
}

/** Whether the item is still there: a worker looks, to stop work on an item deleted meanwhile. */
export async function mediaExists(sql: Sql, mediaId: string): Promise<boolean> {
  const result = await sql.query("select 1 from media where media_id = $1", [mediaId]);
  return result.rowCount === 1;
}

/** Moves an accepted item to running; resolves to false when it is not there or has already ended. */
export async function startProcessing(sql: Sql, mediaId: string): Promise<boolean> {
  const result = await sql.query(
    "update media set status = 'running' where media_id = $1 and status in ('accepted', 'running')",
    [mediaId],
  );
  return result.rowCount === 1;
}

export async function recordOriginal(
  sql: Sql,
  mediaId: string,
  blob: { key: string; bytes: number; contentType: string | undefined },
): Promise<void> {
  await sql.query(
    `update media set original_blob = $2, original_bytes = $3, media_content_type = coalesce(media_content_type, $4)
     where media_id = $1`,
    [mediaId, blob.key, blob.bytes, blob.contentType ?? null],
  );
}

/** The MIME type found from the bytes, for an upload whose type said nothing. */
export async function recordContentType(sql: Sql, mediaId: string, contentType: string): Promise<void> {
  await sql.query(
    `update media set media_content_type = $2
     where media_id = $1 and (media_content_type is null or media_content_type = 'application/octet-stream')`,
    [mediaId, contentType],
  );
}

export async function recordLength(sql: Sql, mediaId: string, lengthMs: number): Promise<void> {
  await sql.query("update media set length_ms = $2 where media_id = $1", [mediaId, lengthMs]);
}

/**
 * The phase times live in the progress column beside the tasks: they are reset with it when an item is
 * reprocessed, and a key no task has keeps them apart.
 */
const PHASE_TIMES = "phaseTimes";

function progressOf(stored: Record<string, unknown>): Pick<MediaRecord, "progress" | "phaseTimes"> {
  const { [PHASE_TIMES]: phaseTimes, ...tasks } = stored;
  return {
    // jsonb the functions below wrote: tasks as ProgressTask, the times as PhaseTimes.
    progress: tasks as Record<string, ProgressTask>,
    ...(phaseTimes !== undefined && { phaseTimes: phaseTimes as PhaseTimes }),
  };
}

/**
 * The run's phase times so far, while the item is still `status` (`running` during the run; the ended
 * status just after the end): an item reprocessed or deleted meanwhile keeps its new run's.
 */
export async function recordPhaseTimes(
  sql: Sql,
  mediaId: string,
  status: MediaStatus,
  times: PhaseTimes,
): Promise<void> {
  await sql.query(
    "update media set progress = jsonb_set(progress, array[$3], $4::jsonb) where media_id = $1 and status = $2",
    [mediaId, status, PHASE_TIMES, JSON.stringify(times)],
  );
}

export async function recordProgress(
  sql: Sql,
  mediaId: string,
  task: string,
  progress: ProgressTask,
): Promise<void> {
  await sql.query(
    "update media set progress = jsonb_set(progress, array[$2], $3::jsonb) where media_id = $1",
    [mediaId, task, JSON.stringify(progress)],
  );
}

/**
 * The "processing ended" change, in one statement: the item as processing left it (`ended`: status,
 * result, dates), the fate of each callback still waiting, with the body its tries will send, and, for a
 * finished item, its usage record (store/usage.ts), which outlives the item. Resolves
 * to false, changing nothing, when the item was not running (it has ended already, or is gone):
 * processing ends once. Only the current run's callbacks are decided: an earlier run's are its own.
 */
export async function finishProcessing(
  sql: Sql,
  ended: MediaRecord,
  fates: readonly DeliveryFate[],
): Promise<boolean> {
  const columns = fates.map((fate) =>
    fate.state === "skipped"
      ? [fate.position, fate.state, null, null, null, null]
      : [
          fate.position,
          fate.state,
          fate.contentType,
          "body" in fate ? fate.body : null,
          "bodyBlob" in fate ? fate.bodyBlob : null,
          ended.dateFinished,
        ],
  );
  const column = (index: number) => columns.map((row) => row[index]);
  const { rows } = await sql.query<{ ended: number }>(
    `with ended as (
       update media set status = $2, sections = $3, errors = $4, messages = $5, date_finished = $6, expires_on = $7,
                        redacted_blob = $14, original_blob = $15
       where media_id = $1 and status = 'running'
       returning media_id, account_id, status, length_ms, run),
     -- Usage is recorded with the end it counts, so it can be neither lost nor counted twice.
     usage as (
       insert into usage_records (account_id, media_id, ended_at, length_ms)
       select account_id, media_id, $6, coalesce(length_ms, 0) from ended where status = 'finished'),
     fates as (
       update deliveries d
       set state = f.state, content_type = f.content_type, body = f.body, body_blob = f.body_blob, scheduled_attempt = 0,
           first_try_at = f.first_try_at, next_try_at = f.first_try_at, due_at = f.first_try_at,
           ended_at = case when f.state = 'skipped' then $6::timestamptz end
       from unnest($8::int[], $9::text[], $10::text[], $11::bytea[], $12::text[], $13::timestamptz[])
            as f(position, state, content_type, body, body_blob, first_try_at)
       where (d.media_id, d.run) in (select media_id, run from ended) and d.position = f.position and d.state = 'waiting')
     select count(*)::int as ended from ended`,
    [
      ended.mediaId,
      ended.status,
      JSON.stringify(ended.sections),
      ended.errors ? JSON.stringify(ended.errors) : null,
      JSON.stringify(ended.messages),
      ended.dateFinished,
      ended.expiresOn,
      ...[0, 1, 2, 3, 4, 5].map(column),
      ended.redactedBlob ?? null,
      ended.originalBlob ?? null,
    ],
  );
  return rows[0]?.ended === 1;
}

/**
 * Media whose time to live has passed. An item with a callback still to deliver is kept until the
 * delivery ends: deleting it would lose the callback.
 */
export async function expiredMedia(sql: Sql, now: Date, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ media_id: string }>(
    `select media_id from media m
     where expires_on <= $1
       and not exists (select 1 from deliveries d
                       where d.media_id = m.media_id and d.state in ('waiting', 'pending', 'trying', 'will-retry'))
     order by expires_on limit $2`,
    [now, limit],
  );
  return rows.map((row) => row.media_id);
}

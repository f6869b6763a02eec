/**
 * Media items that wait for processing (`accepted`) or are under way (`running`) with no live job to
 * carry them: their job failed for good in pg-boss, or was deleted. Nothing else would ever end them.
 *
 * A job is live while pg-boss may still run it: `created`, `retry` (between a hand-back or a failure and
 * its next attempt) or `active`. An item and its job are written in one transaction (the upload, the
 * reprocess), and pg-boss moves a job between states in one statement, so one statement that reads both
 * never sees an item between its job's states.
 */
import type { Sql } from "./database.ts";
import { JOB_SCHEMA, PROCESS_QUEUE } from "./job-queue.ts";

/** Up to `limit` orphaned items, oldest first. */
export async function orphanedMedia(sql: Sql, limit: number): Promise<string[]> {
  const { rows } = await sql.query<{ media_id: string }>(
    `select m.media_id from media m
     where m.status in ('accepted', 'running')
       and not exists (
         select 1 from ${JOB_SCHEMA}.job j
         where j.name = $1 and j.state in ('created', 'retry', 'active') and j.data->>'mediaId' = m.media_id::text)
     order by m.date_created
     limit $2`,
    [PROCESS_QUEUE, limit],
  );
  return rows.map((row) => row.media_id);
}

/**
 * Moves an orphaned item that never started to running, so that processing's end (which ends running
 * items only) can end it; false when it is no longer an accepted orphan.
 */
export async function runOrphan(sql: Sql, mediaId: string): Promise<boolean> {
  const result = await sql.query(
    `update media m set status = 'running'
     where m.media_id = $1 and m.status = 'accepted'
       and not exists (
         select 1 from ${JOB_SCHEMA}.job j
         where j.name = $2 and j.state in ('created', 'retry', 'active') and j.data->>'mediaId' = m.media_id::text)`,
    [mediaId, PROCESS_QUEUE],
  );
  return result.rowCount === 1;
}

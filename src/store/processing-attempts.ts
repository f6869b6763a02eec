/**
 * What a media item's processing has cost it: attempts that failed on our side and attempts whose process
 * died, counted on the item's row (migration 015) rather than read from pg-boss's retry_count. pg-boss
 * counts every claim, so a job handed back when its process stops would use up one of the item's
 * retries; here a hand-back costs nothing.
 *
 * An attempt is open from its claim until it is handed back, fails, or ends the item. A claim that finds
 * the previous attempt still open knows that attempt's process died mid-way (SIGKILL, a power cut, the
 * machine gone), and counts a crash.
 */
import type { Sql } from "./database.ts";

export interface AttemptCounts {
  /** Earlier attempts of this run that failed on our side. */
  failures: number;
  /** Earlier attempts of this run whose process died while they ran. */
  crashes: number;
}

/**
 * Moves an accepted item to running, or takes a running one over, and opens an attempt; resolves to what
 * earlier attempts of this run cost, or undefined when the item is gone or has already ended. The first
 * claim of a run (status `accepted`: a new upload or a reprocess) starts the counts again.
 */
export async function claimAttempt(sql: Sql, mediaId: string): Promise<AttemptCounts | undefined> {
  const result = await sql.query<{ process_failures: number; process_crashes: number }>(
    `update media set
       process_failures = case when status = 'accepted' then 0 else process_failures end,
       process_crashes = case
         when status = 'accepted' then 0
         when process_open then process_crashes + 1
         else process_crashes end,
       process_open = true,
       status = 'running'
     where media_id = $1 and status in ('accepted', 'running')
     returning process_failures, process_crashes`,
    [mediaId],
  );
  const row = result.rows[0];
  return row && { failures: row.process_failures, crashes: row.process_crashes };
}

/**
 * Closes the running attempt without ending the item: `handedBack` when this process stops (it costs
 * nothing), `failed` when it failed on our side and is to be retried (it costs one failure).
 */
export async function closeAttempt(sql: Sql, mediaId: string, how: "handedBack" | "failed"): Promise<void> {
  await sql.query(
    `update media set process_open = false,
       process_failures = process_failures + case when $2 then 1 else 0 end
     where media_id = $1 and status = 'running' and process_open`,
    [mediaId, how === "failed"],
  );
}

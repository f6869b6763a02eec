/**
 * The order of the process queue: `priority` orders an account's own work, never one account's against
 * another's.
 *
 * pg-boss hands out the waiting job with the highest `priority` column, the oldest first among equals
 * (`ORDER BY priority desc, created_on`), over every account. Passing a configuration's priority there raw
 * would let one account's `high` uploads overtake every other account's earlier work. So every process
 * job is sent with the same pg-boss priority, and the queue is first come, first served between accounts:
 * each job is a turn for its account, at the place its upload arrived. Which of the account's items a turn
 * processes is the account's own affair: whenever one of its jobs is queued, the items of its jobs not yet
 * started are dealt out again over those same jobs, highest priority first, in upload order among equals.
 * A `high` upload thus takes the account's earliest waiting turn, and the items it displaces move one turn
 * back each; no other account's place changes.
 *
 * This edits rows of pg-boss's job table (`pgboss.job`, the parent of its partitions): pg-boss's own
 * `update()` could change a payload, but not lock the account's waiting jobs first. The lock matters: a
 * worker taking one of them between the read and the writes would leave one item on two jobs and another
 * on none. Locked, a fetching worker skips them (pg-boss fetches with SKIP LOCKED) until the enqueueing
 * transaction commits, and one that got there first has made its job `active`, which is then not dealt.
 * Jobs that have run before (state `retry`) keep their item: it is part-way processed.
 */
import type { Sql } from "./database.ts";

const RANK = { low: 0, normal: 1, high: 2 } as const;

/** What this reads of a process job's payload (store/job-queue.ts `ProcessJob`); the rest moves with it. */
interface Payload {
  mediaId: string;
  priority?: keyof typeof RANK;
}

export interface WaitingJob {
  id: string;
  data: Payload;
}

/**
 * The payloads of an account's waiting jobs (in queue order) dealt over the same jobs: highest priority
 * first, and among equals in the order they hold now (a stable sort), which is upload order. Returns only
 * the jobs whose payload changes. Pure.
 */
export function dealt(waiting: readonly WaitingJob[]): WaitingJob[] {
  const payloads = waiting
    .map((job) => job.data)
    .sort((a, b) => RANK[b.priority ?? "normal"] - RANK[a.priority ?? "normal"]);
  const changed: WaitingJob[] = [];
  waiting.forEach((job, index) => {
    const data = payloads[index];
    if (data && data.mediaId !== job.data.mediaId) changed.push({ id: job.id, data });
  });
  return changed;
}

/**
 * Deals the items of `accountId`'s waiting process jobs over them again (see above). Run in the
 * transaction that queued the account's newest job, after it was queued.
 */
export async function orderAccountJobs(sql: Sql, queue: string, accountId: string): Promise<void> {
  const { rows } = await sql.query<WaitingJob>(
    `select id, data from pgboss.job
     where name = $1 and group_id = $2 and state = 'created'
     order by created_on
     for update`,
    [queue, accountId],
  );
  const changed = dealt(rows);
  if (changed.length === 0) return;
  await sql.query(
    `update pgboss.job j set data = c.data
     from unnest($2::uuid[], $3::jsonb[]) as c (id, data)
     where j.name = $1 and j.id = c.id`,
    [queue, changed.map((job) => job.id), changed.map((job) => JSON.stringify(job.data))],
  );
}

/**
 * Jobs, on pg-boss in the same PostgreSQL database. Payloads are tagged and versioned so that jobs
 * queued by one release are still understood by the next.
 *
 * A job is enqueued with the `Sql` of the transaction that causes it: the state change and its job
 * commit together, or neither does.
 */
import { PgBoss } from "pg-boss";
import type { Sql } from "./database.ts";
import { orderAccountJobs } from "./process-job-order.ts";

export interface ProcessJob {
  kind: "process";
  v: 1;
  mediaId: string;
  /**
   * The item's configuration.priority, by which its account's waiting jobs are ordered
   * (store/process-job-order.ts). Absent in jobs queued by earlier releases: "normal".
   */
  priority?: ProcessPriority;
}

export type ProcessPriority = "low" | "normal" | "high";

/** What a process job is queued for. */
export interface ProcessRequest {
  mediaId: string;
  /** The item's account: its jobs are one pg-boss group, limited in how many run at once. */
  accountId: string;
  priority: ProcessPriority;
}

export const PROCESS_QUEUE = "process";

/** pg-boss's schema in the database; the check for orphaned media reads its job table. */
export const JOB_SCHEMA = "pgboss";

/**
 * An item's retry budget. Three kinds of interrupted attempt, counted apart (store/processing-attempts.ts):
 * - a hand-back, when the process stops (SIGTERM, a deploy): costs nothing, however often it happens;
 * - a failure on our side (an error that is not the media's fault): `retryLimit` more attempts follow;
 * - a crash (the process killed mid-way, seen as a lapsed heartbeat): `crashLimit` are survived. A crash
 *   is mostly the machine's doing, not the item's, hence the larger allowance; an item that kills its
 *   process every time still ends, `failed`, after that many.
 * pg-boss counts every claim as a retry, so its own limit, `jobRetryLimit`, is only a ceiling far above
 * those; should even that run out, the check for orphaned media (processing/orphan-check.ts) ends the item.
 */
export interface ProcessQueueOptions {
  /**
   * Seconds between a worker's heartbeats on a running job; a worker that stops sending them (killed,
   * machine gone) has its job handed to another after this long.
   */
  heartbeatSeconds: number;
  /** Attempts after the first when processing fails on our side (the database gone, a recogniser fault). */
  retryLimit: number;
  /** Crashes of the processing process an item survives; the claim after one more ends it `failed`. */
  crashLimit: number;
  /** pg-boss's retry limit: claims of any kind, hand-backs included, after the first. */
  jobRetryLimit: number;
}

export const SUPERVISE_INTERVAL_SECONDS = 10;

export const processQueueOptions: ProcessQueueOptions = {
  heartbeatSeconds: 15,
  retryLimit: 2,
  crashLimit: 5,
  jobRetryLimit: 100,
};

export interface JobQueue {
  enqueueProcess(sql: Sql, request: ProcessRequest): Promise<void>;
  /**
   * Runs `handler` for process jobs, `concurrency` at a time in this process, and at most
   * `perAccount` of one account's at a time over every process (0: no such limit).
   */
  workProcess(
    concurrency: number,
    perAccount: number,
    handler: (job: ProcessJob, attempt: ProcessAttempt) => Promise<void>,
  ): Promise<void>;
  /**
   * Stops taking jobs and lets running ones finish for up to `stopTimeoutMs`; any still running then are
   * handed back (failed, so another worker retries them at once) and their `signal` aborted.
   */
  stop(): Promise<void>;
}

export interface ProcessAttempt {
  /** pg-boss's count of earlier claims (hand-backs, crashes and failures alike): for the log only. */
  retryCount: number;
  /** Aborted when this process hands the job back as it stops: the work is to be abandoned, not failed. */
  signal: AbortSignal;
}

function sqlAdapter(sql: Sql) {
  return { executeSql: (text: string, values?: unknown[]) => sql.query(text, values) };
}

export async function startJobQueue(
  url: string,
  poolSize: number,
  stopTimeoutMs: number,
  onError: (error: Error) => void,
): Promise<JobQueue> {
  // LISTEN/NOTIFY wakes a worker the moment a job is queued; polling stays on as the backstop.
  const boss = new PgBoss({
    connectionString: url,
    schema: JOB_SCHEMA,
    max: Math.max(2, Math.floor(poolSize / 2)),
    useListenNotify: true,
    // How often lapsed heartbeats are looked for: a dead worker's job runs again within
    // heartbeatSeconds + this.
    superviseIntervalSeconds: SUPERVISE_INTERVAL_SECONDS,
    // A queue's lapsed jobs are failed (and retried) on its monitor pass, no more often than this.
    monitorIntervalSeconds: SUPERVISE_INTERVAL_SECONDS,
  });
  boss.on("error", onError);
  await boss.start();
  const options = {
    heartbeatSeconds: processQueueOptions.heartbeatSeconds,
    retryLimit: processQueueOptions.jobRetryLimit,
    retryDelay: 2,
    // A long call takes a while; the heartbeat, not this limit, is what notices a dead worker.
    expireInSeconds: 6 * 3600,
    notify: true,
  };
  await boss.createQueue(PROCESS_QUEUE, options);
  // createQueue leaves an existing queue as it was: bring its options up to this release's.
  await boss.updateQueue(PROCESS_QUEUE, options);
  // Earlier releases queued callback deliveries here; the deliveries table is their queue now (migration
  // 003 carried their times over).
  await boss.deleteQueue("deliver");
  // Handlers under way: a stop waits for them to record their hand-back before the database closes.
  const handling = new Set<Promise<void>>();
  return {
    async enqueueProcess(sql, { mediaId, accountId, priority }) {
      const job: ProcessJob = { kind: "process", v: 1, mediaId, priority };
      // No pg-boss priority: between accounts the queue is first come, first served, and the item's
      // priority orders only its account's own jobs (store/process-job-order.ts). Jobs queued by earlier
      // releases carry pg-boss priorities and no group: they run first, as they would have, unlimited.
      await boss.send(PROCESS_QUEUE, job, { group: { id: accountId }, db: sqlAdapter(sql) });
      await orderAccountJobs(sql, PROCESS_QUEUE, accountId);
    },
    async workProcess(concurrency, perAccount, handler) {
      // One pg-boss worker per slot, so that each can be woken on its own: a worker that has just ended a
      // job looks for the next at once. Otherwise it would wait out its poll interval (less the job's
      // time) with jobs queued, as NOTIFY only announces jobs queued since.
      for (let slot = 0; slot < concurrency; slot++) {
        const worker: { id?: string } = {};
        worker.id = await boss.work<ProcessJob>(
          PROCESS_QUEUE,
          {
            batchSize: 1,
            notifyPollingIntervalSeconds: 5,
            // Counted in the database over every process: an account whose jobs are all running (a
            // stalled mediaUrl download included) has the rest of its jobs skipped, and other accounts'
            // jobs go ahead. pg-boss checks it without a lock, so two workers fetching at the same instant
            // may each start one of an account's jobs: the limit can be passed by a job for a while.
            ...(perAccount > 0 && { groupConcurrency: perAccount }),
          },
          async ([job]) => {
            if (!job) return;
            if (job.data.kind !== "process" || job.data.v !== 1)
              throw new Error(`unknown job payload ${JSON.stringify(job.data)}`);
            const handled = handler(job.data, { retryCount: job.retryCount, signal: job.signal });
            handling.add(handled);
            try {
              await handled;
            } finally {
              handling.delete(handled);
              if (worker.id !== undefined) boss.notifyWorker(worker.id);
            }
          },
        );
      }
    },
    // pg-boss counts a job handed back as one of its retries (it has no way to return a job untouched):
    // the item's own counts, not pg-boss's, decide when it has run out (see ProcessQueueOptions).
    async stop() {
      await boss.stop({ graceful: true, timeout: stopTimeoutMs });
      // Aborted by now: each handler records its hand-back and returns.
      await Promise.allSettled([...handling]);
    },
  };
}

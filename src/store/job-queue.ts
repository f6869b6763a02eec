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

export interface ProcessQueueOptions {
  /**
   * Seconds between a worker's heartbeats on a running job; a worker that stops sending them (killed,
   * machine gone) has its job handed to another after this long.
   */
  heartbeatSeconds: number;
  /** Attempts after the first when processing fails unexpectedly (a crash, the database gone). */
  retryLimit: number;
}

export const SUPERVISE_INTERVAL_SECONDS = 10;

export const processQueueOptions: ProcessQueueOptions = { heartbeatSeconds: 15, retryLimit: 2 };

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
  retryCount: number;
  /** No retry follows this attempt should it fail. */
  final: boolean;
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
    retryLimit: processQueueOptions.retryLimit,
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
            try {
              await handler(job.data, {
                retryCount: job.retryCount,
                final: job.retryCount >= processQueueOptions.retryLimit,
                signal: job.signal,
              });
            } finally {
              if (worker.id !== undefined) boss.notifyWorker(worker.id);
            }
          },
        );
      }
    },
    // A job handed back counts as one of its retries: pg-boss has no way to return a job untouched.
    stop: () => boss.stop({ graceful: true, timeout: stopTimeoutMs }),
  };
}

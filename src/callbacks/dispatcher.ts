/**
 * Runs due delivery jobs, up to `HARK_CALLBACK_CONCURRENCY` at once in this process, each on its own: a
 * slow receiver holds up only its own delivery. One loop claims as many due jobs as there are free slots;
 * when none are due it looks again within `POLL_MS`, so a scheduled attempt starts within a second of
 * its time.
 *
 * Finished jobs are completed in batches, one statement at a time taking every job that finished
 * meanwhile: a slot is free again as soon as its burst has ended. A completion lost to a crash only makes
 * the job run again once its claim expires, and find nothing to do.
 */
import type { Services } from "../services.ts";
import type { Stoppable } from "../server.ts";
import { runScheduledAttempt } from "./deliver.ts";

export const POLL_MS = 250;
const COMPLETE_BATCH = 500;

export function startDispatcher(services: Services, concurrency: number): Stoppable {
  const running = new Set<Promise<void>>();
  let stopping = false;
  // Set by a wake-up while the loop is busy fetching, so that the rest after it is skipped: a wake-up is
  // never lost.
  let woken = false;
  let wakeResting: (() => void) | undefined;
  const wake = () => {
    woken = true;
    wakeResting?.();
  };
  const rest = () =>
    new Promise<void>((resolve) => {
      if (woken) return resolve();
      const timer = setTimeout(resolve, POLL_MS);
      wakeResting = () => {
        wakeResting = undefined;
        clearTimeout(timer);
        resolve();
      };
    });
  // While the last fetch filled every free slot (more may be due), a finished burst wakes the loop only
  // once this many slots are free: one fetch then claims a batch rather than a job or two.
  const refill = Math.max(1, Math.ceil(concurrency / 10));
  let backlog = false;

  // Processing that ends in this process has just queued first tries: look at once rather than at the
  // next poll.
  const onEnded = () => wake();
  services.events.on("media.ended", onEnded);

  const finished: string[] = [];
  let completing: Promise<void> | undefined;
  const completeAll = async () => {
    while (finished.length > 0) {
      const ids = finished.splice(0, COMPLETE_BATCH);
      await services.jobs
        .completeDeliveries(ids)
        .catch((err) => services.log.error({ err, jobs: ids.length }, "completing delivery jobs failed"));
    }
    completing = undefined;
  };
  const complete = (id: string) => {
    finished.push(id);
    completing ??= completeAll();
  };

  const loop = (async () => {
    while (!stopping) {
      woken = false;
      const free = concurrency - running.size;
      const jobs =
        free > 0
          ? await services.jobs.fetchDeliveries(free).catch((err) => {
              services.log.error({ err }, "fetching delivery jobs failed");
              return [];
            })
          : [];
      for (const job of jobs) {
        const task = runScheduledAttempt(services, job.data)
          .then(
            () => complete(job.id),
            (error: Error) => {
              services.log.error(
                { err: error, deliveryId: job.data.deliveryId },
                "delivery job failed; it will run again",
              );
              return services.jobs.failDelivery(job.id, error);
            },
          )
          .catch((err) => services.log.error({ err }, "settling a delivery job failed"))
          .finally(() => {
            running.delete(task);
            if (backlog && concurrency - running.size >= refill) wake();
          });
        running.add(task);
      }
      // A full batch may mean more are due: look again at once while slots are free.
      if (free > 0) backlog = jobs.length === free;
      if (!backlog || running.size >= concurrency) await rest();
    }
  })();

  return {
    async stop() {
      stopping = true;
      services.events.off("media.ended", onEnded);
      wake();
      await loop;
      await Promise.all(running);
      await completing;
    },
  };
}

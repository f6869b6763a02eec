/**
 * Runs due delivery jobs, up to `HARK_CALLBACK_CONCURRENCY` at once in this process, each on its own: a
 * slow receiver holds up only its own delivery. One loop claims as many due jobs as there are free slots;
 * when none are due it looks again within `POLL_MS`, so a scheduled attempt starts within a second of
 * its time.
 */
import type { Services } from "../services.ts";
import type { Stoppable } from "../server.ts";
import { runScheduledAttempt } from "./deliver.ts";

export const POLL_MS = 250;

export function startDispatcher(services: Services, concurrency: number): Stoppable {
  const running = new Set<Promise<void>>();
  let stopping = false;
  let wake: (() => void) | undefined;
  const rest = () =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  // Processing that ends in this process has just queued first tries: look at once rather than at the
  // next poll.
  const onEnded = () => wake?.();
  services.events.on("media.ended", onEnded);

  const loop = (async () => {
    while (!stopping) {
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
            () => services.jobs.completeDelivery(job.id),
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
            wake?.();
          });
        running.add(task);
      }
      // A full batch may mean more are due: look again at once while slots are free.
      if (jobs.length === 0 || jobs.length < free || running.size >= concurrency) await rest();
    }
  })();

  return {
    async stop() {
      stopping = true;
      services.events.off("media.ended", onEnded);
      wake?.();
      await loop;
      await Promise.all(running);
    },
  };
}

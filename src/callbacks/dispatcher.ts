/**
 * Runs due deliveries, up to `HARK_CALLBACK_CONCURRENCY` bursts at once in this process, each on its own:
 * a slow receiver holds up only its own delivery. One loop claims as many due deliveries as there are
 * free slots (one statement); when none are due it looks again within `POLL_MS`, so a scheduled attempt
 * starts within a second of its time. Several processes may run dispatchers on one database: a row is
 * claimed by one of them at a time.
 *
 * Bursts that ended are recorded in batches, one statement taking every burst that ended meanwhile; a
 * slot is free again as soon as its burst has ended. An outcome lost to a crash only makes its burst run
 * again once the claim lapses.
 *
 * Stopping, it claims no more and lets running bursts end for up to `HARK_STOP_TIMEOUT`; bursts still
 * running then make no further try once their current one ends, and are handed back, due at once.
 */
import type { BurstEnd } from "../domain/delivery.ts";
import type { Services } from "../services.ts";
import type { Stoppable } from "../services.ts";
import { type Batcher, batcher } from "../store/batcher.ts";
import { claimDue, endBursts, releaseClaims } from "../store/deliveries.ts";
import { activeSecretsOfMedia } from "../store/signing-secrets.ts";
import { BurstHandedBackError, claimMs, runBurst } from "./deliver.ts";

export const POLL_MS = 250;
const RECORD_BATCH = 500;

export function startDispatcher(services: Services, concurrency: number): Stoppable {
  const { db, clock, log, events, settings } = services;
  const running = new Set<Promise<void>>();
  let stopping = false;
  const handBack = new AbortController();
  const handedBack: { deliveryId: string; claim: string }[] = [];
  // Set by a wake-up while the loop is busy claiming, so that the rest after it is skipped: a wake-up is
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
  // While the last claim filled every free slot (more may be due), an ended burst wakes the loop only
  // once this many slots are free: one claim then takes a batch rather than a delivery or two.
  const refill = Math.max(1, Math.ceil(concurrency / 10));
  let backlog = false;

  // Processing that ends, or a redelivery asked for, in this process has just made tries due: look at
  // once rather than at the next poll.
  const onDue = () => wake();
  events.on("media.ended", onDue);
  events.on("delivery.scheduled", onDue);

  const ends: Batcher<BurstEnd & { mediaId: string }> = batcher(RECORD_BATCH, async (batch) => {
    await endBursts(db, batch);
    for (const end of batch) {
      const { deliveryId, mediaId, outcome } = end;
      events.emit("delivery.burst-ended", { deliveryId, mediaId, state: outcome.state });
      // The same, for whoever watches this process from outside (tests of Hark run as a process).
      log.debug({ deliveryId, mediaId, state: outcome.state }, "delivery burst ended");
    }
  });

  // Each burst is signed with the secrets its account has active when it is claimed, loaded for the
  // whole batch in one query. Should that query fail, the claimed rows wait for their claims to lapse
  // rather than go out unsigned.
  const claim = async (count: number) => {
    const claimed = await claimDue(
      db,
      clock.now(),
      count,
      new Date(clock.now().getTime() + claimMs(settings)),
    );
    const secrets = await activeSecretsOfMedia(
      db,
      claimed.map((delivery) => delivery.mediaId),
      clock.now(),
    );
    return claimed.map((delivery) => ({ delivery, secrets: secrets.get(delivery.mediaId) ?? [] }));
  };

  const loop = (async () => {
    while (!stopping) {
      woken = false;
      const free = concurrency - running.size;
      const claimed =
        free > 0
          ? await claim(free).catch((err) => {
              log.error({ err }, "claiming due deliveries failed");
              return [];
            })
          : [];
      for (const { delivery, secrets } of claimed) {
        const task = runBurst(services, delivery, secrets, handBack.signal)
          .then((end) => ends.add({ ...end, mediaId: delivery.mediaId }))
          .catch((err) => {
            if (err instanceof BurstHandedBackError)
              handedBack.push({ deliveryId: delivery.deliveryId, claim: delivery.claim });
            // Left claimed: the burst runs again when the claim lapses.
            else
              log.error(
                { err, deliveryId: delivery.deliveryId },
                "a delivery burst failed; it will run again",
              );
          })
          .finally(() => {
            running.delete(task);
            if (backlog && concurrency - running.size >= refill) wake();
          });
        running.add(task);
      }
      // A full batch may mean more are due: look again at once while slots are free.
      if (free > 0) backlog = claimed.length === free;
      if (!backlog || running.size >= concurrency) await rest();
    }
  })();

  return {
    async stop() {
      stopping = true;
      events.off("media.ended", onDue);
      events.off("delivery.scheduled", onDue);
      wake();
      await loop;
      let timer: NodeJS.Timeout | undefined;
      const waited = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, settings.stopTimeoutSeconds * 1000);
      });
      await Promise.race([Promise.all(running), waited]);
      clearTimeout(timer);
      handBack.abort();
      await Promise.all(running);
      await releaseClaims(db, handedBack, clock.now()).catch((err) =>
        log.error({ err }, "handing back deliveries failed; they run again when their claims lapse"),
      );
      if (handedBack.length > 0) log.info({ deliveries: handedBack.length }, "deliveries handed back");
    },
  };
}

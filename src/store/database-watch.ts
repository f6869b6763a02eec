/**
 * Whether the database is still there. A Hark whose database went away for good would otherwise answer
 * 500 to everything forever; with this it says so and exits, and its supervisor (systemd, Docker)
 * restarts it, which waits for the database or fails loudly. A short outage (a failover, a restart of
 * PostgreSQL) is ridden out: only failures lasting the whole grace period count.
 */
import type { Sql } from "./database.ts";

/** How long the database may be unreachable before Hark gives up on it. */
export const DATABASE_GRACE_MS = 30_000;
const PROBE_EVERY_MS = 5_000;

export interface DatabaseWatch {
  /** Settles, with a line saying so, once the database has failed every probe for the grace period. */
  readonly lost: Promise<string>;
  stop(): void;
}

export function watchDatabase(db: Sql, graceMs = DATABASE_GRACE_MS, everyMs = PROBE_EVERY_MS): DatabaseWatch {
  let failingSince: number | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const lost = new Promise<string>((resolve) => {
    const probe = async () => {
      let failure: string | undefined;
      try {
        // A server that no longer answers at all (a dead host) fails the probe too, not only a refusal.
        let timeout: NodeJS.Timeout | undefined;
        const silent = new Promise<never>((_, reject) => {
          timeout = setTimeout(() => reject(new Error("no answer")), everyMs);
        });
        await Promise.race([db.query("select 1"), silent]).finally(() => clearTimeout(timeout));
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      if (stopped) return;
      if (failure === undefined) failingSince = undefined;
      else {
        failingSince ??= Date.now();
        if (Date.now() - failingSince >= graceMs) {
          resolve(`the database has been unreachable for ${Math.round(graceMs / 1000)} s (${failure})`);
          return;
        }
      }
      timer = setTimeout(() => void probe(), everyMs);
      // The probe never keeps the process alive by itself.
      timer.unref();
    };
    timer = setTimeout(() => void probe(), everyMs);
    timer.unref();
  });
  return {
    lost,
    stop() {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

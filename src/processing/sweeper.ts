/**
 * Deletes media whose time to live has passed: the row (its deliveries go with it), then its bytes.
 * Runs every `HARK_SWEEP_INTERVAL_SECONDS` in each process that runs workers; two processes sweeping
 * at once each delete what they find, and deleting twice is harmless.
 */
import { mediaPrefix } from "../blobs/blob-store.ts";
import type { Services } from "../services.ts";
import { deleteMedia, expiredMedia } from "../store/media.ts";
import { runPeriodically } from "./periodic.ts";

const BATCH = 100;

/** One pass; resolves to the ids deleted. */
export async function sweepExpired(services: Pick<Services, "db" | "blobs" | "clock">): Promise<string[]> {
  const deleted: string[] = [];
  for (;;) {
    const ids = await expiredMedia(services.db, services.clock.now(), BATCH);
    for (const mediaId of ids) {
      if (await deleteMedia(services.db, mediaId)) deleted.push(mediaId);
      await services.blobs.deletePrefix(mediaPrefix(mediaId));
    }
    if (ids.length < BATCH) return deleted;
  }
}

export function startSweeper(services: Services): { stop(): Promise<void> } {
  return runPeriodically(
    services.settings.sweepIntervalSeconds * 1000,
    async () => {
      const ids = await sweepExpired(services);
      if (ids.length > 0) services.log.info({ mediaIds: ids }, "deleted expired media");
    },
    (err) => services.log.error({ err }, "sweeping expired media failed"),
  );
}

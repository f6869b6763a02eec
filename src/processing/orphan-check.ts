/**
 * Ends media items that nothing would end: `accepted` or `running` with no live job in pg-boss (their
 * job failed for good, pg-boss's own ceiling reached, or was deleted). Each ends `failed` with Hark's
 * error for a fault on our side, and its callbacks go out as for any failed item.
 *
 * Runs every `HARK_SWEEP_INTERVAL_SECONDS` beside the sweeper in each process that runs workers. Several
 * processes may check at once: processing's end is one conditional statement, so each item ends once.
 */
import { errorEntry } from "../domain/errors.ts";
import type { Services } from "../services.ts";
import { orphanedMedia, runOrphan } from "../store/orphaned-media.ts";
import { endProcessing } from "./end-processing.ts";
import { runPeriodically } from "./periodic.ts";

const BATCH = 100;

export const ORPHANED =
  "Processing stopped on our side and will not be retried; upload the media again, or reprocess it";

/** One pass; resolves to the ids this call ended. */
export async function endOrphanedMedia(services: Services): Promise<string[]> {
  const ended: string[] = [];
  const ids = await orphanedMedia(services.db, BATCH);
  for (const mediaId of ids) {
    // An item that never started is moved to running first: processing's end ends running items only.
    await runOrphan(services.db, mediaId);
    const outcome = {
      status: "failed" as const,
      sections: {},
      messages: [],
      errors: [errorEntry("internal", ORPHANED)],
    };
    if (await endProcessing(services, mediaId, outcome)) ended.push(mediaId);
  }
  return ended;
}

export function startOrphanCheck(services: Services): { stop(): Promise<void> } {
  return runPeriodically(
    services.settings.sweepIntervalSeconds * 1000,
    async () => {
      const ids = await endOrphanedMedia(services);
      if (ids.length > 0) services.log.warn({ mediaIds: ids }, "ended media left without a job");
    },
    (err) => services.log.error({ err }, "checking for media left without a job failed"),
  );
}

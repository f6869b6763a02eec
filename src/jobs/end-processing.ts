/**
 * The "processing ended" transaction: the status and result, the fate of every callback, each pending
 * callback's body and its first delivery job commit together, or none of it does. Processing ends once:
 * a second call for the same item changes nothing.
 */
import { prepareDeliveries } from "../callbacks/prepare.ts";
import type { ErrorEntry, Message } from "../domain.ts";
import type { Services } from "../services.ts";
import { finishProcessing, getMedia, type Sections } from "../store/media.ts";

export interface ProcessingOutcome {
  status: "finished" | "failed";
  sections: Sections;
  messages: Message[];
  errors?: ErrorEntry[];
}

/** Resolves to whether this call ended the item's processing. */
export async function endProcessing(
  services: Services,
  mediaId: string,
  outcome: ProcessingOutcome,
): Promise<boolean> {
  const now = services.clock.now();
  const ended = await services.db.transaction(async (sql) => {
    const pending = await finishProcessing(sql, mediaId, { ...outcome, dateFinished: now });
    if (pending === undefined) return false;
    const media = await getMedia(sql, mediaId);
    if (media) await prepareDeliveries(services, sql, media, pending, now);
    return true;
  });
  if (!ended) return false;
  services.log.info({ mediaId, status: outcome.status }, "processing ended");
  services.events.emit("media.ended", { mediaId, status: outcome.status });
  return true;
}

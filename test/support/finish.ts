import { deliveryFates } from "../../src/callbacks/prepare.ts";
import { endedMedia, type ProcessingOutcome } from "../../src/processing/end-processing.ts";
import type { Sql } from "../../src/store/database.ts";
import { finishProcessing, getMedia } from "../../src/store/media.ts";

/**
 * Ends an item's processing as `endProcessing` does (every callback's fate decided from `outcome`), on a
 * bare database without the rest of the services. Resolves to whether this call ended it.
 */
export async function finishWith(
  sql: Sql,
  mediaId: string,
  outcome: ProcessingOutcome,
  at = new Date(),
): Promise<boolean> {
  const media = await getMedia(sql, mediaId);
  if (!media) return false;
  const ended = endedMedia(media, outcome, at);
  return finishProcessing(sql, ended, deliveryFates(ended, "https://hark.example.com"));
}

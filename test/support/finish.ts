import type { MediaLinks } from "../../src/domain/media.ts";
import { deliveryFates } from "../../src/callbacks/prepare.ts";
import { endedMedia, type ProcessingOutcome } from "../../src/processing/end-processing.ts";
import type { Sql } from "../../src/store/database.ts";
import { finishProcessing, getMedia } from "../../src/store/media.ts";

/**
 * Ends an item's processing as `endProcessing` does (every callback's fate decided from `outcome`), on a
 * bare database without the rest of the services. Resolves to whether this call ended it.
 */
/** Links as documents rendered in tests show them: the stream links unsigned, which stores do not check. */
export const TEST_LINKS: MediaLinks = {
  publicUrl: "https://hark.example.com",
  stream: (mediaId, name) => `https://hark.example.com/v3/media/${mediaId}/streams/${name}`,
};

export async function finishWith(
  sql: Sql,
  mediaId: string,
  outcome: ProcessingOutcome,
  at = new Date(),
): Promise<boolean> {
  const media = await getMedia(sql, mediaId);
  if (!media) return false;
  const ended = endedMedia(media, outcome, at);
  return finishProcessing(sql, ended, deliveryFates(ended, TEST_LINKS));
}

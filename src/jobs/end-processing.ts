/**
 * Processing's end: the status and result, the fate of every callback and each pending callback's body
 * commit together in one statement, or none of it does. The callbacks' rows are their delivery queue, so
 * the first tries are queued by that same statement. Processing ends once: a second call for the same
 * item changes nothing.
 */
import { deliveryFates } from "../callbacks/prepare.ts";
import type { ErrorEntry, Message } from "../domain.ts";
import type { Services } from "../services.ts";
import { finishProcessing, getMedia, type MediaRecord, type Sections } from "../store/media.ts";

export interface ProcessingOutcome {
  status: "finished" | "failed";
  sections: Sections;
  messages: Message[];
  errors?: ErrorEntry[];
  /** The `redacted-audio` stream, when processing made one. */
  redactedBlob?: string;
}

/** Resolves to whether this call ended the item's processing. */
export async function endProcessing(
  services: Services,
  mediaId: string,
  outcome: ProcessingOutcome,
): Promise<boolean> {
  const media = await getMedia(services.db, mediaId);
  if (media?.status !== "running") return false;
  const ended = endedMedia(media, outcome, services.clock.now());
  // Rendered before the statement that decides whether this call ends processing: a call that loses a
  // race has rendered for nothing, and nothing it rendered is kept.
  if (!(await finishProcessing(services.db, ended, deliveryFates(ended, services.settings.publicUrl)))) {
    return false;
  }
  services.log.info({ mediaId, status: outcome.status }, "processing ended");
  services.events.emit("media.ended", { mediaId, status: outcome.status });
  return true;
}

/** The item as processing leaves it. Its time to live now counts from the end of processing. Pure. */
export function endedMedia(media: MediaRecord, outcome: ProcessingOutcome, now: Date): MediaRecord {
  return {
    ...media,
    status: outcome.status,
    sections: outcome.sections,
    errors: outcome.errors,
    messages: outcome.messages,
    dateFinished: now,
    expiresOn: new Date(now.getTime() + media.timeToLiveSeconds * 1000),
    redactedBlob: outcome.redactedBlob,
  };
}

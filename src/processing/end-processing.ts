/**
 * Processing's end: the status and result, the fate of every callback and each pending callback's body
 * commit together in one statement, or none of it does. The callbacks' rows are their delivery queue, so
 * the first tries are queued by that same statement. Processing ends once: a second call for the same
 * item changes nothing.
 *
 * A body larger than `HARK_CALLBACK_INLINE_BODY_BYTES` is written to the blob store before that statement,
 * under a key of its callback's own: a call that loses the race, or a crash, leaves a blob that the next
 * end overwrites or the item's deletion removes.
 *
 * An item encrypted to the client's key keeps no results in the clear: its bodies and its whole document
 * are encrypted (see encrypt-results.ts), its row keeps no sections, and its plaintext streams go once
 * the end has committed.
 */
import { Readable } from "node:stream";
import { callbackBodyKey } from "../blobs/blob-store.ts";
import { deliveryFates } from "../callbacks/prepare.ts";
import { mediaDocument } from "../documents/media-document.ts";
import { mediaLinks } from "../documents/stream-links.ts";
import type { DeliveryFate } from "../domain/delivery.ts";
import type { ErrorEntry, Message } from "../domain/errors.ts";
import type { MediaRecord, Sections } from "../domain/media.ts";
import type { PhaseTimer } from "../pipeline/phase-timer.ts";
import type { Services } from "../services.ts";
import { finishProcessing, getMedia, recordPhaseTimes } from "../store/media.ts";
import { sealFates, storeEncryptedResults } from "./encrypt-results.ts";

export interface ProcessingOutcome {
  status: "finished" | "failed";
  sections: Sections;
  messages: Message[];
  errors?: ErrorEntry[];
  /** The `redacted-audio` stream, when processing made one. */
  redactedBlob?: string;
  /** The stored original, when processing replaced it (by its encrypted copy). */
  originalBlob?: string;
  /** Client-supplied encryption: the armored OpenPGP key the results are encrypted to. */
  encryptTo?: string;
  /** Blobs to delete once the end has committed: the plaintext streams of an encrypted item. */
  plaintextBlobs?: string[];
}

/**
 * Resolves to whether this call ended the item's processing. `phases`, the run's timer, gains the `end`
 * phase; its times go to the log line and the item's progress.
 */
export async function endProcessing(
  services: Services,
  mediaId: string,
  outcome: ProcessingOutcome,
  phases?: PhaseTimer,
): Promise<boolean> {
  phases?.start("end");
  const ended = await endOnce(services, mediaId, outcome).finally(() => phases?.stop("end"));
  if (!ended) return false;
  const times = phases?.times();
  if (times) {
    // After the end has committed, so the times include it; losing them loses no result.
    await recordPhaseTimes(services.db, mediaId, outcome.status, times).catch((err) =>
      services.log.warn({ err, mediaId }, "recording the phase times failed"),
    );
  }
  services.log.info({ mediaId, status: outcome.status, ...times }, "processing ended");
  services.events.emit("media.ended", { mediaId, status: outcome.status });
  return true;
}

async function endOnce(services: Services, mediaId: string, outcome: ProcessingOutcome): Promise<boolean> {
  const media = await getMedia(services.db, mediaId);
  if (media?.status !== "running") return false;
  const now = services.clock.now();
  const links = mediaLinks(services.settings, services.streamLinkSecret, now);
  const ended = endedMedia(media, outcome, now);
  // Rendered before the statement that decides whether this call ends processing: a call that loses a
  // race has rendered for nothing, and nothing it rendered is kept.
  let fates: DeliveryFate[];
  let stored = ended;
  if (outcome.encryptTo === undefined) {
    fates = deliveryFates(ended, links);
  } else {
    // What is sealed is the whole document, metadata included, as an unencrypted item would show it.
    const inner = { ...ended, configuration: { ...ended.configuration, encryption: undefined } };
    fates = await sealFates(deliveryFates(inner, links), ended, outcome.encryptTo, links.publicUrl);
    await storeEncryptedResults(services, mediaDocument(inner, links), mediaId, outcome.encryptTo);
    stored = { ...ended, sections: {} };
  }
  fates = await storeLargeBodies(services, mediaId, media.run ?? 0, fates);
  if (!(await finishProcessing(services.db, stored, fates))) return false;
  for (const key of outcome.plaintextBlobs ?? []) {
    // A crash before this leaves the plaintext until the item is deleted; the results are sealed anyway.
    await services.blobs
      .delete(key)
      .catch((err) => services.log.error({ err, mediaId }, "deleting a plaintext stream failed"));
  }
  return true;
}

/** Pending bodies over the inline limit, moved to the blob store: their fates name the blob instead. */
async function storeLargeBodies(
  services: Services,
  mediaId: string,
  run: number,
  fates: DeliveryFate[],
): Promise<DeliveryFate[]> {
  const limit = services.settings.callbackInlineBodyBytes;
  return Promise.all(
    fates.map(async (fate): Promise<DeliveryFate> => {
      if (fate.state !== "pending" || !("body" in fate) || fate.body.length <= limit) return fate;
      const bodyBlob = callbackBodyKey(mediaId, fate.position, run);
      await services.blobs.put(bodyBlob, Readable.from([fate.body]));
      return { position: fate.position, state: "pending", contentType: fate.contentType, bodyBlob };
    }),
  );
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
    originalBlob: outcome.originalBlob ?? media.originalBlob,
  };
}

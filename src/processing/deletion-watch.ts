/**
 * A media item deleted while it is being processed: `DELETE /v3/media/{mediaId}` may be answered by any
 * API process while any worker process runs the job, so the worker looks for the row itself. One
 * indexed lookup a second per running job is cheap, needs no connection held for LISTEN, and works the
 * same on every database Hark runs on; a second of work past the delete is what it costs.
 */
import type { Sql } from "../store/database.ts";
import { mediaExists } from "../store/media.ts";

export const DELETION_POLL_MS = 1000;

/** The abort reason when the item was deleted: the work is dropped, neither failed nor handed back. */
export class MediaDeletedError extends Error {
  constructor(mediaId: string) {
    super(`media ${mediaId} was deleted while it was being processed`);
    this.name = "MediaDeletedError";
  }
}

export interface DeletionWatch {
  /** Aborts when the item is deleted, or when `parent` aborts (with its reason). */
  readonly signal: AbortSignal;
  /** Whether the item was found deleted. */
  deleted(): boolean;
  stop(): void;
}

/** Watches `mediaId` until `stop()`; a failed lookup is let pass (the next one looks again). */
export function watchDeletion(
  sql: Sql,
  mediaId: string,
  parent: AbortSignal | undefined,
  pollMs: number = DELETION_POLL_MS,
): DeletionWatch {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });

  let found = false;
  let looking = false;
  const timer = setInterval(() => {
    if (looking || controller.signal.aborted) return;
    looking = true;
    mediaExists(sql, mediaId)
      .then((exists) => {
        if (exists || controller.signal.aborted) return;
        found = true;
        controller.abort(new MediaDeletedError(mediaId));
      })
      .catch(() => {})
      .finally(() => {
        looking = false;
      });
  }, pollMs);
  // A watch must never keep a stopping process alive.
  timer.unref();

  return {
    signal: controller.signal,
    deleted: () => found,
    stop() {
      clearInterval(timer);
      parent?.removeEventListener("abort", onParentAbort);
    },
  };
}

/**
 * Bounding how many engine processes run at once. One limiter is shared by every piece of every channel
 * of a media item, so that the cores stay busy without being oversubscribed.
 */

export interface Limiter {
  readonly concurrency: number;
  /** Runs `task` once fewer than `concurrency` tasks are running; tasks start in the order submitted. */
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createLimiter(concurrency: number): Limiter {
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  let running = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    running--;
    const next = waiting.shift();
    if (next) {
      running++;
      next();
    }
  };

  return {
    concurrency,
    async run<T>(task: () => Promise<T>): Promise<T> {
      if (running < concurrency) running++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}

/**
 * Runs tasks together; when one fails, aborts the others through the signal they are given, waits for
 * all of them to settle (so that none is still writing into a directory about to be removed) and rejects
 * with the first failure. Aborting `parent` aborts them all the same way.
 */
export async function allOrAbort<T>(
  tasks: readonly ((signal: AbortSignal) => Promise<T>)[],
  parent?: AbortSignal,
): Promise<T[]> {
  const controller = new AbortController();
  const onParentAbort = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener("abort", onParentAbort, { once: true });

  let firstError: { error: unknown } | undefined;
  try {
    const settled = await Promise.allSettled(
      tasks.map(async (task) => {
        try {
          controller.signal.throwIfAborted();
          return await task(controller.signal);
        } catch (error) {
          if (!firstError && !controller.signal.aborted) {
            firstError = { error };
            controller.abort(error);
          }
          throw error;
        }
      }),
    );
    if (firstError) throw firstError.error;
    if (controller.signal.aborted) throw controller.signal.reason;
    return settled.map((result) => (result as PromiseFulfilledResult<T>).value);
  } finally {
    parent?.removeEventListener("abort", onParentAbort);
  }
}

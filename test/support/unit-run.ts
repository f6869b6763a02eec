/**
 * Holds the unit tests (`test/unit-tests.ts`) to their promise. The runner preloads this module
 * (`--import`) into every test file's process; in a listed file's process, starting any process
 * (PostgreSQL, ffmpeg, flite, pocketsphinx) throws, and so does asking for a database. A file that needs
 * more than a unit test has fails loudly, in `npm run test:unit` and in `npm test` alike, instead of
 * starting servers of its own or passing only where the tools happen to be installed.
 */
import childProcess from "node:child_process";
import { syncBuiltinESMExports } from "node:module";
import path from "node:path";
import { UNIT_TESTS } from "../unit-tests.ts";

const ROOT = path.join(import.meta.dirname, "..", "..");
const file = process.argv[1] === undefined ? undefined : path.resolve(process.argv[1]);
const unitFile = UNIT_TESTS.map((listed) => path.join(ROOT, listed)).find((listed) => listed === file);

function refusal(what: string): Error {
  return new Error(
    `${path.relative(ROOT, unitFile ?? "")} is listed as a unit test (test/unit-tests.ts), which needs ` +
      `no PostgreSQL and no other process, but it asked for ${what}: take it off the list`,
  );
}

/** Throws in a unit test's process: `what` is more than a unit test may use. */
export function refuseInUnitRun(what: string): void {
  if (unitFile !== undefined) throw refusal(what);
}

if (unitFile !== undefined) {
  for (const name of [
    "spawn",
    "spawnSync",
    "exec",
    "execSync",
    "execFile",
    "execFileSync",
    "fork",
  ] as const) {
    Object.defineProperty(childProcess, name, {
      value: (command: string) => {
        throw refusal(`the process ${JSON.stringify(command)}`);
      },
    });
  }
  // The functions `import { spawn } from "node:child_process"` binds are these from here on.
  syncBuiltinESMExports();
}

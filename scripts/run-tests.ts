/**
 * `npm test` after lint and type check: starts one embedded PostgreSQL server for the whole run (each
 * test file makes a fresh database on it), runs every test file with node's test runner, stops the
 * server, and exits with the runner's status.
 */
import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres } from "../src/store/embedded-postgres.ts";

const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-tests-pg-"));
const server = await startEmbeddedPostgres({ dir, log: () => {} });
const files = process.argv.slice(2);
let status: number;
try {
  const runner = spawn(
    process.execPath,
    // A hung test fails after 5 minutes instead of holding CI to its limit.
    [
      "--test",
      "--test-concurrency=2",
      "--test-timeout=300000",
      ...(files.length > 0 ? files : ["test/**/*.test.ts"]),
    ],
    {
      stdio: "inherit",
      env: { ...process.env, HARK_TEST_DATABASE_URL: server.url.replace(/\/[^/]*$/, "/postgres") },
    },
  );
  status = await new Promise<number>((resolve) =>
    runner.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0))),
  );
} finally {
  await server.stop();
  await fs.rm(dir, { recursive: true, force: true });
}
process.exit(status);

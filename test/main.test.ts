/**
 * The service as `npm start` runs it: `node src/main.ts` as its own process, with the embedded
 * PostgreSQL server in its data directory, driven only through its environment, signals, stdout and
 * HTTP.
 */
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import { after, describe, it } from "node:test";
import { freePort } from "../src/net/free-port.ts";
import { promisify } from "node:util";
import { execFile } from "node:child_process";
import {
  dataDir,
  postgresOf,
  ROOT,
  running,
  STOP_SECONDS,
  startMain,
  stillAlive,
  stopAllProcesses,
} from "./support/service-process.ts";

after(stopAllProcesses);

const run = promisify(execFile);

async function getMediaWithoutAuth(address: string): Promise<void> {
  const response = await fetch(`${address}/v3/media`);
  assert.equal(response.status, 401);
  const body = (await response.json()) as {
    status: number;
    errors: { code: number; error: string }[];
    reference: string;
  };
  assert.equal(body.status, 401);
  assert.equal(body.errors[0]?.code, 10002);
  assert.equal(typeof body.errors[0]?.error, "string");
  assert.equal(typeof body.reference, "string");
  assert.ok(body.reference.length > 0);
}

describe("src/main.ts", () => {
  it("serves HTTP once it reports running, and stops cleanly on SIGTERM", async () => {
    const dir = await dataDir();
    const hark = startMain({ HARK_DATA_DIR: dir, PORT: "0", HARK_LOG_LEVEL: "info" });
    const address = await running(hark);
    assert.match(address, /^http:\/\/127\.0\.0\.1:\d+$/);
    await getMediaWithoutAuth(address);

    const postgres = await postgresOf(dir);
    assert.ok(postgres.length > 0, "the embedded PostgreSQL server runs in the data directory");

    hark.child.kill("SIGTERM");
    assert.deepEqual(await hark.exit(STOP_SECONDS), { code: 0, signal: null }, hark.output());
    assert.deepEqual(await stillAlive(postgres), [], "no PostgreSQL process outlives Hark");
    assert.deepEqual(await postgresOf(dir), []);
    await assert.rejects(fetch(`${address}/v3/media`), "nothing listens any more");
  });

  it("refuses a bad setting: exit code 2 and a message naming the variable", async () => {
    const dir = await dataDir();
    const hark = startMain({ HARK_DATA_DIR: dir, PORT: "abc" });
    assert.deepEqual(await hark.exit(STOP_SECONDS), { code: 2, signal: null });
    assert.match(hark.stderr(), /\bPORT\b/);
    assert.deepEqual(await fs.readdir(dir), [], "nothing was started");
  });

  it("comes up after a SIGKILL left its PostgreSQL server running, and stops both cleanly", async () => {
    const dir = await dataDir();
    const first = startMain({ HARK_DATA_DIR: dir, PORT: "0", HARK_LOG_LEVEL: "info" });
    await running(first);
    const leftover = await postgresOf(dir);
    assert.ok(leftover.length > 0);
    first.child.kill("SIGKILL");
    assert.deepEqual(await first.exit(STOP_SECONDS), { code: null, signal: "SIGKILL" });
    assert.ok((await stillAlive(leftover)).length > 0, "the killed run left PostgreSQL running");

    const second = startMain({ HARK_DATA_DIR: dir, PORT: "0", HARK_LOG_LEVEL: "info" });
    const address = await running(second);
    await getMediaWithoutAuth(address);
    assert.deepEqual(await stillAlive(leftover), [], "the leftover server was stopped");
    const current = await postgresOf(dir);
    assert.ok(current.length > 0);

    second.child.kill("SIGTERM");
    assert.deepEqual(await second.exit(STOP_SECONDS), { code: 0, signal: null }, second.output());
    assert.deepEqual(await stillAlive(current), []);
    assert.deepEqual(await postgresOf(dir), []);
  });

  it("runs `serve`, `api` or `worker`; the split roles refuse to start without a shared database", async () => {
    for (const role of ["api", "worker"]) {
      const dir = await dataDir();
      const hark = startMain({ HARK_DATA_DIR: dir, PORT: "0" }, [role]);
      assert.deepEqual(await hark.exit(STOP_SECONDS), { code: 2, signal: null });
      assert.match(hark.stderr(), /HARK_DATABASE_URL/);
      assert.deepEqual(await fs.readdir(dir), [], "nothing was started");
    }
    const unknown = startMain({}, ["frobnicate"]);
    assert.deepEqual(await unknown.exit(STOP_SECONDS), { code: 2, signal: null });
    assert.match(
      unknown.stderr(),
      /unknown command "frobnicate"[\s\S]*usage: hark \[serve \| api \| worker\]/,
    );
  });

  it("does not start when its S3 bucket cannot be reached, and says so", async () => {
    const dir = await dataDir();
    const closed = await freePort();
    const hark = startMain({
      HARK_DATA_DIR: dir,
      PORT: "0",
      HARK_BLOB_STORE: "s3",
      HARK_S3_ENDPOINT: `http://127.0.0.1:${closed}`,
      HARK_S3_BUCKET: "hark-media",
      HARK_S3_ACCESS_KEY_ID: "AKIAEXAMPLE",
      HARK_S3_SECRET_ACCESS_KEY: "secret",
    });
    assert.deepEqual(await hark.exit(STOP_SECONDS), { code: 1, signal: null });
    assert.match(hark.stderr(), /^hark: could not start: the S3 bucket hark-media cannot be reached/m);
    assert.deepEqual(await fs.readdir(dir), [], "nothing was started");
  });

  it("is the `hark` command of `npx hark`", async () => {
    const { stdout } = await run("npx", ["--no-install", "hark", "help"], { cwd: ROOT });
    assert.match(stdout, /^usage: hark \[serve \| api \| worker\]/);
    for (const role of ["serve", "api", "worker"]) assert.match(stdout, new RegExp(`^  ${role} `, "m"));
  });
});

import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { type EmbeddedServer, startEmbeddedPostgres } from "../../src/store/embedded-postgres.ts";
import { processes } from "../support/service-process.ts";

const START_AND_DIE = path.join(import.meta.dirname, "fixtures", "start-and-die.ts");

const dirs: string[] = [];
const servers: EmbeddedServer[] = [];

async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-embedded-pg-"));
  dirs.push(dir);
  return dir;
}

async function start(dir: string): Promise<EmbeddedServer> {
  const server = await startEmbeddedPostgres({ dir, log: () => {} });
  servers.push(server);
  return server;
}

async function stop(server: EmbeddedServer): Promise<void> {
  servers.splice(servers.indexOf(server), 1);
  await server.stop();
}

async function query<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

/** Pids of the postmaster running the cluster in `clusterDir`, if any. */
async function postmastersOf(clusterDir: string): Promise<number[]> {
  return (await processes()).filter((p) => p.cmdline.includes(clusterDir)).map((p) => p.pid);
}

/**
 * Waits until none of `pids` is alive. They are not our children, so there is no exit event to wait
 * for: poll, with a deadline.
 */
async function gone(pids: number[], seconds = 20): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const alive = new Set((await processes()).map((p) => p.pid));
    if (pids.every((pid) => !alive.has(pid))) return;
    if (Date.now() > deadline) throw new Error(`processes ${pids.join(", ")} still alive after ${seconds}s`);
    await sleep(20);
  }
}

/**
 * Runs the start-and-die fixture on `dir`: resolves, once the fixture process has died of SIGKILL, to
 * the URL of the server it started and left behind.
 */
async function startAndDie(dir: string): Promise<string> {
  const child: ChildProcess = spawn(process.execPath, [START_AND_DIE, dir], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk) => {
    stderr += chunk;
  });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const firstLine = new Promise<string | undefined>((resolve) => {
    lines.once("line", resolve);
    lines.once("close", () => resolve(undefined));
  });
  const line = await firstLine;
  const [code, signal] = await exited;
  if (line === undefined)
    throw new Error(`start-and-die printed nothing (exit ${code ?? signal}): ${stderr}`);
  assert.equal(signal, "SIGKILL", "the fixture dies of SIGKILL");
  return (JSON.parse(line) as { url: string }).url;
}

after(async () => {
  for (const server of servers.splice(0)) await server.stop().catch(() => {});
  // Servers left behind by a failed test: nothing else will stop them.
  for (const dir of dirs) {
    for (const pid of await postmastersOf(path.join(dir, "cluster"))) process.kill(pid, "SIGKILL");
  }
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

// One cluster for the file (initdb is the slow part of a start). Each test finds it stopped and leaves it
// stopped, and writes to a table of its own.
describe("startEmbeddedPostgres", () => {
  let dir: string;
  let clusterDir: string;

  before(async () => {
    dir = await tempDir();
    clusterDir = path.join(dir, "cluster");
  });

  it("creates a cluster in an empty directory and keeps its data across a stop and a new start", async () => {
    const first = await start(dir);
    assert.equal((await postmastersOf(clusterDir)).length, 1, "the server runs the cluster in <dir>/cluster");
    await query(first.url, "create table restarted (body text)");
    await query(first.url, "insert into restarted values ('kept across restarts')");
    await stop(first);
    assert.deepEqual(await postmastersOf(clusterDir), [], "stop leaves no server running");

    const second = await start(dir);
    const rows = await query<{ body: string }>(second.url, "select body from restarted");
    assert.deepEqual(rows, [{ body: "kept across restarts" }]);
    await stop(second);
  });

  it("starts after a killed run left its server running, and stops that server", async () => {
    const leftoverUrl = await startAndDie(dir);
    // The server outlived the process that started it, and still serves.
    const [leftover] = await postmastersOf(clusterDir);
    assert.ok(leftover, "the killed run's server is still running");
    await query(leftoverUrl, "create table crashed (body text)");
    await query(leftoverUrl, "insert into crashed values ('written before the crash')");

    const server = await start(dir);
    const running = await postmastersOf(clusterDir);
    assert.equal(running.length, 1, "one server runs the cluster");
    assert.notEqual(running[0], leftover, "the leftover server was stopped");
    const rows = await query<{ body: string }>(server.url, "select body from crashed");
    assert.deepEqual(rows, [{ body: "written before the crash" }]);
    await stop(server);
    assert.deepEqual(await postmastersOf(clusterDir), []);
  });

  it("starts after the whole process group was killed, leaving a stale postmaster.pid", async () => {
    const leftoverUrl = await startAndDie(dir);
    await query(leftoverUrl, "create table power_cut (body text)");
    await query(leftoverUrl, "insert into power_cut values ('committed before the power cut')");
    const [postmaster] = await postmastersOf(clusterDir);
    assert.ok(postmaster);
    const group = [postmaster, ...(await processes()).filter((p) => p.ppid === postmaster).map((p) => p.pid)];
    for (const pid of group) process.kill(pid, "SIGKILL");
    await gone(group);
    const lockFile = await fs.readFile(path.join(clusterDir, "postmaster.pid"), "utf8");
    assert.equal(lockFile.split("\n")[0], String(postmaster), "the killed server's lock file is still there");

    const server = await start(dir);
    const rows = await query<{ body: string }>(server.url, "select body from power_cut");
    assert.deepEqual(rows, [{ body: "committed before the power cut" }]);
    await stop(server);
    assert.deepEqual(await postmastersOf(clusterDir), []);
  });
});

describe("startEmbeddedPostgres in a data directory the postgres user cannot reach", () => {
  it("keeps the cluster where that user can reach it, and starts", async (t) => {
    // As under /root (mode 0700 on Debian), where a root user's clone usually lives.
    const outer = await tempDir();
    await fs.chmod(outer, 0o700);
    const dir = path.join(outer, "data", "postgres");
    const logs: string[] = [];
    const server = await startEmbeddedPostgres({ dir, log: (line) => logs.push(line) });
    t.after(() => server.stop());
    assert.deepEqual(await query<{ one: number }>(server.url, "select 1 as one"), [{ one: 1 }]);
    if (os.userInfo().uid === 0) {
      const moved = logs.find((line) => line.includes("cannot reach"));
      assert.ok(moved, "says where the cluster went");
      const cluster = /kept in (\S+)$/.exec(moved)?.[1] ?? "";
      assert.equal((await postmastersOf(cluster)).length, 1);
      t.after(() => fs.rm(cluster, { recursive: true, force: true }));
    } else {
      assert.equal(
        (await postmastersOf(path.join(dir, "cluster"))).length,
        1,
        "not root: no postgres user involved",
      );
    }
  });
});

/**
 * PostgreSQL's binaries in a directory only root can enter (a clone under /root or in a `mktemp -d`):
 * the server, run as the `postgres` user, cannot be started from there; Hark runs a copy it can reach.
 * Without root there is no other user involved, and the binaries are run where they are.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { after, describe, it } from "node:test";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../../src/net/free-port.ts";
import { binariesIn, installedBinaries, reachableBinaries } from "../../src/store/postgres-binaries.ts";
import { initdb, postgresUser, startServer } from "../../src/store/postgres-process.ts";

const dirs: string[] = [];
after(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

async function tempDir(mode: number): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-pg-binaries-"));
  dirs.push(dir);
  await fs.chmod(dir, mode);
  return dir;
}

describe("PostgreSQL binaries in a directory only their owner can enter", () => {
  it("are copied where the server's user can reach them, once, and a server runs from the copy", async () => {
    const asRoot = os.userInfo().uid === 0;
    const closed = await tempDir(0o700);
    const installed = installedBinaries();
    // The native tree as npm installed it, in a clone the postgres user cannot enter.
    await promisify(execFile)("cp", ["-a", installed.binaries.root, path.join(closed, "native")]);
    const here = { binaries: binariesIn(path.join(closed, "native")), version: "test" };
    const sharedRoot = path.join(await tempDir(0o755), "shared");
    const runAs = await postgresUser(asRoot);
    const cluster = path.join(await tempDir(0o755), "cluster");
    const password = "binaries-test-password";

    if (asRoot) {
      // The fault: run from there, initdb cannot even be executed by the postgres user.
      await assert.rejects(
        initdb(here.binaries, runAs, { clusterDir: cluster, user: "hark", password, flags: [] }),
        /EACCES/,
      );
      await fs.rm(cluster, { recursive: true, force: true });
    }

    const logs: string[] = [];
    const binaries = await reachableBinaries(asRoot, (line) => logs.push(line), {
      installed: here,
      sharedRoot,
    });
    if (asRoot) {
      assert.equal(binaries.root, path.join(sharedRoot, "postgres-test"));
      assert.ok(
        logs.some((line) => line.includes("cannot reach")),
        "says where the binaries went",
      );
      assert.deepEqual(await fs.readdir(sharedRoot), ["postgres-test"], "no temporary copy left behind");
      const again = await reachableBinaries(asRoot, () => {}, { installed: here, sharedRoot });
      assert.equal(again.root, binaries.root, "the copy is made once and reused");
    } else {
      assert.equal(binaries.root, here.binaries.root, "not root: run where they are");
    }

    await initdb(binaries, runAs, {
      clusterDir: cluster,
      user: "hark",
      password,
      flags: ["--encoding=UTF8"],
    });
    const port = await freePort();
    const server = await startServer(
      binaries,
      runAs,
      cluster,
      ["-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      () => {},
    );
    try {
      const client = new pg.Client(`postgres://hark:${password}@127.0.0.1:${port}/postgres`);
      await client.connect();
      const { rows } = await client.query<{ one: number }>("select 1 as one");
      await client.end();
      assert.deepEqual(rows, [{ one: 1 }]);
    } finally {
      await server.stop();
    }
    assert.match(await server.exited, /exit code 0/, "stop is a clean shutdown");
  });
});

/**
 * An external PostgreSQL for tests: Debian's `postgresql` package (15 on bookworm), a throwaway cluster in
 * a temporary directory, on a free loopback port. It stands for the server a multi-machine deployment
 * points `HARK_DATABASE_URL` at, and it is older than the embedded one (18), so the suites that run on it
 * also check that Hark needs nothing newer than it says.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../src/net/free-port.ts";
import { run } from "../../src/pipeline/run.ts";

export interface ExternalPostgres {
  /** A URL to its `postgres` database, as `freshDatabase` wants. */
  adminUrl: string;
  /** The server's major version. */
  version: number;
  stop(): Promise<void>;
}

const ROOT = "/usr/lib/postgresql";
const USER = "hark";

/** The newest installed server's `bin` directory; rejects naming the package when there is none. */
async function binDir(): Promise<{ dir: string; version: number }> {
  const versions = (await fs.readdir(ROOT).catch(() => [] as string[]))
    .map(Number)
    .filter((version) => Number.isInteger(version))
    .sort((a, b) => b - a);
  for (const version of versions) {
    const dir = path.join(ROOT, String(version), "bin");
    if (await fs.stat(path.join(dir, "postgres")).catch(() => undefined)) return { dir, version };
  }
  throw new Error(`no PostgreSQL server under ${ROOT}: install Debian's postgresql package`);
}

export async function startExternalPostgres(): Promise<ExternalPostgres> {
  const { dir: bin, version } = await binDir();
  const asRoot = os.userInfo().uid === 0;
  // PostgreSQL refuses to run as root: as root, the cluster belongs to the `postgres` user the package made.
  const as = (command: string, args: string[]) =>
    asRoot ? { command: "runuser", args: ["-u", "postgres", "--", command, ...args] } : { command, args };
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-external-pg-"));
  const data = path.join(dir, "data");
  if (asRoot) {
    await fs.chmod(dir, 0o755);
    await fs.mkdir(data, { mode: 0o700 });
    await run("chown", ["postgres:postgres", data]);
  }
  const initdb = as(path.join(bin, "initdb"), ["-D", data, "-U", USER, "--auth=trust", "--encoding=UTF8"]);
  await run(initdb.command, initdb.args);
  const port = await freePort();
  const server = as(path.join(bin, "postgres"), [
    "-D",
    data,
    "-p",
    String(port),
    "-c",
    "listen_addresses=127.0.0.1",
    "-c",
    "unix_socket_directories=",
    // A test cluster: losing it to a power cut costs nothing.
    "-c",
    "fsync=off",
  ]);
  const child = spawn(server.command, server.args, { stdio: ["ignore", "ignore", "pipe"] });
  await ready(child);
  return {
    adminUrl: `postgres://${USER}@127.0.0.1:${port}/postgres`,
    version,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = once(child, "exit");
        // pg_ctl rather than a signal to `child`: as root that is runuser, which passes none on.
        const stop = as(path.join(bin, "pg_ctl"), ["stop", "-D", data, "-m", "fast"]);
        await run(stop.command, stop.args);
        await exited;
      }
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}

/** Resolves when the server logs that it accepts connections; rejects if it exits first. */
function ready(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = "";
    const onExit = (code: number | null) => reject(new Error(`PostgreSQL exited (${code}): ${log}`));
    child.once("exit", onExit);
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      log += chunk;
      if (log.includes("database system is ready to accept connections")) {
        child.off("exit", onExit);
        resolve();
      }
    });
  });
}

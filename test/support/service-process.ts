/**
 * Hark as `npm start` runs it: `node src/main.ts` as its own process (and process group), with the
 * embedded PostgreSQL server in its data directory, driven only through its environment, signals, stdout
 * and HTTP. Call `stopAllProcesses` in `after`.
 */
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { within } from "./within.ts";

export const ROOT = path.join(import.meta.dirname, "..", "..");
const MAIN = path.join(ROOT, "src", "main.ts");
/** Starting includes initdb on a fresh data directory; stopping includes PostgreSQL's shutdown. */
export const START_SECONDS = 60;
export const STOP_SECONDS = 30;

export interface Running {
  child: ChildProcess;
  /** Resolves to the first stdout log line that `matches`; rejects if stdout ends first. */
  logLine(matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  /** Resolves to the exit code and signal; rejects after `seconds`. */
  exit(seconds: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
  /** Everything it wrote, for failure messages. */
  output(): string;
}

const children: ChildProcess[] = [];
const dirs: string[] = [];

export async function dataDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-main-"));
  dirs.push(dir);
  // As a data directory is normally made (mkdtemp makes it 0700): when the tests run as root, the
  // embedded server runs as the postgres user and must be able to pass through it.
  await fs.chmod(dir, 0o755);
  return dir;
}

export function clusterOf(dir: string): string {
  return path.join(dir, "postgres", "cluster");
}

/** `args`: the command line after the program, e.g. `["worker"]`; none runs `serve`. */
export function startMain(env: Record<string, string>, args: readonly string[] = []): Running {
  // Only the settings given here: none leak in from the environment the tests run in.
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("HARK_") && name !== "PORT"),
  );
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd: ROOT,
    env: { ...inherited, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, with the PostgreSQL server it starts: `kill(-pid)` reaches them all, as a
    // power cut would.
    detached: true,
  });
  children.push(child);
  let stderr = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const exited = once(child, "exit").then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const seen: Record<string, unknown>[] = [];
  const waiters: {
    matches: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }[] = [];
  let ended = false;
  const enders: (() => void)[] = [];
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on("line", (text) => {
    let line: Record<string, unknown>;
    try {
      line = JSON.parse(text) as Record<string, unknown>;
    } catch {
      line = { msg: text };
    }
    seen.push(line);
    for (const waiter of waiters.splice(0)) {
      if (waiter.matches(line)) waiter.resolve(line);
      else waiters.push(waiter);
    }
  });
  lines.on("close", () => {
    ended = true;
    for (const end of enders.splice(0)) end();
  });
  return {
    child,
    stderr: () => stderr,
    output: () => `stdout:\n${seen.map((line) => JSON.stringify(line)).join("\n")}\nstderr:\n${stderr}`,
    logLine(matches) {
      const found = seen.find(matches);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const fail = () =>
          reject(
            new Error(
              `stdout ended before the expected line; stdout: ${JSON.stringify(seen)}; stderr: ${stderr}`,
            ),
          );
        if (ended) return fail();
        waiters.push({ matches, resolve });
        enders.push(fail);
      });
    },
    exit(seconds) {
      return within(exited, seconds * 1000, `pid ${child.pid} exit`);
    },
  };
}

/** Resolves to the HTTP API's address once Hark reports running. */
export async function running(hark: Running): Promise<string> {
  const line = await started(hark);
  assert.equal(typeof line.address, "string");
  return line.address as string;
}

/** Resolves to the "Hark is running" log line (a worker's has no address). */
export function started(hark: Running): Promise<Record<string, unknown>> {
  return within(
    hark.logLine((l) => l.msg === "Hark is running"),
    START_SECONDS * 1000,
    () => `Hark reporting running (stderr: ${hark.stderr()})`,
  );
}

/** Live (not zombie) processes, with their parent and command line. */
export async function processes(): Promise<{ pid: number; ppid: number; cmdline: string[] }[]> {
  const found = [];
  for (const entry of await fs.readdir("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = await fs.readFile(`/proc/${entry}/stat`, "utf8");
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (state === "Z" || state === "X") continue;
      const cmdline = (await fs.readFile(`/proc/${entry}/cmdline`, "utf8")).split("\0");
      found.push({ pid: Number(entry), ppid: Number(ppid), cmdline });
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** The PostgreSQL processes of the cluster in `dir`: the server (named by its data directory) and its children. */
export async function postgresOf(dir: string): Promise<{ pid: number; cmdline: string[] }[]> {
  const all = await processes();
  const servers = all.filter((p) => p.cmdline.includes(clusterOf(dir)));
  const ids = new Set(servers.map((p) => p.pid));
  return [...servers, ...all.filter((p) => ids.has(p.ppid) && p.cmdline[0]?.startsWith("postgres"))];
}

export async function stillAlive(pids: { pid: number; cmdline: string[] }[]): Promise<number[]> {
  const now = await processes();
  return pids
    .filter((p) => now.some((q) => q.pid === p.pid && q.cmdline.join(" ") === p.cmdline.join(" ")))
    .map((p) => p.pid);
}

export async function stopAllProcesses(): Promise<void> {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  // PostgreSQL servers of a failed test: nothing else would stop them.
  for (const dir of dirs) {
    for (const server of (await processes()).filter((p) => p.cmdline.includes(clusterOf(dir)))) {
      process.kill(server.pid, "SIGKILL");
    }
  }
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
}

/**
 * One embedded cluster, one Hark: the process that starts the embedded PostgreSQL server claims its
 * directory in an owner file (`owner.json`: pid, host, boot and process start time), made with an exclusive
 * create. A second start finds it and refuses while that owner lives; the file of a dead owner (SIGKILL,
 * power cut: nothing removed it) is taken over, and only then is a server it left running stopped.
 *
 * A pid alone could have been reused by an unrelated process since; the owner is alive only if a process
 * with that pid started at the recorded time (/proc/<pid>/stat) since the recorded boot.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";

export interface Owner {
  readonly pid: number;
  readonly host: string;
  readonly boot: string;
  /** The process's start time, in clock ticks since boot (field 22 of /proc/<pid>/stat). */
  readonly started: string;
  readonly since: string;
  /** PostgreSQL's port, once known. */
  readonly port?: number;
  /** Where this Hark serves HTTP, when it says. */
  readonly serves?: string;
}

/** Another Hark, alive, owns the directory. */
export class DirectoryInUseError extends Error {}

export interface Claim {
  /** Records more about the owner (the port, once chosen). */
  update(more: Pick<Owner, "port">): Promise<void>;
  release(): Promise<void>;
}

const FILE = "owner.json";

export async function claimDirectory(dir: string, serves: string | undefined): Promise<Claim> {
  const file = path.join(dir, FILE);
  let me: Owner = { ...thisProcess(), ...(serves === undefined ? {} : { serves }) };
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.writeFile(file, JSON.stringify(me), { flag: "wx", mode: 0o644 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST" || attempt > 3) throw error;
    }
    const text = await fs.readFile(file, "utf8").catch(() => "");
    const owner = parse(text);
    if (owner !== undefined && isAlive(owner)) throw new DirectoryInUseError(describe(owner, dir));
    await removeIfUnchanged(file, text);
  }
  return {
    async update(more) {
      me = { ...me, ...more };
      await fs.writeFile(file, JSON.stringify(me));
    },
    async release() {
      const text = await fs.readFile(file, "utf8").catch(() => "");
      if (parse(text)?.pid === me.pid && parse(text)?.started === me.started)
        await fs.rm(file, { force: true });
    },
  };
}

/**
 * Removes the dead owner's file, unless another start replaced it meanwhile with its own: the file is
 * moved aside first and, if it is not the one read, linked back (link, unlike rename, never overwrites).
 */
async function removeIfUnchanged(file: string, read: string): Promise<void> {
  const aside = `${file}.${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await fs.rename(file, aside);
  } catch {
    return; // Gone already: the next attempt creates it.
  }
  if ((await fs.readFile(aside, "utf8")) !== read) await fs.link(aside, file).catch(() => {});
  await fs.rm(aside, { force: true });
}

function describe(owner: Owner, dir: string): string {
  const where = owner.host === os.hostname() ? "" : ` on host ${owner.host}`;
  const details = [
    owner.serves === undefined ? undefined : `serving ${owner.serves}`,
    owner.port === undefined ? undefined : `PostgreSQL on port ${owner.port}`,
    `since ${owner.since}`,
  ].filter((part) => part !== undefined);
  const remedy =
    where === ""
      ? "stop it first, or give this one another HARK_DATA_DIR"
      : `stop it first (or, if it is gone, remove ${path.join(dir, FILE)}), or give this one another HARK_DATA_DIR`;
  return `another Hark (pid ${owner.pid}${where}, ${details.join(", ")}) is running on ${dir}; ${remedy}`;
}

function parse(text: string): Owner | undefined {
  try {
    const owner = JSON.parse(text) as Partial<Owner>;
    return typeof owner.pid === "number" && typeof owner.host === "string" ? (owner as Owner) : undefined;
  } catch {
    return undefined; // Half written by a process killed at that moment: no owner.
  }
}

/** A live owner: on this host, since this boot, a process with its pid that started when it did. */
function isAlive(owner: Owner): boolean {
  // Another host's processes cannot be seen from here: assume it lives rather than break its cluster.
  if (owner.host !== os.hostname()) return true;
  if (bootId() === "") return signalable(owner.pid); // No /proc (not Linux): the pid is all there is.
  return owner.boot === bootId() && startTimeOf(owner.pid) === owner.started;
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function thisProcess(): Owner {
  return {
    pid: process.pid,
    host: os.hostname(),
    boot: bootId(),
    started: startTimeOf(process.pid) ?? "",
    since: new Date().toISOString(),
  };
}

function bootId(): string {
  try {
    return readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
  } catch {
    return "";
  }
}

/** Start time of a live (not zombie) process, or undefined when there is none with that pid. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields from the third on: state is [0], starttime (field 22) is [19].
    return fields[0] === "Z" || fields[0] === "X" ? undefined : fields[19];
  } catch {
    return undefined;
  }
}

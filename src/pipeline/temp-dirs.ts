/**
 * Transcription works in a temp directory under the data directory; a process that crashes leaves it
 * behind. Its name says which process made it (pid and host), so that a process starting later can tell
 * a leftover from a directory another live process sharing the data directory is still using.
 */
import fs from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";

const PREFIX = "hark-transcribe-";
/** Directories whose maker cannot be told (another host, an older Hark) are removed once this old. */
export const UNOWNED_TEMP_DIR_AGE_MS = 24 * 3600 * 1000;
/** mkdtemp appends six characters to the prefix. */
const SUFFIX_LENGTH = 6;

/** The host part of a name: `-` separates the name's fields, so the host has none. */
function hostPart(host: string): string {
  return host.replace(/[^A-Za-z0-9]+/g, "_") || "_";
}

/** The `mkdtemp` prefix of a transcription's temp directory, for process `pid` on this host. */
export function transcribeDirPrefix(pid: number = process.pid, host: string = hostname()): string {
  return `${PREFIX}${pid}-${hostPart(host)}-`;
}

/** Whether a process `pid` runs on this host (one we may not signal runs all the same). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether a temp directory named `name` is a leftover. One made on this host is, once its process is gone,
 * or when its pid is this process's (which made none yet at start: a restarted container's pid 1 is
 * another life). One of another host or an older naming is, only when `ageMs` says nobody can be using it.
 */
export function isLeftoverTempDir(
  name: string,
  ageMs: number,
  self: { pid: number; host: string; alive: (pid: number) => boolean },
): boolean {
  if (!name.startsWith(PREFIX)) return false;
  const match = /^hark-transcribe-(\d+)-/.exec(name);
  const pid = match ? Number(match[1]) : undefined;
  if (
    pid !== undefined &&
    name.length === transcribeDirPrefix(pid, self.host).length + SUFFIX_LENGTH &&
    name.startsWith(transcribeDirPrefix(pid, self.host))
  ) {
    return pid === self.pid || !self.alive(pid);
  }
  return ageMs > UNOWNED_TEMP_DIR_AGE_MS;
}

/** Removes the leftover transcription temp directories in `dir`; resolves to their names. */
export async function removeLeftoverTempDirs(dir: string, now: number = Date.now()): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const self = { pid: process.pid, host: hostname(), alive };
  const removed: string[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith(PREFIX)) continue;
    const full = path.join(dir, entry.name);
    const stat = await fs.stat(full).catch(() => undefined);
    if (stat === undefined || !isLeftoverTempDir(entry.name, now - stat.mtimeMs, self)) continue;
    await fs.rm(full, { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}

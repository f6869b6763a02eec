/**
 * The pipeline works in temp space under the data directory (transcription directories, redacted-audio
 * files); a process that crashes leaves them behind. Their names say which process made them (pid and
 * host), so that a process starting later can tell a leftover from what another live process sharing the
 * data directory is still using.
 */
import fs from "node:fs/promises";
import { hostname } from "node:os";
import path from "node:path";

/** Directories whose maker cannot be told (another host, an older Hark) are removed once this old. */
export const UNOWNED_TEMP_DIR_AGE_MS = 24 * 3600 * 1000;

/**
 * What the pipeline makes, by prefix: the length of what follows the process part (mkdtemp's six
 * characters; a media id) tells a name of this kind from an older naming that merely starts alike.
 */
const KINDS = [
  { prefix: "hark-transcribe-", suffixLength: 6 },
  { prefix: "hark-redact-", suffixLength: 36 },
] as const;

/**
 * Names no process: earlier releases' redacted-audio files (`<mediaId>-redacted`), and the S3 store's
 * downloads for ffmpeg (`<uuid>.blob`, read for at most a job's 6-hour expiry). Removed once a day old.
 */
const UNOWNED = [/^hark-(transcribe|redact)-/, /^[0-9a-f-]{36}-redacted$/, /^[0-9a-f-]{36}\.blob$/];

/** The host part of a name: `-` separates the name's fields, so the host has none. */
function hostPart(host: string): string {
  return host.replace(/[^A-Za-z0-9]+/g, "_") || "_";
}

/** The `mkdtemp` prefix of a transcription's temp directory, for process `pid` on this host. */
export function transcribeDirPrefix(pid: number = process.pid, host: string = hostname()): string {
  return `hark-transcribe-${pid}-${hostPart(host)}-`;
}

/** The name of a redacted-audio temp file, less the media id that ends it. */
export function redactFilePrefix(pid: number = process.pid, host: string = hostname()): string {
  return `hark-redact-${pid}-${hostPart(host)}-`;
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
 * Whether a temp entry named `name` is a leftover. One made on this host is, once its process is gone,
 * or when its pid is this process's (which made none yet at start: a restarted container's pid 1 is
 * another life). One of another host or an older naming is, only when `ageMs` says nobody can be using it.
 */
export function isLeftoverTempDir(
  name: string,
  ageMs: number,
  self: { pid: number; host: string; alive: (pid: number) => boolean },
): boolean {
  for (const { prefix, suffixLength } of KINDS) {
    const match = new RegExp(`^${prefix}(\\d+)-`).exec(name);
    if (!match) continue;
    const pid = Number(match[1]);
    const ours = `${prefix}${pid}-${hostPart(self.host)}-`;
    if (name.length === ours.length + suffixLength && name.startsWith(ours)) {
      return pid === self.pid || !self.alive(pid);
    }
  }
  return UNOWNED.some((pattern) => pattern.test(name)) && ageMs > UNOWNED_TEMP_DIR_AGE_MS;
}

/** Removes the pipeline's leftover temp directories and files in `dir`; resolves to their names. */
export async function removeLeftoverTempDirs(dir: string, now: number = Date.now()): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const self = { pid: process.pid, host: hostname(), alive };
  const removed: string[] = [];
  for (const entry of entries) {
    if (!UNOWNED.some((pattern) => pattern.test(entry.name))) continue;
    const full = path.join(dir, entry.name);
    const stat = await fs.stat(full).catch(() => undefined);
    if (stat === undefined || !isLeftoverTempDir(entry.name, now - stat.mtimeMs, self)) continue;
    await fs.rm(full, { recursive: true, force: true });
    removed.push(entry.name);
  }
  return removed;
}

/**
 * Whose fault a failure is. The customer's media is at fault only when a tool says the *input* is bad
 * (ffmpeg cannot demux or decode it); a full disk, a failing disk, exhausted memory or file handles, a
 * tool that is missing or was killed, are Hark's own faults: they are retried, and reported as Hark's.
 *
 * Decided from facts the system gives: the errno of our own calls (`error.code`), the strerror text that
 * ffmpeg prints for the files it writes ("No space left on device"), and how a tool ended (a signal).
 */

/** A fault of the server, not of the media: what the failed item's error says it was. */
export type ServerFaultKind = "storage-full" | "filesystem" | "resources" | "tool";

/**
 * errno codes (Node's `error.code`) and PostgreSQL SQLSTATEs (class 53, insufficient resources) that are
 * the server's fault whatever the media.
 */
const CODES: Readonly<Record<string, ServerFaultKind>> = {
  ENOSPC: "storage-full",
  EDQUOT: "storage-full",
  "53100": "storage-full",
  EIO: "filesystem",
  EROFS: "filesystem",
  EACCES: "filesystem",
  EPERM: "filesystem",
  EMFILE: "resources",
  ENFILE: "resources",
  ENOMEM: "resources",
  EAGAIN: "resources",
  "53200": "resources",
  "53300": "resources",
};

/**
 * The same errors as ffmpeg, ffprobe and the C library print them (glibc's strerror texts), and ffmpeg's
 * own line when a signal stopped it.
 */
const STDERR_PATTERNS: ReadonlyArray<readonly [RegExp, ServerFaultKind]> = [
  [/No space left on device|Disk quota exceeded/i, "storage-full"],
  [/Input\/output error|Read-only file system|Permission denied|Operation not permitted/i, "filesystem"],
  [/Too many open files|Cannot allocate memory|Resource temporarily unavailable/i, "resources"],
  [/received signal \d+/i, "tool"],
];

export function codeFault(code: unknown): ServerFaultKind | undefined {
  return typeof code === "string" ? CODES[code] : undefined;
}

/** What a tool's stderr says of the server's state, if anything. */
export function stderrFault(stderr: string): ServerFaultKind | undefined {
  return STDERR_PATTERNS.find(([pattern]) => pattern.test(stderr))?.[1];
}

/** How a tool ended: its exit code (`null` when a signal ended it) and what it printed. */
export interface ToolEnding {
  exitCode: number | null;
  stderr: string;
}

/**
 * Whose fault a tool's failure is: a server fault's kind, or `"input"` when the tool ran to its end,
 * failed, and blamed nothing of the server's, i.e. it could not make sense of what it was given.
 */
export function toolFault(ending: ToolEnding): ServerFaultKind | "input" {
  if (ending.exitCode === null) return "tool";
  return stderrFault(ending.stderr) ?? "input";
}

/**
 * The server fault behind `error`, looking through its causes: an errno or SQLSTATE of its own, a tool
 * that could not be started (`spawn` failed), or a tool's ending (`exitCode` and `stderr`) that names one.
 */
export function serverFaultOf(error: unknown): ServerFaultKind | undefined {
  const seen = new Set<unknown>();
  for (let current = error; current instanceof Object && !seen.has(current);) {
    seen.add(current);
    const fields = current as { code?: unknown; syscall?: unknown; exitCode?: unknown; stderr?: unknown };
    const byCode = codeFault(fields.code);
    if (byCode) return byCode;
    if (typeof fields.syscall === "string" && fields.syscall.startsWith("spawn")) return "tool";
    if (
      typeof fields.stderr === "string" &&
      (typeof fields.exitCode === "number" || fields.exitCode === null)
    ) {
      const byTool = toolFault({ exitCode: fields.exitCode, stderr: fields.stderr });
      if (byTool !== "input") return byTool;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

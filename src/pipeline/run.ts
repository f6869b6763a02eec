import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { stderrFault } from "../domain/server-faults.ts";

/** The only place the pipeline starts external programs (ffmpeg, ffprobe, pocketsphinx). */

export interface RunOptions {
  /** Aborting kills the process outright (SIGKILL) so that a cancelled job frees its core at once. */
  signal?: AbortSignal;
  /** Hears stdout as it comes (as well as in the result), e.g. to follow a long recognition's progress. */
  onStdout?: (chunk: string) => void;
}

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** How much of stderr an error message carries: the end is where ffmpeg says what went wrong. */
const STDERR_TAIL_CHARS = 1500;

export class CommandFailedError extends Error {
  readonly command: string;
  /** `null` when a signal ended the program; 0 when it exited "successfully" after a write failed. */
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stderr: string;

  constructor(command: string, exitCode: number | null, signal: string | null, stderr: string) {
    const how =
      exitCode === null
        ? `was killed by ${signal ?? "a signal"}`
        : exitCode === 0
          ? "exited with code 0 although it could not write its output"
          : `exited with code ${exitCode}`;
    const tail = stderrTail(stderr);
    super(`${command} ${how}${tail ? `: ${tail}` : ""}`);
    this.name = "CommandFailedError";
    this.command = command;
    this.exitCode = exitCode;
    this.signal = signal;
    this.stderr = stderr;
  }
}

/** A write failed for want of space, so an output the program made may be cut short. */
function leftOutputCut(stderr: string): boolean {
  // Only a full disk: other complaints a program survives are no sign of a cut output (PostgreSQL's tools,
  // started in a directory their user cannot enter, say "Permission denied" and carry on).
  return stderrFault(stderr) === "storage-full";
}

export function stderrTail(stderr: string, maxChars = STDERR_TAIL_CHARS): string {
  const trimmed = stderr.trim();
  if (trimmed.length <= maxChars) return trimmed;
  return `…${trimmed.slice(trimmed.length - maxChars)}`;
}

/**
 * Runs a program to completion and collects its output. Rejects with `CommandFailedError` on a non-zero
 * exit, with the abort reason when `signal` aborts, and with a readable error when the program is missing.
 */
export function run(command: string, args: readonly string[], options: RunOptions = {}): Promise<RunResult> {
  const { signal, onStdout } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    // stdin is closed so that ffmpeg never waits for a keypress.
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    // A decoder of its own, so that a character split between two chunks reaches onStdout whole.
    const text = new StringDecoder("utf8");
    child.stdout.on("data", (chunk: Buffer) => {
      stdout.push(chunk);
      onStdout?.(text.write(chunk));
    });
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));

    const onAbort = () => child.kill("SIGKILL");
    signal?.addEventListener("abort", onAbort, { once: true });

    child.on("error", (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener("abort", onAbort);
      if (error.code === "ENOENT") {
        reject(new Error(`${command} is not installed or not on PATH`, { cause: error }));
      } else {
        reject(error);
      }
    });
    child.on("close", (code, killedBy) => {
      signal?.removeEventListener("abort", onAbort);
      const out = Buffer.concat(stdout).toString("utf8");
      const err = Buffer.concat(stderr).toString("utf8");
      if (signal?.aborted) reject(signal.reason);
      // ffmpeg 5 exits 0 when the disk fills as it writes its trailer, leaving a cut file behind: what it
      // printed decides, not only its exit code.
      else if (code === 0 && !leftOutputCut(err)) resolve({ stdout: out, stderr: err });
      else reject(new CommandFailedError(command, code, killedBy, err));
    });
  });
}

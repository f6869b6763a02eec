import { run } from "./run.ts";

/**
 * Finding silences and planning where to cut the audio. Recognising pieces in parallel is the only way to
 * use more than one core with pocketsphinx, and cutting in silences keeps every word whole.
 */

export interface Silence {
  startMs: number;
  endMs: number;
}

export interface Segment {
  startMs: number;
  endMs: number;
}

export interface SilenceOptions {
  /** Level below which audio counts as silent. Phone lines hiss around -50 dB; speech peaks near -10 dB. */
  noiseDb?: number;
  /** Shortest pause that counts; shorter gaps occur between words inside a sentence. */
  minSilenceMs?: number;
  /** Closes a silence still open at the end of the audio; without it such a silence is dropped. */
  lengthMs?: number;
  signal?: AbortSignal;
}

export const DEFAULT_NOISE_DB = -35;
export const DEFAULT_MIN_SILENCE_MS = 300;

/** Silences in a media file, found by ffmpeg's `silencedetect` filter, in order. */
export async function detectSilences(wavPath: string, options: SilenceOptions = {}): Promise<Silence[]> {
  const noiseDb = options.noiseDb ?? DEFAULT_NOISE_DB;
  const seconds = (options.minSilenceMs ?? DEFAULT_MIN_SILENCE_MS) / 1000;
  const { stderr } = await run(
    "ffmpeg",
    [
      "-nostdin",
      "-hide_banner",
      "-nostats",
      // silencedetect reports at info level: a quieter log level would hide its findings.
      "-v",
      "info",
      "-i",
      wavPath,
      "-map",
      "0:a:0",
      "-af",
      `silencedetect=noise=${noiseDb}dB:d=${seconds}`,
      "-f",
      "null",
      "-",
    ],
    { signal: options.signal },
  );
  return parseSilencedetectLog(stderr, options.lengthMs);
}

/**
 * Reads `silence_start: 1.23` / `silence_end: 4.56 | silence_duration: 3.33` lines from ffmpeg's stderr.
 * ffmpeg may print a slightly negative start for a silence at the very beginning: it is clamped to 0.
 */
export function parseSilencedetectLog(stderr: string, lengthMs?: number): Silence[] {
  const silences: Silence[] = [];
  let openStart: number | undefined;
  for (const match of stderr.matchAll(/silence_(start|end): *(-?[\d.]+(?:e[-+]?\d+)?)/g)) {
    const ms = Math.max(0, Math.round(Number(match[2]) * 1000));
    if (!Number.isFinite(ms)) continue;
    if (match[1] === "start") {
      openStart = ms;
    } else {
      silences.push({ startMs: openStart ?? 0, endMs: ms });
      openStart = undefined;
    }
  }
  if (openStart !== undefined && lengthMs !== undefined && lengthMs > openStart) {
    silences.push({ startMs: openStart, endMs: Math.round(lengthMs) });
  }
  return silences;
}

export interface PlanOptions {
  /** The length pieces should have: long enough to amortise starting the recogniser, short enough to share out. */
  targetMs: number;
  /** No piece is longer; when no silence falls within reach, the cut goes through speech. */
  maxMs: number;
}

/**
 * Cuts `[0, lengthMs)` into consecutive pieces that cover it exactly. Cuts fall in the middle of
 * silences; a cut goes through speech only where no silence lies within `maxMs` of the previous cut.
 *
 * Each step aims at an even share of what remains (`remaining / round(remaining / targetMs)`), which keeps
 * pieces near `targetMs` without leaving a sliver at the end, and takes the silence closest to that aim.
 */
export function planSegments(
  lengthMs: number,
  silences: readonly Silence[],
  options: PlanOptions,
): Segment[] {
  const targetMs = Math.round(options.targetMs);
  const maxMs = Math.floor(options.maxMs);
  if (!(targetMs >= 1)) throw new RangeError(`targetMs must be at least 1 ms, got ${options.targetMs}`);
  if (!(maxMs >= targetMs))
    throw new RangeError(`maxMs (${options.maxMs}) must be at least targetMs (${targetMs})`);
  const length = Math.round(lengthMs);
  if (!(length > 0)) return [];

  const cuts = cutCandidates(silences, length);
  const segments: Segment[] = [];
  let pos = 0;
  let next = 0; // index of the first candidate after `pos`
  for (;;) {
    const remaining = length - pos;
    const piecesLeft = Math.max(1, Math.round(remaining / targetMs), Math.ceil(remaining / maxMs));
    if (piecesLeft === 1) {
      segments.push({ startMs: pos, endMs: length });
      return segments;
    }
    const aim = pos + remaining / piecesLeft;
    while (next < cuts.length && (cuts[next] ?? 0) <= pos) next++;
    let best: number | undefined;
    for (let i = next; i < cuts.length; i++) {
      const cut = cuts[i] ?? 0;
      if (cut > pos + maxMs) break;
      if (best === undefined || Math.abs(cut - aim) < Math.abs(best - aim)) best = cut;
    }
    // No silence within reach: any piece must end in speech, so end it where the share is even.
    const cut = best ?? Math.max(pos + 1, Math.floor(aim));
    segments.push({ startMs: pos, endMs: cut });
    pos = cut;
  }
}

/** Midpoints of the silences, in whole ms, strictly inside the audio, sorted and distinct. */
function cutCandidates(silences: readonly Silence[], length: number): number[] {
  const cuts = new Set<number>();
  for (const { startMs, endMs } of silences) {
    const start = Math.max(0, startMs);
    const end = Math.min(length, endMs);
    if (!(end > start)) continue;
    const mid = Math.round((start + end) / 2);
    if (mid > 0 && mid < length) cuts.add(mid);
  }
  return [...cuts].sort((a, b) => a - b);
}

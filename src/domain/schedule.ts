/**
 * The retry schedule of a delivery, as data: offsets from the first try at which each scheduled attempt
 * starts, and how many tries each of them (a burst) makes in a row. Pure.
 *
 * Default, per spec/callbacks.md and DESIGN.md: 7 scheduled attempts at 0, 15, 45, 105, 225, 465 and 945
 * minutes after the first try (the spec's "223" read as 225), each a burst of 3 tries: 21 tries at most.
 */

export interface Schedule {
  /** Milliseconds from the first try; the first is 0 and they increase strictly. */
  readonly offsetsMs: readonly number[];
  /** Tries per scheduled attempt. */
  readonly burst: number;
}

export const DEFAULT_SCHEDULE_TEXT = "0,15m,45m,105m,225m,465m,945m";
export const DEFAULT_BURST = 3;

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Parses `0,15m,45m,...` (units s, m, h; a bare number is seconds). Throws a message saying what is wrong. */
export function parseScheduleOffsets(text: string): number[] {
  const offsets = text.split(",").map((part) => {
    const match = /^\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*$/.exec(part);
    if (!match) throw new Error(`"${part.trim()}" is not an offset like 0, 30s, 15m or 2h`);
    return Math.round(Number(match[1]) * UNIT_MS[(match[2] || "s") as keyof typeof UNIT_MS]);
  });
  if (offsets[0] !== 0) throw new Error("the first offset must be 0: the first try starts at once");
  for (let i = 1; i < offsets.length; i++) {
    if ((offsets[i] ?? 0) <= (offsets[i - 1] ?? 0)) throw new Error("offsets must increase");
  }
  return offsets;
}

/** When scheduled attempt `index` (from 0) starts, or undefined when the schedule has no such attempt. */
export function scheduledAttemptAt(schedule: Schedule, firstTryAt: Date, index: number): Date | undefined {
  const offset = schedule.offsetsMs[index];
  return offset === undefined ? undefined : new Date(firstTryAt.getTime() + offset);
}

/**
 * The scheduled attempt after `index`, or undefined when `index` was the last: the delivery is exhausted.
 * With `notBefore` (a receiver's Retry-After), the first later attempt that starts no earlier: the
 * receiver's wish is honoured within the schedule, which it can thin out but never lengthen.
 */
export function nextScheduledAttempt(
  schedule: Schedule,
  firstTryAt: Date,
  index: number,
  notBefore?: Date,
): { index: number; at: Date } | undefined {
  for (let next = index + 1; ; next++) {
    const at = scheduledAttemptAt(schedule, firstTryAt, next);
    if (at === undefined) return undefined;
    if (notBefore === undefined || at >= notBefore) return { index: next, at };
  }
}

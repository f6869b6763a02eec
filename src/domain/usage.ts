/**
 * Usage: what an account had processed, per UTC month or day. A usage record is written with the end of
 * every finished item (store/usage.ts) and outlives the item, so deleting media or letting it expire
 * never changes past usage.
 */

/** One period's totals. `period` is `YYYY-MM` for a month, `YYYY-MM-DD` for a day, in UTC. */
export interface UsagePeriod {
  period: string;
  /** Media items whose processing finished in the period. */
  mediaCount: number;
  /** The sum of their lengths. */
  lengthMs: number;
}

/** The UTC instants a month starts and ends at (the end excluded). `month` is 1..12. */
export function monthRange(year: number, month: number): { from: Date; to: Date } {
  return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1)) };
}

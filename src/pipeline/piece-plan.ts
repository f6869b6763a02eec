/**
 * How to cut one channel into pieces so that recognising them on a few cores finishes soonest. Pure.
 *
 * Each piece costs the engine's start-up plus time proportional to its length, and pieces run in order on
 * `slots` workers. Cuts fall in silences, which rarely lie exactly where an even split wants them: on two
 * cores, two pieces of 36 s and 30 s finish when the 36 s one does. So several piece counts are planned
 * and the one whose estimated finish is earliest wins; on a tie, fewer pieces (less start-up work).
 */
import { planSegments, type Segment, type Silence } from "./silences.ts";

export interface PiecePlanOptions {
  /** Workers the pieces share. */
  slots: number;
  /** The engine's start-up cost, as the length of audio it could have recognised in that time. */
  startupMs: number;
  /** Pieces shorter than this are not planned (below it the start-up outweighs the parallelism). */
  minMs: number;
  /** No piece is longer, even if that means cutting through speech. */
  maxMs: number;
}

/** When the last of `pieces` would finish, started in order on `slots` workers each costing start-up + length. */
export function estimatedFinish(pieces: readonly Segment[], slots: number, startupMs: number): number {
  const free = Array<number>(Math.max(1, slots)).fill(0);
  for (const piece of pieces) {
    const earliest = free.indexOf(Math.min(...free));
    free[earliest] = (free[earliest] ?? 0) + startupMs + (piece.endMs - piece.startMs);
  }
  return Math.max(...free);
}

/** How many more piece counts than the fewest possible are tried: enough to find a balanced one. */
const EXTRA_COUNTS_PER_SLOT = 4;

export function fastestPlan(
  lengthMs: number,
  silences: readonly Silence[],
  options: PiecePlanOptions,
): Segment[] {
  const fewest = Math.max(1, Math.ceil(lengthMs / options.maxMs));
  const most = Math.max(
    fewest,
    Math.min(Math.floor(lengthMs / options.minMs), fewest + EXTRA_COUNTS_PER_SLOT * options.slots),
  );
  let best: { plan: Segment[]; finish: number } | undefined;
  for (let count = fewest; count <= most; count++) {
    const targetMs = lengthMs / count;
    const plan = planSegments(lengthMs, silences, {
      targetMs,
      maxMs: Math.max(options.maxMs, Math.ceil(targetMs)),
    });
    const finish = estimatedFinish(plan, options.slots, options.startupMs);
    if (best === undefined || finish < best.finish) best = { plan, finish };
  }
  return best?.plan ?? [];
}

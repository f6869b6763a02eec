/**
 * Wall time per phase of one processing run, for the "processing ended" log line and `GET .../progress`
 * (issue 15: without phase times nobody can say where a slow run lost its time).
 *
 * A phase's time is how long at least one piece of its work was under way: two channels decoding side by
 * side for 3 s count 3 s of `decode`, not 6. Work waiting for a free core is not timed, so a phase's
 * time is work, not queueing. The clock is passed in: the job uses the services' clock, the pipeline on
 * its own a monotonic one.
 */
import type { Phase, PhaseTimes } from "../domain/media.ts";

export interface PhaseTimer {
  /** One piece of the phase's work begins; pieces may overlap. */
  start(phase: Phase): void;
  /** One piece of the phase's work ends: pairs with a `start`. */
  stop(phase: Phase): void;
  /** Times `work` as one piece of `phase`, however it ends. */
  time<T>(phase: Phase, work: () => Promise<T>): Promise<T>;
  /**
   * Whole milliseconds per phase that has started (one still under way counts up to now) and since the
   * timer was made.
   */
  times(): PhaseTimes;
}

interface PhaseState {
  running: number;
  since: number;
  doneMs: number;
}

export function createPhaseTimer(now: () => number): PhaseTimer {
  const began = now();
  const phases = new Map<Phase, PhaseState>();
  // A wall clock may step back; a duration never goes below 0.
  const elapsed = (from: number) => Math.max(0, now() - from);

  const timer: PhaseTimer = {
    start(phase) {
      const state = phases.get(phase) ?? { running: 0, since: 0, doneMs: 0 };
      if (state.running === 0) state.since = now();
      state.running += 1;
      phases.set(phase, state);
    },
    stop(phase) {
      const state = phases.get(phase);
      if (!state || state.running === 0) throw new Error(`phase ${phase} stopped without being started`);
      state.running -= 1;
      if (state.running === 0) state.doneMs += elapsed(state.since);
    },
    async time(phase, work) {
      timer.start(phase);
      try {
        return await work();
      } finally {
        timer.stop(phase);
      }
    },
    times() {
      const phasesMs: PhaseTimes["phasesMs"] = {};
      for (const [phase, state] of phases) {
        phasesMs[phase] = Math.round(state.doneMs + (state.running > 0 ? elapsed(state.since) : 0));
      }
      return { phasesMs, totalMs: Math.round(elapsed(began)) };
    },
  };
  return timer;
}

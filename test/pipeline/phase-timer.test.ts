import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createPhaseTimer } from "../../src/pipeline/phase-timer.ts";

/** A clock the test moves by hand. */
function manualClock(start = 1_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms), set: (ms: number) => void (now = ms) };
}

describe("phase timer", () => {
  it("times phases one after another, and the whole run", () => {
    const clock = manualClock();
    const timer = createPhaseTimer(clock.now);
    clock.advance(5);
    timer.start("decode");
    clock.advance(120);
    timer.stop("decode");
    timer.start("recognition");
    clock.advance(900);
    timer.stop("recognition");
    clock.advance(10);
    assert.deepEqual(timer.times(), { phasesMs: { decode: 120, recognition: 900 }, totalMs: 1035 });
  });

  it("counts overlapping work of one phase once: the time any of it was under way", () => {
    const clock = manualClock();
    const timer = createPhaseTimer(clock.now);
    timer.start("decode"); // left channel
    clock.advance(100);
    timer.start("decode"); // right channel
    clock.advance(200);
    timer.stop("decode");
    clock.advance(50);
    timer.stop("decode");
    clock.advance(1_000); // nothing decoding
    timer.start("decode");
    clock.advance(30);
    timer.stop("decode");
    assert.equal(timer.times().phasesMs.decode, 380);
  });

  it("counts a phase still under way up to now, and leaves out phases that never ran", () => {
    const clock = manualClock();
    const timer = createPhaseTimer(clock.now);
    timer.start("analysis");
    clock.advance(40);
    assert.deepEqual(timer.times().phasesMs, { analysis: 40 });
    clock.advance(60);
    timer.stop("analysis");
    assert.deepEqual(timer.times().phasesMs, { analysis: 100 });
  });

  it("times async work however it ends", async () => {
    const clock = manualClock();
    const timer = createPhaseTimer(clock.now);
    assert.equal(
      await timer.time("download", async () => {
        clock.advance(70);
        return "key";
      }),
      "key",
    );
    await assert.rejects(
      timer.time("end", async () => {
        clock.advance(25);
        throw new Error("disk full");
      }),
      /disk full/,
    );
    assert.deepEqual(timer.times().phasesMs, { download: 70, end: 25 });
  });

  it("never reports a negative time when the wall clock steps back", () => {
    const clock = manualClock(10_000);
    const timer = createPhaseTimer(clock.now);
    timer.start("recognition");
    clock.set(9_000);
    timer.stop("recognition");
    assert.deepEqual(timer.times(), { phasesMs: { recognition: 0 }, totalMs: 0 });
  });

  it("refuses a stop without a start: a phase's time would be wrong", () => {
    const timer = createPhaseTimer(() => 0);
    assert.throws(() => timer.stop("end"), /end stopped without being started/);
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { estimatedFinish, fastestPlan } from "../../src/pipeline/piece-plan.ts";
import type { Silence } from "../../src/pipeline/silences.ts";

const options = { slots: 2, startupMs: 2_500, minMs: 10_000, maxMs: 60_000 };
const lengths = (plan: { startMs: number; endMs: number }[]) => plan.map((p) => p.endMs - p.startMs);

/** A pause every `every` ms, `pause` ms long, as between sentences. */
function pauses(lengthMs: number, every: number, pause = 700): Silence[] {
  const silences: Silence[] = [];
  for (let end = every; end < lengthMs; end += every) silences.push({ startMs: end - pause, endMs: end });
  return silences;
}

describe("estimatedFinish", () => {
  it("runs pieces in order on the first free worker", () => {
    const pieces = [
      { startMs: 0, endMs: 30_000 },
      { startMs: 30_000, endMs: 40_000 },
      { startMs: 40_000, endMs: 50_000 },
    ];
    assert.equal(estimatedFinish(pieces, 2, 0), 30_000, "the two short pieces share the second worker");
    assert.equal(estimatedFinish(pieces, 1, 1_000), 53_000);
    assert.equal(estimatedFinish(pieces, 2, 1_000), 31_000);
  });
});

describe("fastestPlan", () => {
  it("keeps short audio in one piece", () => {
    assert.deepEqual(fastestPlan(15_000, pauses(15_000, 5_000), options), [{ startMs: 0, endMs: 15_000 }]);
  });

  it("splits a one-minute call evenly over two cores", () => {
    const plan = fastestPlan(60_000, pauses(60_000, 5_000), options);
    assert.deepEqual(lengths(plan), [29_650, 30_350]);
  });

  it("takes more pieces when two cannot be balanced, if that finishes sooner", () => {
    // Pauses every 5 s, but none between 25 s and 41 s: two pieces would be 25 s + 41 s.
    const silences = [5, 10, 15, 20, 25, 41, 46, 51, 56, 61].map((s) => ({
      startMs: s * 1000 - 300,
      endMs: s * 1000 + 300,
    }));
    const two = [
      { startMs: 0, endMs: 25_000 },
      { startMs: 25_000, endMs: 66_000 },
    ];
    const plan = fastestPlan(66_000, silences, options);
    assert.ok(plan.length > 2, JSON.stringify(lengths(plan)));
    assert.ok(
      estimatedFinish(plan, 2, options.startupMs) < estimatedFinish(two, 2, options.startupMs),
      `plan ${JSON.stringify(lengths(plan))} should beat 25 s + 41 s`,
    );
    assert.equal(
      plan.reduce((sum, p) => sum + p.endMs - p.startMs, 0),
      66_000,
      "the pieces cover the audio",
    );
  });

  it("prefers fewer pieces when more would not finish sooner", () => {
    assert.equal(fastestPlan(40_000, pauses(40_000, 2_000), { ...options, slots: 1 }).length, 1);
  });

  it("never plans a piece longer than maxMs", () => {
    const plan = fastestPlan(600_000, pauses(600_000, 7_000), options);
    assert.ok(Math.max(...lengths(plan)) <= 60_000, JSON.stringify(lengths(plan)));
    assert.ok(plan.length >= 10);
  });
});

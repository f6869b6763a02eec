import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  parseSilencedetectLog,
  planSegments,
  type Segment,
  type Silence,
} from "../../src/pipeline/silences.ts";

const SAMPLE_LOG = `Input #0, wav, from 'd.wav':
  Duration: 00:00:13.49, bitrate: 256 kb/s
[silencedetect @ 0x55640a18cec0] silence_start: 4.39062
[silencedetect @ 0x55640a18cec0] silence_end: 6.8165 | silence_duration: 2.42588
[silencedetect @ 0x55640a18cec0] silence_start: 11.2619
[silencedetect @ 0x55640a18cec0] silence_end: 13.485 | silence_duration: 2.22313
size=N/A time=00:00:13.48 bitrate=N/A speed=7.74e+03x
`;

describe("parseSilencedetectLog", () => {
  it("reads start/end pairs in ms", () => {
    assert.deepEqual(parseSilencedetectLog(SAMPLE_LOG), [
      { startMs: 4391, endMs: 6817 },
      { startMs: 11262, endMs: 13485 },
    ]);
  });

  it("clamps a slightly negative start to 0", () => {
    const log = "[silencedetect @ 0x1] silence_start: -0.00125\n[silencedetect @ 0x1] silence_end: 0.5 | ...";
    assert.deepEqual(parseSilencedetectLog(log), [{ startMs: 0, endMs: 500 }]);
  });

  it("closes a silence left open at the end with the length, or drops it without one", () => {
    const log = "[silencedetect @ 0x1] silence_start: 9.5\n";
    assert.deepEqual(parseSilencedetectLog(log, 12000), [{ startMs: 9500, endMs: 12000 }]);
    assert.deepEqual(parseSilencedetectLog(log), []);
  });

  it("finds nothing in a log without silences", () => {
    assert.deepEqual(parseSilencedetectLog("size=N/A time=00:00:03.00 bitrate=N/A\n"), []);
  });
});

/** Checks what every plan must satisfy and returns the cut points. */
function checkPlan(lengthMs: number, plan: Segment[], maxMs: number): number[] {
  assert.ok(plan.length > 0);
  assert.equal(plan[0]?.startMs, 0, "starts at 0");
  assert.equal(plan.at(-1)?.endMs, lengthMs, "ends at the length");
  for (const [i, segment] of plan.entries()) {
    assert.ok(segment.endMs > segment.startMs, `piece ${i} is not empty`);
    assert.ok(segment.endMs - segment.startMs <= maxMs, `piece ${i} is at most maxMs`);
    assert.ok(Number.isInteger(segment.startMs) && Number.isInteger(segment.endMs), "whole ms");
    if (i > 0) assert.equal(segment.startMs, plan[i - 1]?.endMs, `piece ${i} follows without gap or overlap`);
  }
  return plan.slice(1).map((segment) => segment.startMs);
}

const mid = (silence: Silence) => Math.round((silence.startMs + silence.endMs) / 2);

describe("planSegments", () => {
  const options = { targetMs: 20_000, maxMs: 40_000 };

  it("plans nothing for empty audio", () => {
    assert.deepEqual(planSegments(0, [], options), []);
  });

  it("keeps audio of up to ~1.5 targets in one piece rather than leaving a sliver", () => {
    const silences = [{ startMs: 19_000, endMs: 19_600 }];
    assert.deepEqual(planSegments(15_000, silences, options), [{ startMs: 0, endMs: 15_000 }]);
    assert.deepEqual(planSegments(29_000, silences, options), [{ startMs: 0, endMs: 29_000 }]);
  });

  it("cuts in the middle of the silences nearest to even shares", () => {
    const silences = [
      { startMs: 5_000, endMs: 5_400 },
      { startMs: 19_000, endMs: 19_600 },
      { startMs: 31_000, endMs: 31_500 },
      { startMs: 41_000, endMs: 42_000 },
      { startMs: 55_000, endMs: 55_300 },
    ];
    const plan = planSegments(60_000, silences, options);
    assert.deepEqual(checkPlan(60_000, plan, options.maxMs), [19_300, 41_500]);
  });

  it("accepts silences unsorted, overlapping or reaching outside the audio", () => {
    const silences = [
      { startMs: 41_000, endMs: 42_000 },
      { startMs: -500, endMs: 400 },
      { startMs: 19_000, endMs: 19_600 },
      { startMs: 19_100, endMs: 19_500 },
      { startMs: 59_000, endMs: 70_000 },
    ];
    const plan = planSegments(60_000, silences, options);
    assert.deepEqual(checkPlan(60_000, plan, options.maxMs), [19_300, 41_500]);
  });

  it("prefers a far silence to cutting through speech", () => {
    const silences = [{ startMs: 34_000, endMs: 35_000 }];
    const plan = planSegments(50_000, silences, options);
    assert.deepEqual(checkPlan(50_000, plan, options.maxMs), [34_500]);
  });

  it("cuts through speech at even shares only when no silence is within maxMs", () => {
    const plan = planSegments(100_000, [], options);
    assert.deepEqual(checkPlan(100_000, plan, options.maxMs), [20_000, 40_000, 60_000, 80_000]);

    // The silence at 70 s is out of reach of the first two cuts; the third piece ends in it.
    const later = planSegments(100_000, [{ startMs: 69_800, endMs: 70_200 }], options);
    assert.deepEqual(checkPlan(100_000, later, options.maxMs), [20_000, 40_000, 70_000, 85_000]);
  });

  it("never makes a piece longer than maxMs, even when maxMs is close to targetMs", () => {
    const tight = { targetMs: 20_000, maxMs: 21_000 };
    const plan = planSegments(62_000, [], tight);
    assert.deepEqual(checkPlan(62_000, plan, tight.maxMs), [20_666, 41_333]);
    const tighter = { targetMs: 20_000, maxMs: 20_000 };
    const more = planSegments(61_000, [{ startMs: 29_000, endMs: 29_400 }], tighter);
    assert.deepEqual(checkPlan(61_000, more, tighter.maxMs), [15_250, 29_200, 45_100]);
  });

  it("does not leave a sliver at a silence at the very start or end", () => {
    const silences = [
      { startMs: 0, endMs: 800 },
      { startMs: 21_000, endMs: 21_400 },
      { startMs: 44_000, endMs: 45_000 },
    ];
    const plan = planSegments(45_000, silences, options);
    assert.deepEqual(checkPlan(45_000, plan, options.maxMs), [21_200]);
  });

  it("with an infinite target recognises everything in one piece", () => {
    const plan = planSegments(3_600_000, [{ startMs: 1000, endMs: 2000 }], {
      targetMs: Number.POSITIVE_INFINITY,
      maxMs: Number.POSITIVE_INFINITY,
    });
    assert.deepEqual(plan, [{ startMs: 0, endMs: 3_600_000 }]);
  });

  it("rejects nonsensical options", () => {
    assert.throws(() => planSegments(1000, [], { targetMs: 0, maxMs: 10 }), RangeError);
    assert.throws(() => planSegments(1000, [], { targetMs: 100, maxMs: 50 }), RangeError);
    assert.throws(() => planSegments(1000, [], { targetMs: Number.NaN, maxMs: 50 }), RangeError);
  });

  it("holds its guarantees on random silences", () => {
    // A fixed-seed generator so that a failure can be reproduced.
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 500; round++) {
      const lengthMs = Math.round(1_000 + random() * 600_000);
      const targetMs = Math.round(5_000 + random() * 30_000);
      const maxMs = Math.round(targetMs * (1 + random() * 2));
      const silences: Silence[] = [];
      for (let t = random() * 20_000; t < lengthMs; t += 300 + random() * 25_000 * random()) {
        const duration = 300 + random() * 3_000;
        silences.push({ startMs: Math.round(t), endMs: Math.round(Math.min(lengthMs, t + duration)) });
        t += duration;
      }
      const plan = planSegments(lengthMs, silences, { targetMs, maxMs });
      const cuts = checkPlan(lengthMs, plan, maxMs);
      const midpoints = silences.map(mid).filter((m) => m > 0 && m < lengthMs);
      for (const [i, cut] of cuts.entries()) {
        if (midpoints.includes(cut)) continue;
        // A cut through speech is allowed only when no silence lay within reach of the previous cut.
        const from = i === 0 ? 0 : (cuts[i - 1] ?? 0);
        const reachable = midpoints.filter((m) => m > from && m <= from + maxMs);
        assert.deepEqual(reachable, [], `round ${round}: cut ${cut} goes through speech needlessly`);
      }
    }
  });
});

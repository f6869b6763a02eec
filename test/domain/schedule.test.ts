/**
 * The retry schedule as data: how `HARK_CALLBACK_SCHEDULE` is read, and the walk of the default schedule
 * (spec/callbacks.md "Limits", DESIGN.md: 0, 15, 45, 105, 225, 465, 945 minutes, bursts of 3). The
 * shortened schedule walked by real deliveries is in delivery.test.ts.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { outcomeOf } from "../../src/callbacks/deliver.ts";
import {
  DEFAULT_BURST,
  DEFAULT_SCHEDULE_TEXT,
  nextScheduledAttempt,
  parseScheduleOffsets,
  type Schedule,
  scheduledAttemptAt,
} from "../../src/domain/schedule.ts";
import { loadSettings, SettingsError } from "../../src/settings.ts";

const MINUTE = 60_000;
const DEFAULT_OFFSETS = [0, 15, 45, 105, 225, 465, 945].map((minutes) => minutes * MINUTE);

describe("parseScheduleOffsets", () => {
  test("the default text is the spec's table: 0, 15 min, 45 min, 1 h 45, 3 h 45, 7 h 45, 15 h 45", () => {
    assert.deepEqual(parseScheduleOffsets(DEFAULT_SCHEDULE_TEXT), DEFAULT_OFFSETS);
  });

  test("reads the units s, m and h; a bare number is seconds", () => {
    assert.deepEqual(parseScheduleOffsets("0,30s,2m,1h"), [0, 30_000, 120_000, 3_600_000]);
    assert.deepEqual(parseScheduleOffsets("0,1,90"), [0, 1000, 90_000]);
    assert.deepEqual(parseScheduleOffsets("0s,1.5s,0.5m"), [0, 1500, 30_000]);
    assert.deepEqual(parseScheduleOffsets("0"), [0]);
  });

  test("whitespace around offsets and units is ignored", () => {
    assert.deepEqual(parseScheduleOffsets(" 0 , 15 m ,\t45m , 2h "), [
      0,
      15 * MINUTE,
      45 * MINUTE,
      120 * MINUTE,
    ]);
  });

  test("a first offset other than 0 is refused, saying the first try starts at once", () => {
    assert.throws(() => parseScheduleOffsets("5m,10m"), /first offset must be 0/);
    assert.throws(() => parseScheduleOffsets("1s"), /first offset must be 0/);
  });

  test("offsets that do not increase are refused", () => {
    assert.throws(() => parseScheduleOffsets("0,10m,5m"), /offsets must increase/);
    assert.throws(() => parseScheduleOffsets("0,10m,10m"), /offsets must increase/);
    assert.throws(
      () => parseScheduleOffsets("0,60s,1m"),
      /offsets must increase/,
      "60s and 1m are the same time",
    );
    assert.throws(() => parseScheduleOffsets("0,0"), /offsets must increase/);
  });

  test("garbage is refused, quoting the offending part and showing the accepted form", () => {
    for (const [text, part] of [
      ["0,soon", "soon"],
      ["0,15min", "15min"],
      ["0,-5m", "-5m"],
      ["0,,5m", ""],
      ["0;5m", "0;5m"],
      ["", ""],
      ["0,1d", "1d"],
    ]) {
      assert.throws(
        () => parseScheduleOffsets(text as string),
        (error: Error) => {
          assert.equal(error.message, `"${part}" is not an offset like 0, 30s, 15m or 2h`, text);
          return true;
        },
      );
    }
  });
});

describe("the default schedule", () => {
  const schedule: Schedule = { offsetsMs: parseScheduleOffsets(DEFAULT_SCHEDULE_TEXT), burst: DEFAULT_BURST };
  const firstTry = new Date("2024-03-10T22:07:31.250Z");
  const after = (minutes: number) => new Date(firstTry.getTime() + minutes * MINUTE);

  test("scheduled attempts start 0, 15 min, 45 min, 1 h 45, 3 h 45, 7 h 45 and 15 h 45 after the first try", () => {
    const expected = [0, 15, 45, 60 + 45, 3 * 60 + 45, 7 * 60 + 45, 15 * 60 + 45].map(after);
    assert.deepEqual(
      expected.map((_, index) => scheduledAttemptAt(schedule, firstTry, index)),
      expected,
    );
    assert.equal(scheduledAttemptAt(schedule, firstTry, 7), undefined, "there is no eighth");
  });

  test("walking nextScheduledAttempt from the first try visits each attempt once, then is exhausted", () => {
    const walked: { index: number; at: Date }[] = [];
    let index = 0;
    for (let next = nextScheduledAttempt(schedule, firstTry, index); next;) {
      walked.push(next);
      index = next.index;
      next = nextScheduledAttempt(schedule, firstTry, index);
      assert.ok(walked.length < 100, "the walk ends");
    }
    assert.deepEqual(walked, [
      { index: 1, at: after(15) },
      { index: 2, at: after(45) },
      { index: 3, at: after(105) },
      { index: 4, at: after(225) },
      { index: 5, at: after(465) },
      { index: 6, at: after(945) },
    ]);
    assert.equal(nextScheduledAttempt(schedule, firstTry, 6), undefined, "after the seventh: exhausted");
  });

  test("each time depends only on the first try and the index, not on when the last burst ran", () => {
    assert.deepEqual(nextScheduledAttempt(schedule, firstTry, 2), { index: 3, at: after(105) });
    const otherFirstTry = new Date(firstTry.getTime() + 1);
    assert.equal(scheduledAttemptAt(schedule, otherFirstTry, 3)?.getTime(), after(105).getTime() + 1);
  });

  test("7 scheduled attempts of 3 tries: 21 tries at most", () => {
    assert.equal(schedule.offsetsMs.length, 7);
    assert.equal(schedule.burst, 3);
    assert.equal(schedule.offsetsMs.length * schedule.burst, 21);
  });
});

describe("a receiver's Retry-After", () => {
  const schedule: Schedule = { offsetsMs: parseScheduleOffsets(DEFAULT_SCHEDULE_TEXT), burst: DEFAULT_BURST };
  const firstTry = new Date("2024-03-10T22:07:31.250Z");
  const after = (minutes: number) => new Date(firstTry.getTime() + minutes * MINUTE);

  test("a wait shorter than the schedule's changes nothing", () => {
    assert.deepEqual(nextScheduledAttempt(schedule, firstTry, 0, after(5)), { index: 1, at: after(15) });
  });

  test("a longer wait skips the scheduled attempts that come before it, and never adds one", () => {
    assert.deepEqual(nextScheduledAttempt(schedule, firstTry, 0, after(100)), { index: 3, at: after(105) });
    assert.deepEqual(nextScheduledAttempt(schedule, firstTry, 1, after(45)), { index: 2, at: after(45) });
    assert.equal(
      nextScheduledAttempt(schedule, firstTry, 2, after(24 * 60)),
      undefined,
      "past the last: exhausted",
    );
  });
});

describe("schedule settings", () => {
  /** Asserts that `env` is refused with a SettingsError whose message names `variable`. */
  function assertRefused(env: Record<string, string>, variable: string, says?: RegExp): void {
    assert.throws(
      () => loadSettings(env),
      (error: unknown) => {
        assert.ok(error instanceof SettingsError, `expected a SettingsError, got ${String(error)}`);
        assert.match(error.message, new RegExp(`\\b${variable}\\b`));
        if (says) assert.match(error.message, says);
        return true;
      },
    );
  }

  test("an empty environment gives the default schedule and bursts of 3", () => {
    const settings = loadSettings({});
    assert.deepEqual(settings.callbackScheduleMs, DEFAULT_OFFSETS);
    assert.equal(settings.callbackBurst, 3);
  });

  test("a bad HARK_CALLBACK_SCHEDULE stops the start, naming the variable and the fault", () => {
    assertRefused({ HARK_CALLBACK_SCHEDULE: "5m,10m" }, "HARK_CALLBACK_SCHEDULE", /first offset must be 0/);
    assertRefused({ HARK_CALLBACK_SCHEDULE: "0,10m,5m" }, "HARK_CALLBACK_SCHEDULE", /must increase/);
    assertRefused({ HARK_CALLBACK_SCHEDULE: "0,soon" }, "HARK_CALLBACK_SCHEDULE", /"soon"/);
  });

  test("a bad HARK_CALLBACK_BURST stops the start, naming the variable", () => {
    for (const burst of ["0", "21", "three", "2.5", "-1"]) {
      assertRefused({ HARK_CALLBACK_BURST: burst }, "HARK_CALLBACK_BURST");
    }
    assert.equal(loadSettings({ HARK_CALLBACK_BURST: "1" }).callbackBurst, 1);
  });
});

describe("where a burst leaves a delivery", () => {
  const schedule: Schedule = { offsetsMs: [0, 60_000, 120_000], burst: 3 };
  const delivery = { firstTryAt: new Date("2025-01-01T00:00:00Z"), scheduledAttempt: 0 };
  const now = new Date("2025-01-01T00:00:05Z");

  test("success ends it; a failure goes on to the next scheduled attempt", () => {
    assert.deepEqual(outcomeOf(schedule, delivery, { succeeded: true }, now), {
      state: "succeeded",
      at: now,
    });
    assert.deepEqual(outcomeOf(schedule, delivery, { succeeded: false, statusCode: 500 }, now), {
      state: "will-retry",
      nextIndex: 1,
      nextAt: new Date("2025-01-01T00:01:00Z"),
    });
  });

  test("410 Gone ends it whatever is left of the schedule", () => {
    assert.deepEqual(outcomeOf(schedule, delivery, { succeeded: false, statusCode: 410 }, now), {
      state: "exhausted",
      at: now,
    });
  });

  test("Retry-After picks the first scheduled attempt after the wait, or none", () => {
    const waiting = (seconds: number) => ({
      succeeded: false,
      statusCode: 503,
      retryAfterMs: seconds * 1000,
    });
    assert.deepEqual(outcomeOf(schedule, delivery, waiting(90), now), {
      state: "will-retry",
      nextIndex: 2,
      nextAt: new Date("2025-01-01T00:02:00Z"),
    });
    assert.deepEqual(outcomeOf(schedule, delivery, waiting(3600), now), { state: "exhausted", at: now });
  });
});

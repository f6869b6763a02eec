/** The per-account request limit's decision: how many fit in the window, and how long to wait. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { allowance } from "../../src/store/account-limits.ts";

const now = new Date("2026-11-23T12:00:00Z");
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);

describe("allowance", () => {
  test("fits while fewer than the limit are in the window", () => {
    assert.deepEqual(allowance([ago(1), ago(2)], 3, now, 60_000), { allowed: true });
    assert.deepEqual(allowance([ago(1), ago(2), ago(61)], 3, now, 60_000), { allowed: true });
  });

  test("refused at the limit, until the oldest counted request leaves the window", () => {
    assert.deepEqual(allowance([ago(1), ago(10), ago(45)], 3, now, 60_000), {
      allowed: false,
      retryAfterMs: 15_000,
    });
  });

  test("a refusal asks to wait at least a second", () => {
    assert.deepEqual(allowance([ago(59.9)], 1, now, 60_000), { allowed: false, retryAfterMs: 1000 });
  });
});

import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { allOrAbort, createLimiter } from "../../src/pipeline/pool.ts";

describe("createLimiter", () => {
  it("never runs more than `concurrency` tasks and starts them in order", async () => {
    const limiter = createLimiter(2);
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    const results = await Promise.all(
      [30, 10, 20, 5, 15].map((ms, i) =>
        limiter.run(async () => {
          started.push(i);
          running++;
          peak = Math.max(peak, running);
          await sleep(ms);
          running--;
          return i;
        }),
      ),
    );
    assert.deepEqual(results, [0, 1, 2, 3, 4]);
    assert.deepEqual(started, [0, 1, 2, 3, 4]);
    assert.equal(peak, 2);
  });

  it("frees the slot of a failed task", async () => {
    const limiter = createLimiter(1);
    await assert.rejects(
      limiter.run(() => Promise.reject(new Error("boom"))),
      /boom/,
    );
    assert.equal(await limiter.run(async () => "next"), "next");
  });

  it("rejects a concurrency that is not a positive integer", () => {
    assert.throws(() => createLimiter(0), RangeError);
    assert.throws(() => createLimiter(1.5), RangeError);
  });
});

describe("allOrAbort", () => {
  it("returns results in task order", async () => {
    const results = await allOrAbort([async () => 1, async () => (await sleep(5), 2), async () => 3]);
    assert.deepEqual(results, [1, 2, 3]);
  });

  it("aborts the other tasks on the first failure and waits for them before rejecting", async () => {
    let otherSettled = false;
    const failing = async () => {
      await sleep(5);
      throw new Error("first");
    };
    const other = async (signal: AbortSignal) => {
      try {
        await sleep(10_000, undefined, { signal });
      } finally {
        await sleep(5);
        otherSettled = true;
      }
    };
    await assert.rejects(allOrAbort([failing, other]), /first/);
    assert.equal(otherSettled, true);
  });

  it("does not start tasks once aborted by the parent signal", async () => {
    const controller = new AbortController();
    controller.abort(new Error("cancelled"));
    let started = false;
    await assert.rejects(
      allOrAbort(
        [
          async () => {
            started = true;
          },
        ],
        controller.signal,
      ),
      /cancelled/,
    );
    assert.equal(started, false);
  });
});

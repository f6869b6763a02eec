import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { batcher } from "../../src/store/batcher.ts";

describe("batcher", () => {
  it("writes at once when idle, and what arrives during a write in the next one", async () => {
    const writes: number[][] = [];
    let release: (() => void) | undefined;
    const batches = batcher<number>(10, async (items) => {
      writes.push(items);
      if (writes.length === 1) await new Promise<void>((resolve) => (release = resolve));
    });
    const first = batches.add(1);
    const waiting = [2, 3, 4].map((n) => batches.add(n));
    assert.deepEqual(writes, [[1]], "the first item did not wait for company");
    release?.();
    await Promise.all([first, ...waiting]);
    assert.deepEqual(writes, [[1], [2, 3, 4]]);
  });

  it("never writes more than max items at once", async () => {
    const writes: number[][] = [];
    const batches = batcher<number>(2, async (items) => {
      writes.push(items);
    });
    await Promise.all([1, 2, 3, 4, 5].map((n) => batches.add(n)));
    assert.deepEqual(writes, [[1], [2, 3], [4, 5]]);
  });

  it("rejects the items of a failed write, and goes on with the next", async () => {
    let calls = 0;
    const batches = batcher<string>(10, async () => {
      calls++;
      if (calls === 1) throw new Error("database gone");
    });
    const failed = batches.add("a");
    const later = batches.add("b");
    await assert.rejects(failed, /database gone/);
    await later;
    assert.equal(calls, 2);
  });
});

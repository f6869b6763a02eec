/**
 * How an account's waiting process jobs are dealt their items: highest priority first, upload order among
 * equals, over the same jobs (the account's places in the queue).
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { dealt, type WaitingJob } from "../../src/store/process-job-order.ts";

const job = (id: string, mediaId: string, priority?: "low" | "normal" | "high"): WaitingJob => ({
  id,
  data: { mediaId, ...(priority && { priority }) },
});

describe("dealt", () => {
  test("a high item takes the account's earliest waiting job; the others move one job back", () => {
    const waiting = [job("j1", "n1", "normal"), job("j2", "n2", "normal"), job("j3", "h", "high")];
    assert.deepEqual(dealt(waiting), [
      { id: "j1", data: { mediaId: "h", priority: "high" } },
      { id: "j2", data: { mediaId: "n1", priority: "normal" } },
      { id: "j3", data: { mediaId: "n2", priority: "normal" } },
    ]);
  });

  test("equal priorities keep upload order, and nothing changes when the order is right", () => {
    const waiting = [
      job("j1", "h1", "high"),
      job("j2", "n1"),
      job("j3", "n2", "normal"),
      job("j4", "l", "low"),
    ];
    assert.deepEqual(dealt(waiting), []);
  });

  test("low items go after normal ones; a payload without priority (an earlier release's) is normal", () => {
    const waiting = [job("j1", "l", "low"), job("j2", "old")];
    assert.deepEqual(dealt(waiting), [
      { id: "j1", data: { mediaId: "old" } },
      { id: "j2", data: { mediaId: "l", priority: "low" } },
    ]);
  });
});

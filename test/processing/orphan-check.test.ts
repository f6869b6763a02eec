/**
 * Media left without a job: `running` (or `accepted`) items whose pg-boss job failed for good or was
 * deleted are ended `failed` by the periodic check, with Hark's error and their callbacks; an item whose
 * job waits for its next attempt (`retry`) is left to it; two checks at once end an item once.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { endOrphanedMedia } from "../../src/processing/orphan-check.ts";
import { startWorkers } from "../../src/server.ts";
import type { Stoppable } from "../../src/services.ts";
import { JOB_SCHEMA } from "../../src/store/job-queue.ts";
import { spokenFile } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

describe("the check for media left without a job", () => {
  let hark: TestHark;
  let receiver: Receiver;
  let audio: { file: string; cleanup: () => Promise<void> };
  let workers: Stoppable | undefined;
  let token: string;

  before(async () => {
    audio = await spokenFile("please cancel my order");
    receiver = await startReceiver();
    // No workers at first: the items stay as the tests leave them until the check runs.
    hark = await startTestHark({
      HARK_CALLBACK_ALLOW_HTTP: "true",
      HARK_CALLBACK_ALLOW_PRIVATE: "true",
      HARK_SWEEP_INTERVAL_SECONDS: "1",
    });
    token = await hark.createAccount();
  });
  after(async () => {
    await workers?.stop();
    await hark?.close();
    await receiver?.close();
    await audio?.cleanup();
  });

  /** An upload left `running` with its job in `jobState` (or its job deleted). */
  async function orphan(name: string, jobState: "deleted" | "failed" | "retry"): Promise<string> {
    const response = await hark.upload(token, {
      media: audio.file,
      configuration: { publish: { callbacks: [{ url: `${receiver.url}/${name}` }] } },
    });
    assert.equal(response.statusCode, 200, response.body);
    const mediaId = response.json().mediaId as string;
    const { db } = hark.services;
    await db.query("update media set status = 'running', process_open = true where media_id = $1", [mediaId]);
    const job = `${JOB_SCHEMA}.job where data->>'mediaId' = $1`;
    if (jobState === "deleted") await db.query(`delete from ${job}`, [mediaId]);
    // `retry` as a hand-back leaves it, due a while later; `failed` as pg-boss leaves a job out of retries.
    else if (jobState === "retry")
      await db.query(
        `update ${job.replace(" where", " set state = 'retry', start_after = now() + interval '1 hour' where")}`,
        [mediaId],
      );
    else
      await db.query(`update ${job.replace(" where", " set state = 'failed', completed_on = now() where")}`, [
        mediaId,
      ]);
    return mediaId;
  }

  async function document(mediaId: string) {
    return (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json() as {
      status: string;
      errors?: { code: number; error: string }[];
      callbacks: { state: string }[];
    };
  }

  test("two checks at once end an orphaned item once, and leave one waiting for its retry", async () => {
    const orphaned = await orphan("twice", "deleted");
    const waiting = await orphan("waiting", "retry");
    const [first, second] = await Promise.all([
      endOrphanedMedia(hark.services),
      endOrphanedMedia(hark.services),
    ]);
    assert.deepEqual([...first, ...second], [orphaned], "ended by one of the two");
    const ended = await document(orphaned);
    assert.equal(ended.status, "failed");
    assert.equal(ended.errors?.[0]?.code, 11999);
    assert.deepEqual(
      ended.callbacks.map((callback) => callback.state),
      ["pending"],
      "one callback, owed once",
    );
    assert.equal((await document(waiting)).status, "running", "a job in retry is live");
  });

  test("the periodic check ends items whose job was deleted or failed for good, and their callbacks arrive", async () => {
    const deleted = await orphan("deleted", "deleted");
    const failed = await orphan("failed", "failed");
    workers = await startWorkers(hark.services);
    for (const [name, mediaId] of [
      ["deleted", deleted],
      ["failed", failed],
    ] as const) {
      assert.equal(await hark.ended(mediaId), "failed");
      const body = JSON.parse((await receiver.next(`/${name}`)).body.toString()) as {
        mediaId: string;
        status: string;
        errors: { code: number }[];
      };
      assert.deepEqual([body.mediaId, body.status, body.errors[0]?.code], [mediaId, "failed", 11999]);
    }
    // The callbacks of the first test's item go out once, now that a dispatcher runs.
    const twice = JSON.parse((await receiver.next("/twice")).body.toString()) as { status: string };
    assert.equal(twice.status, "failed");
    assert.equal(receiver.received.filter((request) => request.path === "/twice").length, 1);
  });
});

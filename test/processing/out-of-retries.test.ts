/**
 * An item out of retries ends `failed` with Hark's error for a fault on our side (11999) and its callback
 * goes out: after `retryLimit` retries of a fault that is not the media's, and at the claim after more
 * crashes of its process than `crashLimit`. Neither leaves it `running`.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { processMedia } from "../../src/processing/process-media.ts";
import type { Recognizer } from "../../src/pipeline/recognizer.ts";
import { startWorkers } from "../../src/server.ts";
import type { Stoppable } from "../../src/services.ts";
import { processQueueOptions } from "../../src/store/job-queue.ts";
import { spokenFile } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

describe("an item out of retries", () => {
  let hark: TestHark;
  let receiver: Receiver;
  let audio: { file: string; cleanup: () => Promise<void> };
  let workers: Stoppable | undefined;
  let token: string;

  before(async () => {
    audio = await spokenFile("please cancel my order");
    receiver = await startReceiver();
    hark = await startTestHark({ HARK_CALLBACK_ALLOW_HTTP: "true", HARK_CALLBACK_ALLOW_PRIVATE: "true" });
    token = await hark.createAccount();
  });
  after(async () => {
    await workers?.stop();
    await hark?.close();
    await receiver?.close();
    await audio?.cleanup();
  });

  async function upload(name: string): Promise<string> {
    const response = await hark.upload(token, {
      media: audio.file,
      configuration: { publish: { callbacks: [{ url: `${receiver.url}/${name}` }] } },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().mediaId as string;
  }

  async function failedCallback(name: string, mediaId: string): Promise<void> {
    const body = JSON.parse((await receiver.next(`/${name}`)).body.toString()) as {
      mediaId: string;
      status: string;
      errors: { code: number }[];
    };
    assert.deepEqual([body.mediaId, body.status, body.errors[0]?.code], [mediaId, "failed", 11999]);
  }

  // Runs first, with no workers: the item stays as the test leaves it.
  let crashed = "";
  test("a claim after more crashes than allowed ends the item without trying again", async () => {
    const mediaId = await upload("crashed");
    // As the last crash leaves it: running, its attempt still open, the allowance used up.
    await hark.services.db.query(
      "update media set status = 'running', process_open = true, process_crashes = $2 where media_id = $1",
      [mediaId, processQueueOptions.crashLimit],
    );
    await processMedia(hark.services, mediaId, { retryCount: 7 });
    assert.equal(await hark.ended(mediaId), "failed");
    crashed = mediaId;
  });
  test("a fault on our side every time: retried, then failed with its callback", async () => {
    let calls = 0;
    const failing: Recognizer = {
      recognize: () => {
        calls++;
        return Promise.reject(new Error("the recogniser's model went missing"));
      },
    };
    const mediaId = await upload("faulty");
    workers = await startWorkers({ ...hark.services, recognizer: failing });
    assert.equal(await hark.ended(mediaId), "failed");
    await failedCallback("faulty", mediaId);
    // The first test's item, ended with no dispatcher running: its callback goes out now.
    await failedCallback("crashed", crashed);
    const { rows } = await hark.services.db.query<{ process_failures: number }>(
      "select process_failures from media where media_id = $1",
      [mediaId],
    );
    assert.equal(rows[0]?.process_failures, processQueueOptions.retryLimit, "each retry was counted");
    assert.ok(calls >= processQueueOptions.retryLimit + 1, `the recogniser was tried ${calls} times`);
  });
});

/**
 * A process told to stop hands its running callback bursts back: it lets them run for
 * `HARK_STOP_TIMEOUT`, lets the try under way end, records it, and makes the delivery due at once, so
 * another dispatcher takes it over without waiting for the claim to lapse.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { claimMs } from "../../src/callbacks/deliver.ts";
import { startDispatcher } from "../../src/callbacks/dispatcher.ts";
import { startWorkers } from "../../src/server.ts";
import type { Stoppable } from "../../src/services.ts";
import { spokenFile } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import { within } from "../support/within.ts";

describe("stopping while a callback burst runs", () => {
  let hark: TestHark;
  let receiver: Receiver;
  let audio: { file: string; cleanup: () => Promise<void> };
  let takeOver: Stoppable | undefined;

  before(async () => {
    audio = await spokenFile("please cancel my order");
    receiver = await startReceiver();
    hark = await startTestHark({
      HARK_CALLBACK_ALLOW_HTTP: "true",
      HARK_CALLBACK_ALLOW_PRIVATE: "true",
      HARK_CALLBACK_BURST: "3",
      HARK_CALLBACK_TIMEOUT: "10",
      HARK_STOP_TIMEOUT: "1",
    });
  });
  after(async () => {
    await takeOver?.stop();
    await hark?.close();
    await receiver?.close();
    await audio?.cleanup();
  });

  test("the burst is handed back after the try under way, and another dispatcher goes on at once", async () => {
    // The first try outlasts the stop timeout, and fails; the take-over's try succeeds.
    receiver.answer("/slow", [{ status: 500, delayMs: 2500 }, { status: 200 }]);
    const workers = await startWorkers(hark.services);
    const token = await hark.createAccount();
    const response = await hark.upload(token, {
      media: audio.file,
      configuration: { publish: { callbacks: [{ url: `${receiver.url}/slow` }] } },
    });
    const mediaId = response.json().mediaId as string;
    const firstTry = await receiver.next("/slow");
    // While a burst runs, its delivery falls due again when the claim on it lapses.
    const claimed = await hark.services.db.query<{ due_at: Date }>(
      "select due_at from deliveries where media_id = $1",
      [mediaId],
    );
    const claimLapsesAt = (claimed.rows[0] as { due_at: Date }).due_at;

    await workers.stop();
    const { rows } = await hark.services.db.query<{ state: string; claim: string | null; due: boolean }>(
      "select state, claim, due_at <= now() as due from deliveries where media_id = $1",
      [mediaId],
    );
    assert.deepEqual(rows, [{ state: "trying", claim: null, due: true }], "handed back, due now");
    const attempts = await hark.services.db.query<{ status_code: number }>(
      "select a.status_code from delivery_attempts a join deliveries d using (delivery_id) where d.media_id = $1",
      [mediaId],
    );
    assert.deepEqual(
      attempts.rows.map((row) => row.status_code),
      [500],
      "the try under way was recorded, and no further try made",
    );

    // The take-over's clock stands still just before the claim lapses: it can take the delivery only if the
    // stop handed it back, never by waiting the claim out.
    const beforeLapse = { now: () => new Date(claimLapsesAt.getTime() - 1) };
    takeOver = startDispatcher({ ...hark.services, clock: beforeLapse }, 5);
    const retried = await within(
      receiver.next("/slow"),
      claimMs(hark.services.settings),
      "taken over before the claim lapsed",
    );
    assert.equal(retried.headers["webhook-id"], firstTry.headers["webhook-id"], "the same delivery");
  });
});

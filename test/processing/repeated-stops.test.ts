/**
 * Deploys and crashes during one long call: the whole service is stopped (SIGTERM) or killed with its
 * PostgreSQL (SIGKILL of the process group) three times while the same item is being transcribed, and
 * started again on the same data directory each time. A stop hands the job back without costing the item
 * one of its retries; a crash costs one of its crash allowance (see store/job-queue.ts). Either way the
 * item ends, here `finished`, and its callback reaches a real receiver: it never stays `running`.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { processQueueOptions, SUPERVISE_INTERVAL_SECONDS } from "../../src/store/job-queue.ts";
import { buildSpeech, tempDir } from "../pipeline/speech.ts";
import { createAccountOver, uploadOver } from "../support/http-client.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";
import {
  dataDir,
  type Running,
  running,
  STOP_SECONDS,
  startMain,
  stopAllProcesses,
} from "../support/service-process.ts";
import { within } from "../support/within.ts";

const ADMIN = "repeated-stops-admin-token-0123456789";
/** A job claimed by a killed process runs again once its heartbeat has lapsed and supervision saw it. */
const PICKUP_BOUND_MS = (processQueueOptions.heartbeatSeconds + SUPERVISE_INTERVAL_SECONDS + 60) * 1000;
const STOPS = 3;

after(stopAllProcesses);

describe("three stops during one item's processing", () => {
  let receiver: Receiver;
  let audio: { dir: string; cleanup: () => Promise<void> };
  let long: string;
  before(async () => {
    receiver = await startReceiver();
    audio = await tempDir();
    long = path.join(audio.dir, "long.wav");
    // Long enough that each stop, as soon as processing has started, lands while it is being transcribed
    // (longer than HARK_STOP_TIMEOUT below).
    const sentence = "please cancel my subscription and send the refund to my card";
    await buildSpeech(Array.from({ length: 6 }, () => [{ text: sentence }, { silenceMs: 500 }]).flat(), long);
  });
  after(async () => {
    await receiver?.close();
    await audio?.cleanup();
  });

  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    test(`${STOPS} × ${signal} while it is transcribed: the item still finishes and its callback arrives`, async () => {
      const dir = await dataDir();
      const env = {
        HARK_DATA_DIR: dir,
        PORT: "0",
        HARK_ADMIN_TOKEN: ADMIN,
        HARK_LOG_LEVEL: "info",
        HARK_STOP_TIMEOUT: "1",
        HARK_RECOGNIZER_CONCURRENCY: "1",
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
      };
      let hark: Running = startMain(env);
      const address = await running(hark);
      const token = await createAccountOver(address, ADMIN, `stops-${signal}`);
      const callbackPath = `/${signal}/analytics`;
      const mediaId = await uploadOver(address, token, long, {
        publish: { callbacks: [{ url: `${receiver.url}${callbackPath}` }] },
      });

      for (let stop = 1; stop <= STOPS; stop++) {
        await within(
          hark.logLine((line) => line.msg === "processing started" && line.mediaId === mediaId),
          PICKUP_BOUND_MS,
          `processing started before stop ${stop}`,
        );
        if (signal === "SIGTERM") {
          hark.child.kill("SIGTERM");
          assert.deepEqual(await hark.exit(STOP_SECONDS), { code: 0, signal: null }, hark.output());
        } else {
          // A power cut: Hark and its PostgreSQL at once.
          process.kill(-(hark.child.pid as number), "SIGKILL");
          await hark.exit(STOP_SECONDS);
        }
        assert.ok(
          !hark.output().includes('"msg":"processing ended"'),
          `stop ${stop} came while processing ran: ${hark.output()}`,
        );
        hark = startMain(env);
        await running(hark);
      }

      // The item's own counts: a stop's hand-back cost it nothing, each crash one of its allowance.
      const last = await within(
        hark.logLine((line) => line.msg === "processing started" && line.mediaId === mediaId),
        PICKUP_BOUND_MS,
        () => `processing started after the last restart: ${hark.output()}`,
      );
      assert.deepEqual(
        [last.failures, last.crashes],
        [0, signal === "SIGKILL" ? STOPS : 0],
        "what the earlier attempts cost the item",
      );
      const ended = await within(
        hark.logLine((line) => line.msg === "processing ended" && line.mediaId === mediaId),
        PICKUP_BOUND_MS,
        () => `processing after the last restart: ${hark.output()}`,
      );
      assert.equal(ended.status, "finished");
      const callback = JSON.parse((await receiver.next(callbackPath)).body.toString()) as {
        mediaId: string;
        status: string;
      };
      assert.deepEqual([callback.mediaId, callback.status], [mediaId, "finished"]);

      hark.child.kill("SIGTERM");
      assert.equal((await hark.exit(STOP_SECONDS)).code, 0, hark.output());
    });
  }
});

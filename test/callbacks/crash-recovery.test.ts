/**
 * Power cut in the middle of callback delivery: the whole service (Hark and its embedded PostgreSQL) is
 * killed with SIGKILL while callbacks are being tried, or while the upload is still being processed.
 * After a restart on the same data directory no callback is lost: every one arrives and succeeds, with
 * the `webhook-id` and the body bytes it had before the kill, and a scheduled attempt keeps its time
 * (it is counted from the first try, not from the restart).
 *
 * Case 1 cuts two kinds of delivery at once: analytics and srt callbacks whose first try was answered 503
 * (the kill lands between bursts: their next scheduled attempt is queued), and a media callback whose
 * first try is still waiting for its answer (the kill lands mid-burst: it is claimed by a dead process
 * and comes back only when the claim lapses, `claimMs`; that wait dominates the runtime).
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { claimMs } from "../../src/callbacks/deliver.ts";
import { POLL_MS } from "../../src/callbacks/dispatcher.ts";
import { loadSettings } from "../../src/settings.ts";
import { processQueueOptions, SUPERVISE_INTERVAL_SECONDS } from "../../src/store/job-queue.ts";
import { buildSpeech, tempDir } from "../pipeline/speech.ts";
import { createAccountOver, uploadOver } from "../support/http-client.ts";
import { type Received, type Receiver, startReceiver } from "../support/receiver.ts";
import {
  dataDir,
  postgresOf,
  type Running,
  running,
  STOP_SECONDS,
  startMain,
  stopAllProcesses,
} from "../support/service-process.ts";
import { within } from "../support/within.ts";

const ADMIN = "callback-crash-admin-token-0123456789";
const SCHEDULE_OFFSETS_MS = [0, 3000, 6000, 9000];
const CALLBACK_ENV = {
  HARK_CALLBACK_ALLOW_HTTP: "true",
  HARK_CALLBACK_ALLOW_PRIVATE: "true",
  HARK_CALLBACK_SCHEDULE: "0,3s,6s,9s",
  HARK_CALLBACK_BURST: "1",
  // The media callback's first try is held by the receiver and waits this long (10 s) for its answer:
  // the cut, a moment after the other first tries are answered, lands while it waits, however busy the
  // machine. (At 2 s, a busy machine once took longer than that to cut, and the burst was not cut.)
  HARK_CALLBACK_TIMEOUT: "10",
  HARK_ADMIN_TOKEN: ADMIN,
  PORT: "0",
  // Debug: every burst's end is logged, and the test waits for those lines.
  HARK_LOG_LEVEL: "debug",
};
const settings = loadSettings(CALLBACK_ENV);
/**
 * After the restart: a delivery claimed by the killed process runs again once its claim has lapsed; one
 * waiting for its next scheduled attempt runs at its time.
 */
const DELIVERY_BOUND_MS = claimMs(settings) + POLL_MS + 30_000 + (SCHEDULE_OFFSETS_MS.at(-1) ?? 0);
/** A processing job claimed by the killed process runs again once its heartbeat has lapsed. */
const PROCESS_BOUND_MS = (processQueueOptions.heartbeatSeconds + SUPERVISE_INTERVAL_SECONDS + 60) * 1000;

const PATHS = ["/analytics", "/srt", "/media"] as const;

after(stopAllProcesses);

interface CallbackState {
  deliveryId: string;
  url: string;
  state: string;
  attempts: number;
  nextAttemptDate?: string;
}

function configurationFor(receiver: Receiver) {
  return {
    publish: {
      callbacks: [
        { url: `${receiver.url}/analytics` },
        { url: `${receiver.url}/srt`, type: "transcript", format: "srt" },
        { url: `${receiver.url}/media`, type: "media" },
      ],
    },
  };
}

/** Resolves when `hark` logs that a burst of each of `deliveryIds` ended in `state` (any, if not given). */
function burstsEnded(hark: Running, deliveryIds: readonly string[], state?: string): Promise<unknown> {
  return Promise.all(
    deliveryIds.map((deliveryId) =>
      hark.logLine(
        (line) =>
          line.msg === "delivery burst ended" &&
          line.deliveryId === deliveryId &&
          (state === undefined || line.state === state),
      ),
    ),
  );
}

/** The callbacks of `mediaId` once `hark` has recorded every one of them as succeeded. */
async function allSucceeded(hark: Running, address: string, token: string, mediaId: string) {
  const ids = (await callbacksOf(address, token, mediaId)).map((c) => c.deliveryId);
  await within(
    burstsEnded(hark, ids, "succeeded"),
    DELIVERY_BOUND_MS,
    "every delivery recorded as succeeded",
  );
  const callbacks = await callbacksOf(address, token, mediaId);
  assert.deepEqual(
    callbacks.map((c) => c.state),
    ids.map(() => "succeeded"),
  );
  return callbacks;
}

async function callbacksOf(address: string, token: string, mediaId: string): Promise<CallbackState[]> {
  const response = await fetch(`${address}/v3/media/${mediaId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(response.status, 200);
  return ((await response.json()) as { callbacks: CallbackState[] }).callbacks;
}

/** SIGKILL to Hark's process group (Hark and PostgreSQL), as a power cut would. */
async function powerCut(hark: Running, dir: string): Promise<void> {
  assert.ok((await postgresOf(dir)).length > 0, "PostgreSQL runs before the cut");
  process.kill(-(hark.child.pid as number), "SIGKILL");
  assert.equal((await hark.exit(10)).signal, "SIGKILL");
  assert.deepEqual(await postgresOf(dir), [], "the power cut took PostgreSQL down too");
}

function requestsTo(receiver: Receiver, path: string): Received[] {
  return receiver.received.filter((r) => r.path === path);
}

/** Every try of a callback: one `webhook-id` (the delivery's), the same bytes. */
function assertSameDelivery(tries: Received[], deliveryId: string, what: string): void {
  assert.ok(tries.length > 0, `${what} arrived`);
  const first = tries[0] as Received;
  for (const [index, tried] of tries.entries()) {
    assert.equal(tried.headers["webhook-id"], deliveryId, `${what} try ${index}: the delivery's webhook-id`);
    assert.ok(tried.body.equals(first.body), `${what} try ${index}: the same body bytes as the first`);
    assert.equal(tried.headers["content-type"], first.headers["content-type"], `${what} try ${index}`);
  }
}

describe("callbacks survive a SIGKILL of the whole service", { concurrency: 2 }, () => {
  let audio: { dir: string; cleanup: () => Promise<void> };
  let shortFile: string;
  let longFile: string;
  before(async () => {
    audio = await tempDir();
    shortFile = path.join(audio.dir, "short.wav");
    await buildSpeech([{ text: "please cancel my order" }], shortFile);
    longFile = path.join(audio.dir, "long.wav");
    const sentence = "please cancel my subscription and send the refund to my card";
    // Long enough that the kill, as soon as processing has started, lands while it is being transcribed
    // (a few seconds of work), and no longer: it is transcribed again after the restart.
    await buildSpeech(
      Array.from({ length: 3 }, () => [{ text: sentence }, { silenceMs: 500 }]).flat(),
      longFile,
    );
  });
  after(() => audio?.cleanup());

  test("mid-delivery: every callback arrives after the restart, same id, same bytes, on schedule", async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    receiver.answer("/analytics", { status: 503, body: "down for maintenance" });
    receiver.answer("/srt", { status: 503, body: "down for maintenance" });
    // Held past the kill: the media callback's burst is cut while its first try waits for an answer.
    receiver.answer("/media", { status: 503, delayMs: 60_000 });

    const dir = await dataDir();
    const env = { ...CALLBACK_ENV, HARK_DATA_DIR: dir };
    const first = startMain(env);
    const address = await running(first);
    const token = await createAccountOver(address, ADMIN, "callback-crash");
    const mediaId = await uploadOver(address, token, shortFile, configurationFor(receiver));

    const firstTries = await within(
      Promise.all(PATHS.map((p) => receiver.next(p))),
      PROCESS_BOUND_MS,
      "the first try of every callback",
    );
    // The analytics and srt bursts end (503) and queue their next scheduled attempt; the media try is
    // still in flight, until the callback timeout.
    const ids = (await callbacksOf(address, token, mediaId)).map((c) => c.deliveryId);
    await within(
      burstsEnded(first, ids.slice(0, 2)),
      claimMs(settings),
      "the analytics and srt bursts ending",
    );
    const states = await callbacksOf(address, token, mediaId);
    assert.deepEqual(
      states.map((c) => c.state),
      ["will-retry", "will-retry", "trying"],
      "the analytics and srt callbacks wait for their next scheduled attempt; the media try is in flight",
    );
    await powerCut(first, dir);
    const cutAt = Date.now();
    assert.ok(
      !first.output().includes(`"deliveryId":"${ids[2]}"`),
      "the media burst was still running at the cut: it never ended",
    );
    assert.deepEqual(
      PATHS.map((p) => requestsTo(receiver, p).length),
      [1, 1, 1],
      "one try of each before the cut",
    );

    for (const p of PATHS) receiver.answer(p, { status: 200, body: "ok" });
    const second = startMain(env);
    const restarted = await running(second);
    const restartedAt = Date.now();

    const retries = await within(
      Promise.all(PATHS.map((p) => receiver.next(p))),
      DELIVERY_BOUND_MS,
      "every callback tried again after the restart",
    );
    const final = await allSucceeded(second, restarted, token, mediaId);
    t.diagnostic(
      `restart took ${restartedAt - cutAt} ms; tries after it came ${retries
        .map((r, i) => `${PATHS[i]} +${r.at - restartedAt} ms`)
        .join(", ")}`,
    );

    const bytes = await readFile(shortFile);
    for (const [index, p] of PATHS.entries()) {
      const callback = final[index] as CallbackState;
      const tries = requestsTo(receiver, p);
      assert.equal(tries.length, 2, `${p}: the try before the cut and one after it, no more`);
      assertSameDelivery(tries, callback.deliveryId, p);
      assert.ok(
        (retries[index] as Received).body.equals((firstTries[index] as Received).body),
        `${p}: same bytes`,
      );
    }
    assert.ok(requestsTo(receiver, "/media")[1]?.body.equals(bytes), "the media callback sent the original");
    const analytics = JSON.parse((retries[0] as Received).body.toString("utf8")) as { mediaId: string };
    assert.equal(analytics.mediaId, mediaId);

    // Between bursts: the next scheduled attempt keeps its time, counted from the first try.
    for (const index of [0, 1]) {
      const firstTry = firstTries[index] as Received;
      const retry = retries[index] as Received;
      const queued = states[index] as CallbackState;
      const firstTryMs = Number(firstTry.headers["webhook-timestamp"]) * 1000;
      const offset = SCHEDULE_OFFSETS_MS[1] as number;
      assert.ok(queued.nextAttemptDate, `${PATHS[index]}: its next attempt was queued before the cut`);
      const nextAt = Date.parse(queued.nextAttemptDate);
      // webhook-timestamp has whole seconds: 1 s of slack either way.
      assert.ok(
        nextAt >= firstTryMs + offset - 1000 && nextAt <= firstTryMs + offset + 1000,
        `${PATHS[index]}: next attempt queued at first try + ${offset} ms (${nextAt - firstTryMs} ms)`,
      );
      assert.ok(
        retry.at >= nextAt && retry.at >= firstTryMs + offset - 1000,
        `${PATHS[index]}: the try after the restart came ${retry.at - nextAt} ms after its scheduled time`,
      );
      assert.equal(final[index]?.attempts, 2, `${PATHS[index]}: both tries recorded`);
    }
    // Mid-burst: the cut try was never recorded (its process died first); the burst ran again.
    assert.equal(final[2]?.attempts, 1, "/media: only the try after the restart is recorded");

    second.child.kill("SIGTERM");
    assert.equal((await second.exit(STOP_SECONDS)).code, 0, second.output());
  });

  test("mid-processing: the callbacks of an upload accepted before the cut all arrive after the restart", async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const dir = await dataDir();
    const env = { ...CALLBACK_ENV, HARK_DATA_DIR: dir };
    const first = startMain(env);
    const address = await running(first);
    const token = await createAccountOver(address, ADMIN, "callback-crash");
    const mediaId = await uploadOver(address, token, longFile, configurationFor(receiver));

    await within(
      first.logLine((line) => line.msg === "processing started" && line.mediaId === mediaId),
      PROCESS_BOUND_MS,
      "processing started",
    );
    await powerCut(first, dir);
    assert.ok(!first.output().includes('"msg":"processing ended"'), "the cut came while processing ran");
    assert.equal(receiver.received.length, 0, "no callback before processing ended");

    const second = startMain(env);
    const restarted = await running(second);
    const restartedAt = Date.now();
    const arrived = await within(
      Promise.all(PATHS.map((p) => receiver.next(p))),
      PROCESS_BOUND_MS + DELIVERY_BOUND_MS,
      "every callback after the restart",
    );
    const final = await allSucceeded(second, restarted, token, mediaId);
    t.diagnostic(
      `callbacks arrived ${Math.max(...arrived.map((r) => r.at)) - restartedAt} ms after the restart`,
    );

    for (const [index, p] of PATHS.entries()) {
      assertSameDelivery(requestsTo(receiver, p), (final[index] as CallbackState).deliveryId, p);
    }
    const analytics = JSON.parse((arrived[0] as Received).body.toString("utf8")) as {
      mediaId: string;
      status: string;
    };
    assert.equal(analytics.mediaId, mediaId);
    assert.equal(analytics.status, "finished");
    const srt = await fetch(`${restarted}/v3/media/${mediaId}/transcript/srt`, {
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal((arrived[1] as Received).body.toString("utf8"), await srt.text());
    assert.ok((arrived[2] as Received).body.equals(await readFile(longFile)));

    second.child.kill("SIGTERM");
    assert.equal((await second.exit(STOP_SECONDS)).code, 0, second.output());
  });
});

/**
 * Hark as a multi-machine deployment runs it: one `hark api` process and `hark worker` processes, each
 * with a data directory of its own, meeting only in one external PostgreSQL (Debian's, started by
 * `npm test`) and one S3-compatible server (s3rver). A batch of uploads; one worker is killed (SIGKILL)
 * while it transcribes, the other told to stop (SIGTERM) while it transcribes, and a third joins. Every
 * upload finishes and every callback arrives, the media callbacks streamed from the bucket byte for byte.
 */
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import { freePort } from "../src/net/free-port.ts";
import { processQueueOptions, SUPERVISE_INTERVAL_SECONDS } from "../src/store/job-queue.ts";
import { buildSpeech, tempDir } from "./pipeline/speech.ts";
import { freshDatabase, type TestDatabase } from "./support/database.ts";
import { createAccountOver, uploadOver } from "./support/http-client.ts";
import { type Receiver, startReceiver } from "./support/receiver.ts";
import { startS3Server, type TestS3Server } from "./support/s3-server.ts";
import {
  dataDir,
  type Running,
  running,
  STOP_SECONDS,
  startMain,
  started,
  stopAllProcesses,
} from "./support/service-process.ts";

const ADMIN = "scale-out-admin-token-0123456789";
/** How soon a killed worker's job runs elsewhere: its heartbeat lapses, and supervision notices. */
const PICKUP_BOUND_MS = (processQueueOptions.heartbeatSeconds + SUPERVISE_INTERVAL_SECONDS + 30) * 1000;

after(stopAllProcesses);

describe("one API and several worker processes on one PostgreSQL and one S3 bucket", () => {
  let database: TestDatabase;
  let s3: TestS3Server;
  let receiver: Receiver;
  let audio: { dir: string; cleanup: () => Promise<void> };
  let short: string;
  let long: string;
  before(async () => {
    database = await freshDatabase({ adminUrl: process.env.HARK_TEST_EXTERNAL_DATABASE_URL });
    s3 = await startS3Server();
    receiver = await startReceiver();
    audio = await tempDir();
    short = path.join(audio.dir, "short.wav");
    await buildSpeech([{ text: "please cancel my order" }], short);
    long = path.join(audio.dir, "long.wav");
    // Long enough that each worker is still transcribing it when it is stopped.
    const sentence = "please cancel my subscription and send the refund to my card";
    await buildSpeech(Array.from({ length: 6 }, () => [{ text: sentence }, { silenceMs: 500 }]).flat(), long);
  });
  after(async () => {
    await stopAllProcesses();
    await receiver?.close();
    await s3?.stop();
    await database?.drop();
    await audio?.cleanup();
  });

  test("a worker killed and one stopped mid-way: every upload finishes, every callback arrives", async () => {
    const shared = {
      HARK_DATABASE_URL: database.url,
      HARK_DATABASE_POOL_SIZE: "4",
      HARK_BLOB_STORE: "s3",
      HARK_S3_ENDPOINT: s3.endpoint,
      HARK_S3_BUCKET: s3.bucket,
      HARK_S3_REGION: s3.region,
      HARK_S3_ACCESS_KEY_ID: s3.accessKeyId,
      HARK_S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      HARK_S3_FORCE_PATH_STYLE: "true",
      HARK_CALLBACK_ALLOW_HTTP: "true",
      HARK_CALLBACK_ALLOW_PRIVATE: "true",
      HARK_RECOGNIZER_CONCURRENCY: "1",
      HARK_STOP_TIMEOUT: "1",
      HARK_LOG_LEVEL: "info",
    };
    const dirs: string[] = [];
    const start = async (role: "api" | "worker", env: Record<string, string> = {}) => {
      const dir = await dataDir();
      dirs.push(dir);
      return startMain({ ...shared, HARK_DATA_DIR: dir, ...env }, [role]);
    };
    const { api, publicUrl } = await startApi((env) => start("api", { ...env, HARK_ADMIN_TOKEN: ADMIN }));
    // Every process renders links to the API, wherever it runs.
    const worker = (env: Record<string, string> = {}) =>
      start("worker", { HARK_PUBLIC_URL: publicUrl, ...env });
    // One slot each, so each takes one long item (with one, a process sets no per-account limit).
    const one = { HARK_WORKER_CONCURRENCY: "1" };
    const [first, second] = [await worker(one), await worker(one)];
    assert.equal((await started(first)).role, "worker");
    assert.equal((await started(second)).role, "worker");

    const token = await createAccountOver(publicUrl, ADMIN, "scale-out");
    const files = [long, long, short, short, short];
    const mediaIds: string[] = [];
    for (const [index, file] of files.entries()) {
      // Each item's callbacks to paths of its own: `/<index>/analytics`, `/<index>/media`.
      const base = `${receiver.url}/${index}`;
      const callbacks = [{ url: `${base}/analytics` }, { url: `${base}/media`, type: "media" }];
      mediaIds.push(await uploadOver(publicUrl, token, file, { publish: { callbacks } }));
    }

    // Each worker takes one long item (one at a time each); then one is killed, the other stopped.
    const [killedItem, stoppedItem] = await Promise.all([processing(first), processing(second)]);
    process.kill(first.child.pid as number, "SIGKILL");
    const killedAt = Date.now();
    second.child.kill("SIGTERM");
    assert.deepEqual(await second.exit(STOP_SECONDS), { code: 0, signal: null }, second.output());
    assert.ok(
      !second.output().includes(`"mediaId":"${stoppedItem}","status"`),
      "the stopped worker ended nothing: it handed its job back",
    );
    // Two slots: one is free when the killed worker's job comes back, so its pickup is what is measured.
    // No per-account limit: the one account here may fill both (its default would keep one for others).
    const third = await worker({ HARK_WORKER_CONCURRENCY: "2", HARK_ACCOUNT_MAX_PROCESSING: "0" });
    await started(third);
    const takenOver = await third.logLine((l) => l.msg === "processing started" && l.mediaId === killedItem);
    assert.ok(
      Number(takenOver.time) - killedAt < PICKUP_BOUND_MS,
      `the killed worker's item was taken over ${Number(takenOver.time) - killedAt} ms after the kill`,
    );

    // Every callback arrives: an analytics body saying finished, and the media bytes from the bucket.
    for (const [index, mediaId] of mediaIds.entries()) {
      const analytics = JSON.parse((await receiver.next(`/${index}/analytics`)).body.toString()) as {
        mediaId: string;
        status: string;
      };
      assert.deepEqual([analytics.mediaId, analytics.status], [mediaId, "finished"]);
      const media = await receiver.next(`/${index}/media`);
      assert.ok(media.body.equals(await fs.readFile(files[index] as string)), `${index}: the media bytes`);
    }
    for (const mediaId of mediaIds) {
      const response = await fetch(`${publicUrl}/v3/media/${mediaId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const body = (await response.json()) as { status: string; callbacks: { state: string }[] };
      assert.equal(body.status, "finished");
      assert.deepEqual(
        body.callbacks.map((callback) => callback.state),
        ["succeeded", "succeeded"],
      );
    }

    // The media live in the bucket, not in any process's data directory.
    const client = new S3Client({
      endpoint: s3.endpoint,
      region: s3.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
    });
    const listed = await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }));
    client.destroy();
    const keys = (listed.Contents ?? []).map((object) => object.Key);
    for (const mediaId of mediaIds) assert.ok(keys.includes(`media/${mediaId}/original`), mediaId);
    for (const dir of dirs) {
      assert.equal(await fs.stat(path.join(dir, "blobs")).catch(() => undefined), undefined, dir);
    }

    api.child.kill("SIGTERM");
    third.child.kill("SIGTERM");
    assert.equal((await api.exit(STOP_SECONDS)).code, 0, api.output());
    assert.equal((await third.exit(STOP_SECONDS)).code, 0, third.output());
  });
});

/**
 * Starts the API on a port given to it, so that it and the workers know its address before it runs. A
 * port free a moment ago may have been taken since; the API then says so and exits, and is started again
 * on another.
 */
async function startApi(
  start: (env: Record<string, string>) => Promise<Running>,
): Promise<{ api: Running; publicUrl: string }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const publicUrl = `http://127.0.0.1:${port}`;
    const api = await start({ PORT: String(port), HARK_PUBLIC_URL: publicUrl });
    try {
      assert.equal(await running(api), publicUrl);
      return { api, publicUrl };
    } catch (error) {
      // Read what it said once it has exited.
      const exited = attempt < 5 ? await api.exit(STOP_SECONDS).catch(() => undefined) : undefined;
      if (exited?.code !== 1 || !api.stderr().includes("EADDRINUSE")) throw error;
    }
  }
}

/** The id of the next item `worker` starts processing. */
async function processing(worker: Running): Promise<string> {
  const line = await worker.logLine((l) => l.msg === "processing started");
  return line.mediaId as string;
}

/**
 * Power cut in the middle of processing: the whole service (Hark and its PostgreSQL) is killed with
 * SIGKILL while a media item is being transcribed. After a restart the accepted upload is not lost: its
 * job runs again once its heartbeat has lapsed, and the item ends finished.
 */
import assert from "node:assert/strict";
import { openAsBlob } from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { processQueueOptions, SUPERVISE_INTERVAL_SECONDS } from "../../src/store/job-queue.ts";
import { buildSpeech, tempDir } from "../pipeline/speech.ts";
import { dataDir, postgresOf, running, startMain, stopAllProcesses } from "../support/service-process.ts";
import { within } from "../support/within.ts";

after(stopAllProcesses);

const ADMIN = "crash-admin-token-0123456789";

test("an upload accepted before a SIGKILL of the whole service is processed after the restart", async () => {
  const audio = await tempDir();
  const file = path.join(audio.dir, "call.wav");
  const sentence = "please cancel my subscription and send the refund to my card";
  // Long enough that the kill, as soon as processing has started, lands while it is being transcribed (a
  // few seconds of work), and no longer: it is transcribed again after the restart.
  await buildSpeech(Array.from({ length: 3 }, () => [{ text: sentence }, { silenceMs: 500 }]).flat(), file);

  const dir = await dataDir();
  const env = { HARK_DATA_DIR: dir, PORT: "0", HARK_ADMIN_TOKEN: ADMIN, HARK_LOG_LEVEL: "info" };
  const first = startMain(env);
  const address = await running(first);
  const account = (await (
    await fetch(`${address}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ accountName: "crash" }),
    })
  ).json()) as { token: string };
  const form = new FormData();
  form.append("media", await openAsBlob(file, { type: "audio/x-wav" }), "call.wav");
  const upload = await fetch(`${address}/v3/media`, {
    method: "POST",
    headers: { authorization: `Bearer ${account.token}` },
    body: form,
  });
  assert.equal(upload.status, 200);
  const { mediaId } = (await upload.json()) as { mediaId: string };

  await first.logLine((line) => line.msg === "processing started" && line.mediaId === mediaId);
  const postgres = await postgresOf(dir);
  assert.ok(postgres.length > 0);
  process.kill(-(first.child.pid as number), "SIGKILL");
  await first.exit(10);
  assert.ok(!first.output().includes('"msg":"processing ended"'), "the cut came while processing ran");
  assert.deepEqual(await postgresOf(dir), [], "the power cut took PostgreSQL down too");

  const second = startMain(env);
  const restarted = await running(second);
  const bound = (processQueueOptions.heartbeatSeconds + SUPERVISE_INTERVAL_SECONDS + 60) * 1000;
  const ended = await within(
    second.logLine((line) => line.msg === "processing ended" && line.mediaId === mediaId),
    bound,
    "processing after the restart",
  );
  assert.equal(ended.status, "finished");
  const doc = (await (
    await fetch(`${restarted}/v3/media/${mediaId}`, { headers: { authorization: `Bearer ${account.token}` } })
  ).json()) as { status: string; transcript: { words: { w: string }[] } };
  assert.equal(doc.status, "finished");
  assert.ok(doc.transcript.words.some((w) => w.w.toLowerCase() === "subscription"));

  second.child.kill("SIGTERM");
  assert.equal((await second.exit(30)).code, 0);
  await audio.cleanup();
});

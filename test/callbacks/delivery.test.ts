/**
 * Callbacks end to end: real processing (pocketsphinx decodes the one recording once; the other uploads
 * of it reuse its words), a real receiver, the real sender. What a receiver sees: the method, the exact
 * headers, the body each type and format promises, and the retry schedule walked (here shortened through
 * HARK_CALLBACK_SCHEDULE; the default schedule is checked in schedule.test.ts).
 */
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { buildSpeech, tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

describe("callback delivery", () => {
  let hark: TestHark;
  let token: string;
  let receiver: Receiver;
  let audio: { file: string; bytes: Buffer; cleanup: () => Promise<void> };

  before(async () => {
    const dir = await tempDir();
    const file = path.join(dir.dir, "hello.wav");
    await buildSpeech([{ text: "please cancel my order" }], file);
    audio = { file, bytes: await readFile(file), cleanup: dir.cleanup };
    receiver = await startReceiver();
    hark = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_SCHEDULE: "0,1s,2s",
        HARK_CALLBACK_BURST: "2",
        HARK_CALLBACK_TIMEOUT: "2",
      },
      { workers: true, recognizeOnce: true },
    );
    token = await hark.createAccount();
  });
  after(async () => {
    await hark?.close();
    await receiver?.close();
    await audio?.cleanup();
  });

  const get = async (url: string) =>
    (await hark.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } })).json();
  async function upload(callbacks: unknown[], media: string | Uint8Array = audio.file) {
    const response = await hark.upload(token, {
      media,
      configuration: { publish: { callbacks } },
      metadata: { externalId: "crm-7" },
    });
    assert.equal(response.statusCode, 200, response.body);
    return response.json().mediaId as string;
  }

  test("an analytics callback POSTs the media document with exactly the promised headers", async () => {
    const mediaId = await upload([{ url: `${receiver.url}/analytics` }]);
    const call = await receiver.next("/analytics");
    assert.equal(call.method, "POST");
    assert.deepEqual(call.rawHeaderNames.map((name) => name.toLowerCase()).sort(), [
      "connection",
      "content-length",
      "content-type",
      "host",
      "user-agent",
      "webhook-id",
      "webhook-timestamp",
    ]);
    assert.equal(call.headers["content-type"], "application/json");
    assert.equal(call.headers["content-length"], String(call.body.length));
    assert.match(call.headers["user-agent"] ?? "", /^Hark\/\d+\.\d+\.\d+$/);
    assert.match(String(call.headers["webhook-timestamp"]), /^\d{10}$/);
    const body = JSON.parse(call.body.toString("utf8"));
    assert.equal(body.mediaId, mediaId);
    assert.equal(body.status, "finished");
    assert.deepEqual(body.metadata, { externalId: "crm-7" });
    assert.ok(body.transcript.words.some((w: { w: string }) => w.w.toLowerCase() === "cancel"));
    for (const field of [
      "_links",
      "formatVersion",
      "accountId",
      "accountName",
      "dateCreated",
      "dateFinished",
      "timeToLiveInSeconds",
      "expiresOn",
      "mediaContentType",
      "length",
    ]) {
      assert.ok(field in body, `the envelope has ${field}`);
    }
    const doc = await get(`/v3/media/${mediaId}`);
    assert.equal(doc.callbacks[0].deliveryId, call.headers["webhook-id"]);
  });

  test("include limits the sections; the envelope stays", async () => {
    await upload([{ url: `${receiver.url}/metadata-only`, include: ["metadata"] }]);
    const body = JSON.parse((await receiver.next("/metadata-only")).body.toString("utf8"));
    assert.deepEqual(body.metadata, { externalId: "crm-7" });
    assert.equal(body.transcript, undefined);
    assert.equal(body.streams, undefined);
    assert.equal(body.status, "finished");
  });

  test("a transcript callback PUTs the chosen format with its Content-Type", async () => {
    const mediaId = await upload([
      { url: `${receiver.url}/srt`, type: "transcript", format: "srt", method: "put" },
    ]);
    const call = await receiver.next("/srt");
    assert.equal(call.method, "PUT");
    assert.equal(call.headers["content-type"], "text/srt");
    const srt = await hark.app.inject({
      method: "GET",
      url: `/v3/media/${mediaId}/transcript/srt`,
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(call.body.toString("utf8"), srt.body);
  });

  test("a media callback sends the original bytes as application/octet-stream", async () => {
    await upload([{ url: `${receiver.url}/media`, type: "media" }]);
    const call = await receiver.next("/media");
    assert.equal(call.headers["content-type"], "application/octet-stream");
    assert.ok(call.body.equals(audio.bytes));
  });

  test("a failed try is tried again in the same burst, with the same webhook-id", async () => {
    receiver.answer("/flaky", [{ status: 500, body: "busy" }, { status: 200 }]);
    const mediaId = await upload([{ url: `${receiver.url}/flaky` }]);
    const first = await receiver.next("/flaky");
    const second = await receiver.next("/flaky");
    assert.equal(first.headers["webhook-id"], second.headers["webhook-id"]);
    assert.ok(first.body.equals(second.body), "every try sends the same bytes");
    const doc = await waitForState(mediaId, "succeeded");
    assert.equal(doc.callbacks[0].attempts, 2);
  });

  test("a 3xx is a failure and is not followed; the schedule runs out and the delivery is exhausted", async () => {
    receiver.answer("/moved", { status: 302, headers: { location: `${receiver.url}/elsewhere` } });
    const mediaId = await upload([{ url: `${receiver.url}/moved` }]);
    const doc = await waitForState(mediaId, "exhausted");
    const calls = receiver.received.filter((r) => r.path === "/moved");
    assert.equal(calls.length, 6, "3 scheduled attempts of 2 tries");
    assert.equal(receiver.received.filter((r) => r.path === "/elsewhere").length, 0);
    // Bursts start at 0, 1 s and 2 s after the first try's scheduled time (when processing ended), each
    // within a second of its time.
    const { rows } = await hark.services.db.query("select first_try_at from deliveries where media_id = $1", [
      mediaId,
    ]);
    const start = (rows[0]?.first_try_at as Date).getTime();
    for (const [index, offset] of [0, 0, 1000, 1000, 2000, 2000].entries()) {
      const late = (calls[index]?.at ?? 0) - start - offset;
      assert.ok(late >= 0 && late < 1000, `try ${index} ${late} ms after its scheduled time`);
    }
    assert.equal(doc.callbacks[0].attempts, 6);
    assert.equal(doc.callbacks[0].lastAttempt.statusCode, 302);
  });

  test("a Retry-After ends the burst and moves the next try to the first scheduled attempt after it", async () => {
    receiver.answer("/busy", [{ status: 503, headers: { "retry-after": "1" } }, { status: 200 }]);
    const mediaId = await upload([{ url: `${receiver.url}/busy` }]);
    const doc = await waitForState(mediaId, "succeeded");
    const calls = receiver.received.filter((r) => r.path === "/busy");
    assert.equal(calls.length, 2, "no second try in the burst the receiver asked to wait");
    const { rows } = await hark.services.db.query<{
      scheduled_attempt: number;
      error_message: string | null;
    }>(
      `select a.scheduled_attempt, a.error_message from delivery_attempts a join deliveries d using (delivery_id)
       where d.media_id = $1 order by a.attempt_id`,
      [mediaId],
    );
    assert.deepEqual(
      rows.map((row) => row.scheduled_attempt),
      [0, 2],
      "the attempt at 1 s came before the wait was over",
    );
    assert.equal(rows[0]?.error_message, "HTTP 503, Retry-After 1 s");
    const gap = (calls[1]?.at ?? 0) - (calls[0]?.at ?? 0);
    assert.ok(gap >= 1000, `the receiver waited ${gap} ms`);
    assert.equal(doc.callbacks[0].attempts, 2);
  });

  test("410 Gone stops the callback at once: no more tries, exhausted", async () => {
    receiver.answer("/gone", { status: 410 });
    const mediaId = await upload([{ url: `${receiver.url}/gone` }]);
    const doc = await waitForState(mediaId, "exhausted");
    assert.equal(receiver.received.filter((r) => r.path === "/gone").length, 1);
    assert.equal(doc.callbacks[0].lastAttempt.statusCode, 410);
  });

  test("after failed processing only analytics callbacks go out, describing the error", async () => {
    const mediaId = await upload(
      [
        { url: `${receiver.url}/failed-analytics` },
        { url: `${receiver.url}/failed-transcript`, type: "transcript" },
        { url: `${receiver.url}/failed-media`, type: "media" },
      ],
      new Uint8Array(4000).fill(3),
    );
    const body = JSON.parse((await receiver.next("/failed-analytics")).body.toString("utf8"));
    assert.equal(body.status, "failed");
    assert.equal(body.errors[0].code, 10201);
    const doc = await waitForState(mediaId, "succeeded");
    assert.deepEqual(
      doc.callbacks.map((c: { state: string }) => c.state),
      ["succeeded", "skipped", "skipped"],
    );
    assert.equal(
      receiver.received.filter((r) => r.path.startsWith("/failed-t") || r.path === "/failed-media").length,
      0,
    );
  });

  /** Resolves with the media document once its first callback is in `state`. */
  async function waitForState(mediaId: string, state: string) {
    for (;;) {
      // Listen first, then look: a burst ending in between is caught either way.
      const listening = new AbortController();
      const burstEnded = once(hark.services.events, "delivery.burst-ended", { signal: listening.signal });
      burstEnded.catch(() => {});
      const doc = await get(`/v3/media/${mediaId}`);
      if (doc.callbacks?.[0]?.state === state) {
        listening.abort();
        return doc;
      }
      await burstEnded;
    }
  }
});

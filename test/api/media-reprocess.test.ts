/**
 * Reprocessing and alignment (`POST /v3/media/{mediaId}`), end to end: real processing of a spoken
 * recording (decoded once; the reruns reuse its words), a real receiver for the callbacks. A client
 * reprocesses a finished item with a new configuration and gets the new sections and callbacks; sends a
 * corrected transcript and gets its words, timed; and is refused clearly what cannot be done.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, test } from "node:test";
import * as openpgp from "openpgp";
import { spokenFile } from "../pipeline/speech.ts";
import { refused, startTestHark, type TestHark } from "../support/harness.ts";
import { type Receiver, startReceiver } from "../support/receiver.ts";

interface Word {
  p: number;
  s: number;
  e: number;
  c: number;
  w: string;
  m?: string;
}

describe("POST /v3/media/{mediaId}: reprocess and align", () => {
  let hark: TestHark;
  let token: string;
  let receiver: Receiver;
  let audio: { file: string; cleanup: () => Promise<void> };
  const bursts: { mediaId: string; state: string }[] = [];

  before(async () => {
    audio = await spokenFile("please cancel my order");
    receiver = await startReceiver();
    hark = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_MEDIA_URL_TIMEOUT_SECONDS: "10",
      },
      { workers: true, recognizeOnce: true },
    );
    token = await hark.createAccount();
    hark.services.events.on("delivery.burst-ended", (burst) => bursts.push(burst));
  });
  after(async () => {
    await hark?.close();
    await receiver?.close();
    await audio?.cleanup();
  });

  /** A finished item, uploaded with `configuration`. */
  async function finished(configuration: unknown = {}): Promise<string> {
    const response = await hark.upload(token, { media: audio.file, configuration });
    assert.equal(response.statusCode, 200, response.body);
    const mediaId = response.json().mediaId as string;
    assert.equal(await hark.ended(mediaId), "finished");
    return mediaId;
  }

  function reprocess(mediaId: string, parts: [string, string | Blob][], as = token) {
    const form = new FormData();
    for (const [name, value] of parts) form.append(name, value);
    return hark.app.inject({
      method: "POST",
      url: `/v3/media/${mediaId}`,
      headers: { authorization: `Bearer ${as}` },
      payload: form,
    });
  }

  /** Resolves once `count` bursts of deliveries of `mediaId` have succeeded (now or already). */
  function succeeded(mediaId: string, count: number): Promise<void> {
    return new Promise((resolve) => {
      const check = () => {
        const done = bursts.filter((burst) => burst.mediaId === mediaId && burst.state === "succeeded");
        if (done.length < count) return;
        hark.services.events.off("delivery.burst-ended", check);
        resolve();
      };
      hark.services.events.on("delivery.burst-ended", check);
      check();
    });
  }

  const document = async (mediaId: string) => (await hark.api(token, "GET", `/v3/media/${mediaId}`)).json();

  test("a new configuration computes a section the first run did not, and calls its new callback", async () => {
    const mediaId = await finished({ publish: { callbacks: [{ url: `${receiver.url}/first` }] } });
    const first = JSON.parse((await receiver.next("/first")).body.toString("utf8"));
    assert.equal(first.metrics, undefined);
    await succeeded(mediaId, 1);

    const response = await reprocess(mediaId, [
      [
        "configuration",
        JSON.stringify({
          metrics: [{ metricGroupName: "talk-time-and-rate" }],
          publish: { callbacks: [{ url: `${receiver.url}/second` }] },
        }),
      ],
      ["metadata", JSON.stringify({ externalId: "crm-8" })],
    ]);
    assert.equal(response.statusCode, 200, response.body);
    const accepted = response.json();
    assert.equal(accepted.mediaId, mediaId);
    assert.equal(accepted.status, "accepted");
    assert.equal(accepted.transcript, undefined, "the last run's results are gone");

    const second = JSON.parse((await receiver.next("/second")).body.toString("utf8"));
    assert.equal(second.mediaId, mediaId);
    assert.equal(second.status, "finished");
    assert.deepEqual(second.metadata, { externalId: "crm-8" });
    const groups = (second.metrics as { metricGroupName: string }[]).map((group) => group.metricGroupName);
    assert.deepEqual(groups, ["talk-time-and-rate"]);

    await succeeded(mediaId, 2);
    const now = await document(mediaId);
    assert.equal(now.status, "finished");
    assert.ok(now.metrics, "the document shows the new run's metrics");
    // The first run's delivery stays, with its log; the new one is beside it. Each was called once.
    const callbacks = now.callbacks as { url: string; state: string; deliveryId: string }[];
    assert.deepEqual(
      callbacks.map((callback) => [new URL(callback.url).pathname, callback.state]),
      [
        ["/first", "succeeded"],
        ["/second", "succeeded"],
      ],
    );
    assert.notEqual(callbacks[0]?.deliveryId, callbacks[1]?.deliveryId);
    assert.equal(receiver.received.filter((call) => call.path === "/first").length, 1);
  });

  test("a corrected transcript becomes the transcript, at the recognised words' times", async () => {
    const mediaId = await finished();
    const recognised = (await document(mediaId)).transcript.words as Word[];
    const corrected = "Please, cancel my ORDER today.";

    const response = await reprocess(mediaId, [
      ["configuration", JSON.stringify({ publish: { callbacks: [{ url: `${receiver.url}/aligned` }] } })],
      ["transcript", new Blob([corrected], { type: "text/plain" })],
    ]);
    assert.equal(response.statusCode, 200, response.body);
    const body = JSON.parse((await receiver.next("/aligned")).body.toString("utf8"));
    const words = body.transcript.words as Word[];

    const text = words.filter((word) => word.m !== "turn").map((word) => word.w);
    assert.deepEqual(text, ["Please", ",", "cancel", "my", "ORDER", "today", "."]);
    words.forEach((word, index) => assert.equal(word.p, index));
    for (let i = 1; i < words.length; i++) {
      assert.ok((words[i] as Word).s >= (words[i - 1] as Word).s, JSON.stringify(words));
    }
    // The words the recogniser heard alike keep its times.
    const heardCancel = recognised.find((word) => word.w.toLowerCase() === "cancel");
    const alignedCancel = words.find((word) => word.w === "cancel");
    if (heardCancel) assert.deepEqual([alignedCancel?.s, alignedCancel?.e], [heardCancel.s, heardCancel.e]);
    const spoken = words.filter((word) => word.m === undefined);
    assert.ok(spoken.every((word) => word.c === 1 && word.e <= body.length));

    // The plain-text transcript reads the corrected words too.
    const plain = await hark.app.inject({
      method: "GET",
      url: `/v3/media/${mediaId}/transcript/text`,
      headers: { authorization: `Bearer ${token}`, accept: "text/plain" },
    });
    assert.equal(plain.statusCode, 200, plain.body);
    assert.match(plain.body, /ORDER today/);
  });

  test("an item still processing is refused with 409, and processes on", async () => {
    // The media URL answers after 2 s: until then the item is accepted or running.
    receiver.answer("/slow.wav", { status: 200, body: "", delayMs: 2000 });
    const upload = await hark.upload(token, { mediaUrl: `${receiver.url}/slow.wav` });
    assert.equal(upload.statusCode, 200, upload.body);
    const mediaId = upload.json().mediaId as string;
    const message = refused(await reprocess(mediaId, [["configuration", "{}"]]), 409, 11601);
    assert.match(message, /once processing has ended/);
    assert.equal(await hark.ended(mediaId), "failed");
  });

  test("an unknown item, or another account's, is not found", async () => {
    refused(await reprocess(randomUUID(), [["configuration", "{}"]]), 404, 10205);
    const mediaId = await finished();
    const other = await hark.createAccount();
    refused(await reprocess(mediaId, [["configuration", "{}"]], other), 404, 10205);
  });

  test("a media or mediaUrl part, an empty transcript or a bad configuration is refused, changing nothing", async () => {
    const mediaId = await finished();
    const before = await document(mediaId);
    const media = refused(
      await reprocess(mediaId, [["media", new Blob([new Uint8Array(64)], { type: "audio/x-wav" })]]),
      400,
      10001,
    );
    assert.match(media, /reprocess.*no new media/);
    const url = refused(await reprocess(mediaId, [["mediaUrl", "https://example.com/a.wav"]]), 400, 10001);
    assert.match(url, /POST \/v3\/media/);
    const empty = refused(await reprocess(mediaId, [["transcript", " ... "]]), 400, 11005);
    assert.match(empty, /'transcript' part has no words/);
    refused(await reprocess(mediaId, [["configuration", '{"priority": "urgent"}']]), 400, 10009);
    refused(await reprocess(mediaId, [["configuration", "{"]]), 400, 10007);

    const after = await document(mediaId);
    assert.equal(after.status, "finished");
    assert.deepEqual(after.transcript, before.transcript);
  });

  test("an item encrypted to the client's key is refused: Hark holds its original only encrypted", async () => {
    const keys = await openpgp.generateKey({ type: "curve25519", userIDs: [{ name: "Client" }] });
    const stored = await hark.app.inject({
      method: "POST",
      url: "/v3/security/public-keys",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
      payload: keys.publicKey,
    });
    assert.equal(stored.statusCode, 200, stored.body);
    const mediaId = await finished({ encryption: { publicKeyId: stored.json().publicKeyId } });
    const message = refused(await reprocess(mediaId, [["configuration", "{}"]]), 409, 11602);
    assert.match(message, /encrypted to your public key.*upload the media again/);
  });

  test("without a configuration part the item runs again as it was configured", async () => {
    const mediaId = await finished({ publish: { callbacks: [{ url: `${receiver.url}/again` }] } });
    await receiver.next("/again");
    const response = await reprocess(mediaId, [["metadata", JSON.stringify({ title: "second look" })]]);
    assert.equal(response.statusCode, 200, response.body);
    const body = JSON.parse((await receiver.next("/again")).body.toString("utf8"));
    assert.equal(body.status, "finished");
    assert.deepEqual(body.metadata, { title: "second look" });
  });
});

/**
 * Upload to finished (or failed) through the real pipeline: flite speech, ffmpeg, pocketsphinx,
 * PostgreSQL, pg-boss. Asserts what a client reading the media document would notice.
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Transcript, Word } from "../../src/domain/transcript.ts";
import { buildSpeech, buildStereo, normalizeWords, tempDir, wordErrorRate } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";

const COMPLAINT = "I would like to cancel my subscription because the service is too slow";
const GREETING = "thank you for calling customer support how can I help you today";

describe("processing", () => {
  let hark: TestHark;
  let token: string;
  let dir: string;
  let cleanup: () => Promise<void>;
  let mono: { file: string; lengthMs: number };
  let stereo: { file: string; lengthMs: number };
  let mediaServer: http.Server;
  let mediaServerUrl: string;

  before(async () => {
    ({ dir, cleanup } = await tempDir());
    const monoFile = path.join(dir, "complaint.wav");
    const built = await buildSpeech(
      [{ silenceMs: 300 }, { text: COMPLAINT, voice: "rms" }, { silenceMs: 400 }],
      monoFile,
    );
    mono = { file: monoFile, lengthMs: built.lengthMs };
    const stereoFile = path.join(dir, "call.wav");
    const call = await buildStereo(
      [{ text: GREETING, voice: "rms" }, { silenceMs: 6000 }],
      [{ silenceMs: 5000 }, { text: COMPLAINT, voice: "rms" }],
      stereoFile,
    );
    stereo = { file: stereoFile, lengthMs: call.lengthMs };
    hark = await startTestHark(
      // Deliveries are another suite's subject: here they are only prepared, never sent.
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_CONCURRENCY: "0",
      },
      { workers: true },
    );
    token = await hark.createAccount();
    mediaServer = http.createServer((request, response) => {
      if (request.url === "/complaint.wav") {
        response.writeHead(200, { "content-type": "audio/wav" });
        createReadStream(mono.file).pipe(response);
      } else {
        response.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => mediaServer.listen(0, "127.0.0.1", resolve));
    mediaServerUrl = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}`;
  });
  after(async () => {
    mediaServer.close();
    await hark.close();
    await cleanup();
  });

  const get = (url: string) =>
    hark.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
  async function uploadAndWait(parts: Parameters<TestHark["upload"]>[1]) {
    const response = await hark.upload(token, parts);
    assert.equal(response.statusCode, 200, response.body);
    const { mediaId } = response.json();
    const status = await hark.ended(mediaId);
    const doc = (await get(`/v3/media/${mediaId}`)).json();
    return { mediaId, status, doc };
  }
  const spoken = (words: Word[]) => words.filter((w) => w.m === undefined);

  test("a one-speaker recording ends finished with a VoiceBase transcript", async () => {
    const { mediaId, status, doc } = await uploadAndWait({
      media: mono.file,
      configuration: { ingest: { speakerName: "Caller" } },
    });
    assert.equal(status, "finished");
    assert.equal(doc.status, "finished");
    assert.ok(Math.abs(doc.length - mono.lengthMs) < 100, `length ${doc.length} vs ${mono.lengthMs}`);
    assert.match(doc.dateFinished, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.equal(doc.mediaContentType, "audio/x-wav");
    const transcript = doc.transcript as Transcript;
    const words = transcript.words;

    assert.deepEqual(words[0] && { m: words[0].m, w: words[0].w }, { m: "turn", w: "Caller" });
    assert.deepEqual(
      words.map((w) => w.p),
      words.map((_, i) => i),
      "p counts every entry from 0",
    );
    assert.equal(words.at(-1)?.m, "punc", "the last sentence is ended");
    const heard = spoken(words);
    const errorRate = wordErrorRate(normalizeWords(COMPLAINT), normalizeWords(heard.map((w) => w.w)));
    assert.ok(errorRate <= 0.35, `word error ${errorRate}: ${heard.map((w) => w.w).join(" ")}`);
    for (const word of heard) {
      assert.ok(word.s >= 0 && word.s <= word.e && word.e <= doc.length, `times of ${JSON.stringify(word)}`);
      assert.ok(word.c >= 0 && word.c <= 1);
    }
    for (let i = 1; i < heard.length; i++)
      assert.ok((heard[i]?.s ?? 0) >= (heard[i - 1]?.s ?? 0), "words in time order");
    assert.ok(transcript.confidence > 0 && transcript.confidence <= 1);
    assert.equal(transcript.voiceActivity[0]?.speakerName, "Caller");

    const formats = Object.fromEntries(transcript.alternateFormats.map((f) => [f.format, f]));
    assert.deepEqual(Object.keys(formats).sort(), ["dfxp", "srt", "text", "webvtt"]);
    assert.equal(formats.srt?.contentType, "text/srt");
    assert.equal(formats.srt?.contentEncoding, "Base64");
    const text = Buffer.from(formats.text?.data ?? "", "base64").toString("utf8");
    assert.doesNotMatch(text, /^Caller: /, "a mono transcript is its words alone, as VoiceBase's");
    assert.match(text, /subscription/i);

    const srt = await get(`/v3/media/${mediaId}/transcript/srt`);
    assert.equal(srt.statusCode, 200);
    assert.equal(srt.headers["content-type"], "text/srt");
    assert.equal(srt.body, Buffer.from(formats.srt?.data ?? "", "base64").toString("utf8"));
    const vtt = await get(`/v3/media/${mediaId}/transcript/webvtt`);
    assert.equal(vtt.headers["content-type"], "text/vtt");
    assert.match(vtt.body, /^WEBVTT/);
    assert.equal(
      (await get(`/v3/media/${mediaId}/transcript/dfxp`)).headers["content-type"],
      "application/ttaf+xml",
    );
    assert.equal((await get(`/v3/media/${mediaId}/transcript/text`)).headers["content-type"], "text/plain");

    const json = (await get(`/v3/media/${mediaId}/transcript`)).json();
    assert.deepEqual(json.transcript.words, words);
    assert.deepEqual(json.transcript.alternateFormats, [], "renderings only when asked for");
    const withSrt = (await get(`/v3/media/${mediaId}/transcript?includeAlternateFormat=srt`)).json();
    assert.deepEqual(
      withSrt.transcript.alternateFormats.map((f: { format: string }) => f.format),
      ["srt"],
    );

    const progress = (await get(`/v3/media/${mediaId}/progress`)).json();
    assert.deepEqual(
      progress.progress.tasks.slice(0, 2).map((t: { status: string }) => t.status),
      ["finished", "finished"],
    );
  });

  test("a stereo call is transcribed per channel, under each channel's speaker", async () => {
    const { status, doc } = await uploadAndWait({
      media: stereo.file,
      configuration: {
        ingest: { stereo: { left: { speakerName: "Agent" }, right: { speakerName: "Caller" } } },
      },
    });
    assert.equal(status, "finished");
    const words = (doc.transcript as Transcript).words;
    const turns = words.filter((w) => w.m === "turn").map((w) => w.w);
    assert.deepEqual(turns, ["Agent", "Caller"], "the agent speaks first, then the caller");
    // Each turn's words follow its turn entry, which names the speaker (and so the channel).
    const callerTurn = words.findIndex((w) => w.m === "turn" && w.w === "Caller");
    const agent = spoken(words.slice(0, callerTurn));
    const caller = spoken(words.slice(callerTurn));
    assert.ok(
      words.every((w) => w.v === undefined),
      "v is not the channel",
    );
    assert.ok(normalizeWords(agent.map((w) => w.w)).includes("support"), agent.map((w) => w.w).join(" "));
    assert.ok(normalizeWords(caller.map((w) => w.w)).includes("cancel"), caller.map((w) => w.w).join(" "));
    assert.ok((caller[0]?.s ?? 0) >= 4500, "the caller's words keep their place in the call");
    assert.deepEqual((doc.transcript as Transcript).voiceActivity.map((v) => v.speakerName).sort(), [
      "Agent",
      "Caller",
    ]);
  });

  test("media fetched from a mediaUrl are processed like uploads", async () => {
    const { status, doc } = await uploadAndWait({ mediaUrl: `${mediaServerUrl}/complaint.wav` });
    assert.equal(status, "finished", JSON.stringify(doc.errors));
    assert.equal(doc.mediaContentType, "audio/wav");
    assert.ok(
      normalizeWords(spoken((doc.transcript as Transcript).words).map((w) => w.w)).includes("subscription"),
    );
    assert.equal(doc.streams[0].streamName, "original");
  });

  test("a mediaUrl that answers 404 ends failed with 10207", async () => {
    const { status, doc } = await uploadAndWait({ mediaUrl: `${mediaServerUrl}/missing.wav` });
    assert.equal(status, "failed");
    assert.equal(doc.errors[0].code, 10207);
    assert.match(doc.errors[0].error, /HTTP 404/);
  });

  test("undecodable media end failed, and only analytics callbacks will go out", async () => {
    const { mediaId, status, doc } = await uploadAndWait({
      media: randomBytes(20_000),
      configuration: {
        publish: {
          callbacks: [
            { url: "https://example.com/a" },
            { url: "https://example.com/t", type: "transcript" },
            { url: "https://example.com/m", type: "media" },
          ],
        },
      },
    });
    assert.equal(status, "failed");
    assert.equal(doc.status, "failed");
    assert.equal(doc.errors.length, 1);
    assert.equal(doc.errors[0].code, 10201);
    assert.ok(doc.dateFinished);
    assert.equal(doc.transcript, undefined);
    const { rows } = await hark.services.db.query(
      "select callback->>'type' as type, state from deliveries where media_id = $1 order by position",
      [mediaId],
    );
    assert.deepEqual(
      rows.map((r) => [r.type, r.state]),
      [
        ["analytics", "pending"],
        ["transcript", "skipped"],
        ["media", "skipped"],
      ],
    );
    assert.equal((await get(`/v3/media/${mediaId}/transcript`)).statusCode, 409);
  });

  test("a stereo configuration on a one-channel recording ends failed and says why", async () => {
    const { status, doc } = await uploadAndWait({
      media: mono.file,
      configuration: { ingest: { stereo: { left: { speakerName: "A" }, right: { speakerName: "B" } } } },
    });
    assert.equal(status, "failed");
    assert.equal(doc.errors[0].code, 15004);
    assert.match(doc.errors[0].error, /channel 1 \(B\) but the media has 1 channel/);
  });

  test("after a successful processing every callback is pending delivery", async () => {
    // Bytes with no useful type or name: the type comes from what ffprobe finds.
    const { mediaId, status, doc } = await uploadAndWait({
      media: await readFile(mono.file),
      configuration: {
        publish: {
          callbacks: [{ url: "https://example.com/a" }, { url: "https://example.com/m", type: "media" }],
        },
      },
    });
    assert.equal(status, "finished");
    assert.equal(doc.mediaContentType, "audio/x-wav");
    const { rows } = await hark.services.db.query("select state from deliveries where media_id = $1", [
      mediaId,
    ]);
    assert.deepEqual(
      rows.map((r) => r.state),
      ["pending", "pending"],
    );
  });
});

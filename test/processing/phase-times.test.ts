/**
 * Phase times (issue 15): a run's wall time per phase, in `GET /v3/media/{mediaId}/progress` and on the
 * "processing ended" log line, through the real pipeline (flite speech, ffmpeg, pocketsphinx).
 */
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createReadStream } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { PHASES } from "../../src/domain/media.ts";
import { buildSpeech, tempDir } from "../pipeline/speech.ts";
import { startTestHark, type TestHark } from "../support/harness.ts";

describe("phase times", () => {
  let hark: TestHark;
  let token: string;
  let cleanup: () => Promise<void>;
  let clip: string;
  let mediaServer: http.Server;
  let mediaServerUrl: string;
  const logLines: string[] = [];

  before(async () => {
    let dir: string;
    ({ dir, cleanup } = await tempDir());
    clip = path.join(dir, "greeting.wav");
    await buildSpeech([{ text: "thank you for calling how can I help you", voice: "rms" }], clip);
    hark = await startTestHark(
      {
        HARK_CALLBACK_ALLOW_HTTP: "true",
        HARK_CALLBACK_ALLOW_PRIVATE: "true",
        HARK_CALLBACK_CONCURRENCY: "0",
      },
      { workers: true, logLines },
    );
    token = await hark.createAccount();
    mediaServer = http.createServer((_request, response) => {
      response.writeHead(200, { "content-type": "audio/wav" });
      createReadStream(clip).pipe(response);
    });
    await new Promise<void>((resolve) => mediaServer.listen(0, "127.0.0.1", resolve));
    mediaServerUrl = `http://127.0.0.1:${(mediaServer.address() as AddressInfo).port}/greeting.wav`;
  });
  after(async () => {
    mediaServer.close();
    await hark.close();
    await cleanup();
  });

  async function process(parts: Parameters<TestHark["upload"]>[1]) {
    const response = await hark.upload(token, parts);
    assert.equal(response.statusCode, 200, response.body);
    const { mediaId } = response.json();
    const status = await hark.ended(mediaId);
    const progress = await hark.api(token, "GET", `/v3/media/${mediaId}/progress`);
    assert.equal(progress.statusCode, 200);
    const ended = logLines
      .map((line) => JSON.parse(line))
      .filter((line) => line.mediaId === mediaId && line.msg === "processing ended");
    assert.equal(ended.length, 1, "one processing-ended line");
    return { status, progress: progress.json().progress, logged: ended[0] };
  }

  test("a finished run shows each phase that ran, in /progress and on the log line", async () => {
    const { status, progress, logged } = await process({ mediaUrl: mediaServerUrl });
    assert.equal(status, "finished");
    assert.deepEqual(
      progress.tasks.map((task: { taskId: string; status: string }) => task.status),
      ["finished", "finished", "finished"],
      "VoiceBase's tasks are as they were",
    );
    const { phasesMs, totalMs } = progress;
    // Even a 3 s clip, which stays in one piece, has its line measured (counted with the silence scan).
    assert.deepEqual(Object.keys(phasesMs), [
      "download",
      "decode",
      "silenceScan",
      "recognition",
      "analysis",
      "end",
    ]);
    for (const [phase, ms] of Object.entries(phasesMs)) {
      assert.ok(Number.isInteger(ms) && (ms as number) >= 0, `${phase}: ${ms}`);
    }
    assert.ok(phasesMs.recognition > 0, "recognising speech takes time");
    const sum = Object.values(phasesMs as Record<string, number>).reduce((a, b) => a + b, 0);
    // One channel: the phases follow one another within the run (each rounded to a millisecond).
    assert.ok(sum <= totalMs + PHASES.length, `phases ${sum} ms within the run's ${totalMs} ms`);
    assert.ok(totalMs > 0);
    assert.deepEqual(logged.phasesMs, phasesMs, "the log line carries the same times");
    assert.equal(logged.totalMs, totalMs);
  });

  test("a failed run shows the phases it reached", async () => {
    const { status, progress, logged } = await process({ media: randomBytes(4096) });
    assert.equal(status, "failed");
    assert.deepEqual(Object.keys(progress.phasesMs), ["decode", "end"], "it failed reading the container");
    assert.deepEqual(logged.phasesMs, progress.phasesMs);
  });
});

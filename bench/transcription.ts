/**
 * One-minute call through Hark, from upload to `finished`, against the bare `pocketsphinx_continuous`
 * command on the same file, in one run. Prints both times, their ratio (target: 0.6 or less on 2 cores)
 * and both word error rates (Hark's must be no worse than the bare engine's).
 *
 *   npm run bench            (or: node bench/transcription.ts [runs])
 */
import { openAsBlob } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { Transcript } from "../src/domain/transcript.ts";
import { startHark } from "../src/server.ts";
import { loadSettings } from "../src/settings.ts";
import { barePocketsphinx } from "./support/bare-pocketsphinx.ts";
import {
  buildSpeech,
  type FliteVoice,
  normalizeWords,
  type SpeechPart,
  wordErrorRate,
} from "../test/pipeline/speech.ts";

const SENTENCES: [FliteVoice, string][] = [
  ["rms", "thank you for calling customer support my name is john how can I help you today"],
  ["slt", "hi I am calling about my internet service it has been very slow for the last two weeks"],
  ["rms", "I am sorry to hear that let me look up your account can you give me your phone number"],
  ["slt", "sure it is five five five one two three four five six seven"],
  ["rms", "thank you I can see there was an outage in your area last week"],
  ["slt", "that explains it but the problem is still there this morning"],
  ["rms", "I will reset the connection from our side and send a technician if that does not help"],
  ["slt", "that sounds good how long will the reset take"],
  ["rms", "it should take about ten minutes please restart your router after that"],
  ["slt", "okay I will do that thank you for your help"],
  ["rms", "you are welcome is there anything else I can help you with today"],
  ["slt", "actually one more thing can you tell me when my contract ends"],
  ["rms", "your contract ends in march next year and you can renew it online"],
  ["slt", "great that is all have a nice day"],
];

const runs = Number(process.argv[2] ?? 3);

async function main(): Promise<void> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-bench-"));
  try {
    const file = path.join(dir, "call.wav");
    // Pauses between turns, as a real call has.
    const parts: SpeechPart[] = SENTENCES.flatMap(([voice, text]) => [{ text, voice }, { silenceMs: 700 }]);
    const reference = SENTENCES.map(([, text]) => text);
    const { lengthMs } = await buildSpeech(parts, file);
    if (lengthMs < 60_000) throw new Error(`the benchmark call lasts ${lengthMs} ms; it must last a minute`);
    console.log(
      `audio: ${(lengthMs / 1000).toFixed(1)} s, ${reference.join(" ").split(" ").length} words, ${os.availableParallelism()} cores`,
    );

    const bare = await timed(runs, () => barePocketsphinx(file));
    const hark = await harkRun(file, runs);

    const ref = normalizeWords(reference.join(" "));
    const bareWer = wordErrorRate(ref, normalizeWords(bare.result));
    const harkWer = wordErrorRate(ref, normalizeWords(hark.result));
    console.log(
      `bare pocketsphinx_continuous: ${seconds(bare.ms)} (best of ${runs}), word error ${percent(bareWer)}`,
    );
    console.log(
      `Hark, upload to finished:     ${seconds(hark.ms)} (best of ${runs}), word error ${percent(harkWer)}`,
    );
    const ratio = hark.ms / bare.ms;
    console.log(
      `ratio Hark / bare: ${ratio.toFixed(2)} (target <= 0.60)${ratio <= 0.6 ? "" : "  ABOVE TARGET"}`,
    );
    console.log(`word error Hark - bare: ${((harkWer - bareWer) * 100).toFixed(1)} points (target <= 0)`);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

async function timed<T>(count: number, work: () => Promise<T>): Promise<{ ms: number; result: T }> {
  let best = { ms: Number.POSITIVE_INFINITY, result: undefined as T };
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    const result = await work();
    const ms = performance.now() - start;
    if (ms < best.ms) best = { ms, result };
  }
  return best;
}

async function harkRun(file: string, count: number): Promise<{ ms: number; result: string[] }> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-bench-data-"));
  await fs.chmod(dataDir, 0o755); // the embedded server may run as another user (root cannot run it)
  const adminToken = "bench-admin-token-0123456789";
  const hark = await startHark(
    loadSettings({ HARK_DATA_DIR: dataDir, PORT: "0", HARK_ADMIN_TOKEN: adminToken, HARK_LOG_LEVEL: "warn" }),
    pino({ level: "warn" }),
  );
  try {
    const account = await fetch(`${hark.address}/admin/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify({ accountName: "bench" }),
    }).then((r) => r.json() as Promise<{ token: string }>);
    return await timed(count, async () => {
      const form = new FormData();
      form.append("media", await openAsBlob(file, { type: "audio/x-wav" }), "call.wav");
      const ended = new Promise<string>((resolve) =>
        hark.services.events.once("media.ended", (event) => resolve(event.mediaId)),
      );
      const upload = await fetch(`${hark.address}/v3/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${account.token}` },
        body: form,
      }).then((r) => r.json() as Promise<{ mediaId: string }>);
      const mediaId = await ended;
      if (mediaId !== upload.mediaId) throw new Error("another media ended");
      const doc = await fetch(`${hark.address}/v3/media/${mediaId}`, {
        headers: { authorization: `Bearer ${account.token}` },
      }).then((r) => r.json() as Promise<{ status: string; transcript: Transcript }>);
      if (doc.status !== "finished") throw new Error(`processing ended ${doc.status}`);
      return doc.transcript.words.filter((w) => w.m === undefined).map((w) => w.w);
    });
  } finally {
    await hark.stop();
    await fs.rm(dataDir, { recursive: true, force: true });
  }
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const percent = (rate: number) => `${(rate * 100).toFixed(1)}%`;

await main();

/**
 * The two recognisers the benchmarks compare (accuracy, transcription), each timed on one call: Hark started in-process
 * (upload → `finished`, words per speaker from the transcript's turns) and the bare
 * `pocketsphinx_continuous` on whole 16 kHz mono files (one after another for the two channels of a call).
 */
import { openAsBlob } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { Transcript } from "../../src/domain/transcript.ts";
import { startHark } from "../../src/server.ts";
import { loadSettings } from "../../src/settings.ts";
import { barePocketsphinx } from "./bare-pocketsphinx.ts";

export const AGENT = "Agent";
export const CALLER = "Caller";

/** What one engine heard in one call: words per channel (one list for a mono file), and how long it took. */
export interface Heard {
  channels: string[][];
  ms: number;
  /**
   * Hark's own phase times (`progress.phasesMs` of `GET /v3/media/{mediaId}/progress`) and, as `run`, the
   * processing run's `totalMs`; absent for the bare engine.
   */
  phasesMs?: Record<string, number>;
}

export interface HarkClient {
  recognise(file: string, stereo: boolean): Promise<Heard>;
  stop(): Promise<void>;
}

/** A Hark of default settings in this process, with one account. */
export async function startHarkClient(): Promise<HarkClient> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-accuracy-data-"));
  await fs.chmod(dataDir, 0o755); // the embedded server may run as another user (root cannot run it)
  const adminToken = "bench-admin-token-0123456789";
  const hark = await startHark(
    loadSettings({ HARK_DATA_DIR: dataDir, PORT: "0", HARK_ADMIN_TOKEN: adminToken, HARK_LOG_LEVEL: "warn" }),
    pino({ level: "warn" }),
  );
  const account = await fetch(`${hark.address}/admin/accounts`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify({ accountName: "accuracy-bench" }),
  }).then((r) => r.json() as Promise<{ token: string }>);
  const auth = { authorization: `Bearer ${account.token}` };

  async function recognise(file: string, stereo: boolean): Promise<Heard> {
    // Number formatting off: the benchmark scores recognised words against words, not digits.
    const configuration = {
      transcript: { formatting: { enableNumberFormatting: false } },
      ...(stereo && { ingest: { stereo: { left: { speakerName: AGENT }, right: { speakerName: CALLER } } } }),
    };
    const start = performance.now();
    const form = new FormData();
    form.append("media", await openAsBlob(file, { type: "audio/x-wav" }), path.basename(file));
    form.append("configuration", JSON.stringify(configuration));
    const ended = new Promise<string>((resolve) =>
      hark.services.events.once("media.ended", (event) => resolve(event.mediaId)),
    );
    const upload = await fetch(`${hark.address}/v3/media`, { method: "POST", headers: auth, body: form });
    if (!upload.ok) throw new Error(`upload refused: ${upload.status} ${await upload.text()}`);
    const { mediaId } = (await upload.json()) as { mediaId: string };
    if ((await ended) !== mediaId) throw new Error("another media ended");
    const ms = performance.now() - start;
    const doc = await fetch(`${hark.address}/v3/media/${mediaId}`, { headers: auth }).then(
      (r) => r.json() as Promise<{ status: string; transcript: Transcript }>,
    );
    if (doc.status !== "finished") throw new Error(`processing ended ${doc.status}`);
    const { progress } = await fetch(`${hark.address}/v3/media/${mediaId}/progress`, { headers: auth }).then(
      (r) => r.json() as Promise<{ progress: { phasesMs?: Record<string, number>; totalMs?: number } }>,
    );
    return {
      channels: stereo ? bySpeaker(doc.transcript, [AGENT, CALLER]) : [spoken(doc.transcript)],
      ms,
      ...(progress.phasesMs && { phasesMs: { ...progress.phasesMs, run: progress.totalMs ?? 0 } }),
    };
  }

  return {
    recognise,
    async stop() {
      await hark.stop();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The spoken words of a transcript (no punctuation, no turn entries). */
function spoken(transcript: Transcript): string[] {
  return transcript.words.filter((w) => w.m === undefined).map((w) => w.w);
}

/** The spoken words of each named speaker, in transcript order: a turn entry names who says what follows. */
function bySpeaker(transcript: Transcript, speakers: readonly string[]): string[][] {
  const words = speakers.map((): string[] => []);
  let current = -1;
  for (const word of transcript.words) {
    if (word.m === "turn") current = speakers.indexOf(word.w);
    else if (word.m === undefined) {
      if (current < 0) throw new Error(`a word of no known speaker: ${word.w}`);
      words[current]!.push(word.w);
    }
  }
  return words;
}

/** The bare engine on each file in turn, as a user of pocketsphinx alone would run it. */
export async function bareRecognise(files: readonly string[]): Promise<Heard> {
  const start = performance.now();
  const channels: string[][] = [];
  for (const file of files) channels.push(await barePocketsphinx(file));
  return { channels, ms: performance.now() - start };
}

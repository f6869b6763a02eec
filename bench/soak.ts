/**
 * Soak: uploads with callbacks to a misbehaving receiver while Hark is killed and stopped at random, then
 * a reckoning that nothing was lost and nothing delivered twice.
 *
 *   npm run bench:soak                      (10 minutes of chaos, then the drain)
 *   node bench/soak.ts --minutes 2          (a short run)
 *
 * Hark runs as `npm start` runs it (`src/main.ts`, embedded PostgreSQL) on one data directory, by the
 * supervisor (bench/support/supervisor.ts): up for 15–45 s, then SIGKILLed with PostgreSQL (a power cut)
 * or SIGTERMed (a deploy), and started again on the same data. Meanwhile a client uploads a short flite
 * recording every few seconds, each with 1 to 3 callbacks (analytics JSON, SRT, text, the audio; POST or
 * PUT) to the chaos receiver (bench/support/chaos-receiver.ts), which answers 500 and 503, resets
 * connections, answers past the sender's time limit, and answers 410 Gone, as each callback's URL tells it.
 *
 * Hark's retry schedule is 15 h 45 min long by default; the soak shortens it with HARK_CALLBACK_SCHEDULE
 * (0, 5 s, 15 s, 30 s, 60 s; 3 tries each) and makes the receiver's faults transient per callback (a
 * callback fails its first 1–4 tries at most), so every callback that the receiver would take must be
 * delivered within the run. Some callbacks are answered 410 (they must end exhausted after that try) and
 * some 503 for ever (they must end exhausted at the schedule's last attempt, not before).
 *
 * After the chaos Hark is left running until every accepted upload has ended and every callback is
 * delivered or exhausted (or the drain deadline passes), and the figures are printed. Exit status 1 when
 * anything is lost or duplicated (see bench/support/soak-accounting.ts for the exact rules).
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { freePort } from "../src/net/free-port.ts";
import { buildSpeech, tempDir } from "../test/pipeline/speech.ts";
import { createAccountOver } from "../test/support/http-client.ts";
import { dataDir, stopAllProcesses } from "../test/support/service-process.ts";
import { type ChaosReceiver, startChaosReceiver } from "./support/chaos-receiver.ts";
import { collect, type Figures, type ItemReport, reckon, settled } from "./support/soak-accounting.ts";
import {
  findByExternalId,
  hasEnded,
  randomCallbacks,
  upload,
  type UploadResult,
} from "./support/soak-uploads.ts";
import { type StopSignal, type Supervisor, supervise } from "./support/supervisor.ts";

const ADMIN_TOKEN = "soak-admin-token-0123456789";
const SCHEDULE = "0,5s,15s,30s,60s";
const SCHEDULED_ATTEMPTS = SCHEDULE.split(",").length;
const BURST = 3;
/** A flaky callback fails at most this many tries: well within the schedule's 15. */
const MAX_FAULTS = 4;
/** The sender's time limit per try, and how long a slow answer is held (past it). */
const CALLBACK_TIMEOUT_SECONDS = 2;
const SLOW_MS = 4_000;
const STOP_TIMEOUT_SECONDS = 10;
const UP_SECONDS = { min: 15, max: 45 };
const MAX_UPLOADS_IN_FLIGHT = 4;
/**
 * Accepted uploads not yet ended, at most: the client waits for one to end before it uploads more, so the
 * number of uploads follows what the machine can process (a 3 s call takes 10-17 s on 2 busy cores) and
 * the drain after the chaos stays short.
 */
const MAX_BACKLOG = 3;
const POLL_MS = 5_000;

const { values: args } = parseArgs({
  options: {
    minutes: { type: "string", default: "10" },
    "upload-every": { type: "string", default: "3" },
    "drain-minutes": { type: "string", default: "5" },
    seed: { type: "string" },
  },
});
const chaosMs = Number(args.minutes) * 60_000;
const uploadEveryMs = Number(args["upload-every"]) * 1000;
const drainMs = Number(args["drain-minutes"]) * 60_000;
const random = seeded(Number(args.seed ?? Date.now() % 1_000_000));

async function main(): Promise<void> {
  if (!(chaosMs > 0 && uploadEveryMs > 0 && drainMs > 0))
    throw new Error("--minutes, --upload-every and --drain-minutes take positive numbers");
  const started = Date.now();
  const speech = await tempDir("hark-soak-audio-");
  const receiver = await startChaosReceiver(SLOW_MS);
  const port = await freePort();
  const supervisor = supervise(
    {
      HARK_DATA_DIR: await dataDir(),
      PORT: String(port),
      HARK_ADMIN_TOKEN: ADMIN_TOKEN,
      HARK_CALLBACK_ALLOW_HTTP: "true",
      HARK_CALLBACK_ALLOW_PRIVATE: "true",
      HARK_CALLBACK_SCHEDULE: SCHEDULE,
      HARK_CALLBACK_BURST: String(BURST),
      HARK_CALLBACK_TIMEOUT: String(CALLBACK_TIMEOUT_SECONDS),
      HARK_STOP_TIMEOUT: String(STOP_TIMEOUT_SECONDS),
      HARK_LOG_LEVEL: "info",
    },
    STOP_TIMEOUT_SECONDS,
  );
  process.on("exit", () => supervisor.killNow());
  try {
    const file = path.join(speech.dir, "call.wav");
    const { lengthMs } = await buildSpeech(
      [{ text: "thank you for calling how can I help you today" }, { silenceMs: 300 }],
      file,
    );
    console.log(
      `soak: ${args.minutes} min of chaos on ${os.availableParallelism()} cores; a ${(lengthMs / 1000).toFixed(1)} s ` +
        `recording every ${args["upload-every"]} s while fewer than ${MAX_BACKLOG} are unended; schedule ${SCHEDULE} x ${BURST} tries; ` +
        `Hark up ${UP_SECONDS.min}-${UP_SECONDS.max} s between stops`,
    );
    await supervisor.start();
    const token = await createAccountOver(supervisor.address() as string, ADMIN_TOKEN, "soak");
    const chaosEnd = Date.now() + chaosMs;
    const [uploads] = await Promise.all([
      uploadUntil(chaosEnd, supervisor, token, file, receiver),
      chaosUntil(chaosEnd, supervisor),
    ]);
    const address = supervisor.address() as string;
    console.log(
      `chaos over after ${minutes(Date.now() - started)}; draining (deadline ${args["drain-minutes"]} min)`,
    );
    const accepted = await acceptedIds(address, token, uploads);
    const items = await drain(address, token, accepted);
    const figures = reckon(items, receiver.tries, supervisor.stops, SCHEDULED_ATTEMPTS);
    print(figures, uploads, supervisor, receiver, Date.now() - started);
    console.log(`Hark's output, one file per run: ${await keepLogs(supervisor)}`);
    await supervisor.stop("SIGTERM");
    if (figures.problems.length > 0 || figures.uploads.notEnded > 0) process.exitCode = 1;
  } finally {
    supervisor.killNow();
    await receiver.close();
    await stopAllProcesses();
    await speech.cleanup();
  }
}

/** Uploads one recording every `uploadEveryMs` until `end`, with at most a few in flight. */
async function uploadUntil(
  end: number,
  supervisor: Supervisor,
  token: string,
  file: string,
  receiver: ChaosReceiver,
): Promise<UploadResult[]> {
  const results: UploadResult[] = [];
  const inFlight = new Set<Promise<void>>();
  const unended = new Set<string>();
  let sequence = 0;
  while (Date.now() < end) {
    if (unended.size + inFlight.size >= MAX_BACKLOG) await forgetEnded(supervisor, token, unended);
    if (inFlight.size < MAX_UPLOADS_IN_FLIGHT && unended.size + inFlight.size < MAX_BACKLOG) {
      const externalId = `soak-${++sequence}-${randomUUID().slice(0, 8)}`;
      const callbacks = randomCallbacks(receiver.url, random, MAX_FAULTS);
      const task = upload(supervisor.address(), token, file, externalId, callbacks).then((result) => {
        results.push(result);
        if (result.outcome === "accepted") unended.add(result.mediaId);
        inFlight.delete(task);
      });
      inFlight.add(task);
    }
    await delay(uploadEveryMs);
  }
  await Promise.all(inFlight);
  return results;
}

/** Removes from `unended` the items Hark says have ended (none while Hark is down). */
async function forgetEnded(supervisor: Supervisor, token: string, unended: Set<string>): Promise<void> {
  for (const mediaId of unended) {
    const address = supervisor.address();
    if (address === undefined) return;
    if (await hasEnded(address, token, mediaId)) unended.delete(mediaId);
  }
}

/** Stops Hark at random (SIGKILL or SIGTERM) and starts it again, until `end`; leaves it running. */
async function chaosUntil(end: number, supervisor: Supervisor): Promise<void> {
  for (;;) {
    const upMs = (UP_SECONDS.min + random() * (UP_SECONDS.max - UP_SECONDS.min)) * 1000;
    if (Date.now() + upMs >= end) {
      await delay(Math.max(0, end - Date.now()));
      return;
    }
    await delay(upMs);
    const signal: StopSignal = random() < 0.5 ? "SIGKILL" : "SIGTERM";
    await supervisor.stop(signal);
    await supervisor.start();
  }
}

/** Media ids of every accepted upload, those cut by a stop included when Hark did accept them. */
async function acceptedIds(address: string, token: string, uploads: UploadResult[]): Promise<string[]> {
  const ids: string[] = [];
  for (const result of uploads) {
    if (result.outcome === "accepted") ids.push(result.mediaId);
    if (result.outcome !== "unanswered") continue;
    const found = await findByExternalId(address, token, result.externalId);
    if (found) ids.push(found);
  }
  return ids;
}

/** Reads every item until all have settled or the drain deadline passes; the last reading. */
async function drain(address: string, token: string, mediaIds: string[]): Promise<ItemReport[]> {
  const deadline = Date.now() + drainMs;
  for (;;) {
    const items: ItemReport[] = [];
    for (const id of mediaIds) items.push(await collect(address, token, id));
    const open = items.filter((item) => !settled(item)).length;
    if (open === 0 || Date.now() > deadline) {
      if (open > 0) console.log(`drain deadline passed with ${open} items not settled`);
      return items;
    }
    await delay(POLL_MS);
  }
}

function print(
  figures: Figures,
  uploads: UploadResult[],
  supervisor: Supervisor,
  receiver: ChaosReceiver,
  elapsedMs: number,
): void {
  const count = (outcome: UploadResult["outcome"]) => uploads.filter((u) => u.outcome === outcome).length;
  const { uploads: u, callbacks: c } = figures;
  const kills = supervisor.stops.filter((s) => s.signal === "SIGKILL").length;
  const rows: [string, string | number][] = [
    ["run", `${minutes(elapsedMs)} in all; ${kills} SIGKILL, ${supervisor.stops.length - kills} SIGTERM`],
    ["uploads sent", uploads.length - count("not-sent")],
    ["  refused (an answer other than 200)", count("refused")],
    ["  cut by a stop before an answer", count("unanswered")],
    ["uploads accepted", u.accepted],
    ["  finished", u.finished],
    ["  failed", u.failed],
    ["  not ended (LOST)", u.notEnded],
    ["callbacks owed", c.owed],
    ["  delivered", c.delivered],
    ["  exhausted: receiver answered 410", c.exhausted410],
    ["  exhausted: schedule ran out", c.exhaustedScheduleRanOut],
    ["  lost", c.lost],
    ["  duplicated", c.duplicated],
    ["  re-sent after a SIGKILL cut the record", c.resentAfterStop.SIGKILL],
    ["  re-sent after a SIGTERM cut the record", c.resentAfterStop.SIGTERM],
    ["callbacks skipped (not owed)", c.skipped],
    ["tries Hark recorded", c.triesByHark],
    ["requests the receiver answered", JSON.stringify(receiver.answeredCounts())],
  ];
  for (const [label, value] of rows) console.log(`${label.padEnd(44)} ${value}`);
  for (const problem of figures.problems) console.log(problem);
  for (const refusal of uploads.filter((r) => r.outcome === "refused").slice(0, 5))
    console.log(`refused upload ${refusal.externalId}: ${refusal.status} ${refusal.body.slice(0, 300)}`);
  for (const trouble of supervisor.troubles) console.log(`TROUBLE ${trouble}`);
  for (const stop of supervisor.stops)
    console.log(`stop: ${new Date(stop.at).toISOString().slice(11, 23)} ${stop.signal} (exit ${stop.exit})`);
  const clean = figures.problems.length === 0 && u.notEnded === 0;
  console.log(clean ? "nothing lost, nothing duplicated" : "LOSS OR DUPLICATE: see the lines above");
}

/** Writes each run's output to a directory that outlives the soak; resolves to its path. */
async function keepLogs(supervisor: Supervisor): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-soak-logs-"));
  for (const [index, output] of supervisor.outputs().entries())
    await fs.writeFile(path.join(dir, `run-${String(index + 1).padStart(2, "0")}.log`), output);
  return dir;
}

/** A small seeded generator (mulberry32), so that a run's choices can be replayed with --seed. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  console.log(`seed ${seed}`);
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const minutes = (ms: number) => `${(ms / 60_000).toFixed(1)} min`;

await main();

/**
 * Scale-out on one machine: the throughput of a batch of uploads processed by ONE `hark worker` process,
 * then by TWO, and the ratio. Each run is Hark as a split deployment runs it: `node src/main.ts api` and
 * the worker processes, separate processes meeting in one PostgreSQL (an embedded server, one for the
 * bench, a fresh database per run so a run never sees another's jobs) and one data directory (the
 * filesystem blob store, shared as machines would share a bucket). A batch of N copies of one ~19 s
 * recording is uploaded, each with an analytics callback to a local receiver; a run's time is from the
 * first upload to the last callback received, so it includes upload, queueing, processing and delivery.
 *
 *   npm run bench:workers       (or: node bench/workers.ts [items], default 8)
 *
 * Each worker process takes one item at a time (`HARK_WORKER_CONCURRENCY=1`) with one pocketsphinx
 * process (`HARK_RECOGNIZER_CONCURRENCY=1`), so it uses about one core, as it would use the one machine
 * it runs on. Left at their defaults (one recogniser per core), a single worker would already spread an
 * item over both cores of this machine and a second would have none left to add: the ratio would measure
 * contention, not whether work spreads across worker processes.
 *
 * The ratio is throughput with 2 workers / with 1. On 2 cores the ideal is 2.0: the items split evenly
 * and nothing shared (database, API, queue) holds them back. What it falls short by is what the API,
 * PostgreSQL and delivery take from the cores, plus the tail of an odd split of the batch. To tell these
 * apart each run also prints the CPU its processes used (as cores busy over the run) and how long a
 * worker waited, from its log lines, between ending one item and starting the next. Such a wait is a core
 * idle with items queued: while it is large, throughput is set by how soon the job queue hands a worker
 * its next item, not by the cores, and the ratio can even pass 2.0 (the last item's processing, a fixed
 * tail, weighs less in the longer run); the reading line says so.
 */
import { rmSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { freePort } from "../src/net/free-port.ts";
import { type EmbeddedServer, startEmbeddedPostgres } from "../src/store/embedded-postgres.ts";
import { buildSpeech, type FliteVoice, type SpeechPart } from "../test/pipeline/speech.ts";
import { freshDatabase } from "../test/support/database.ts";
import { createAccountOver, uploadOver } from "../test/support/http-client.ts";
import { type Receiver, startReceiver } from "../test/support/receiver.ts";
import {
  postgresOf,
  type Running,
  running,
  STOP_SECONDS,
  startMain,
  started,
} from "../test/support/service-process.ts";
import { within } from "../test/support/within.ts";

const SENTENCES: [FliteVoice, string][] = [
  ["rms", "thank you for calling customer support my name is john how can I help you today"],
  ["slt", "hi I am calling about my internet service it has been very slow for two weeks"],
  ["rms", "I am sorry to hear that let me look up your account"],
  ["rms", "I can see there was an outage in your area last week"],
];

const items = Number(process.argv[2] ?? 8);
const ADMIN_TOKEN = "bench-admin-token-0123456789";
/** A run that has not delivered every callback by then is stuck, not slow. */
const RUN_DEADLINE_MS = 180_000;

interface RunResult {
  workers: number;
  ms: number;
  /** Items each worker process ended, in start order. */
  split: number[];
  /** Mean time, in ms, a worker process took from ending one item to starting its next. */
  waitMs: number;
  /** CPU seconds spent during the batch by the worker processes (with their children), the API, PostgreSQL. */
  cpu: { workers: number; api: number; postgres: number };
}

/** Every Hark process started, so that none outlives the bench, however it ends. */
const launched: Running[] = [];

async function main(): Promise<void> {
  if (!Number.isInteger(items) || items < 1)
    throw new Error(`items must be a positive integer, got ${items}`);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-bench-workers-"));
  // Also on Ctrl-C, which ends this process through embedded-postgres's exit hook (it stops the server
  // first), past the `finally`s below, and reaches none of the Hark processes: each runs in a process
  // group of its own.
  process.on("exit", () => {
    for (const hark of launched) killGroup(hark);
    rmSync(dir, { recursive: true, force: true });
  });
  await fs.chmod(dir, 0o755); // the embedded server may run as another user (root cannot run it)
  let postgres: EmbeddedServer | undefined;
  const receiver = await startReceiver();
  try {
    const file = path.join(dir, "call.wav");
    // Pauses between turns, as a real call has.
    const parts: SpeechPart[] = SENTENCES.flatMap(([voice, text]) => [{ text, voice }, { silenceMs: 700 }]);
    const { lengthMs } = await buildSpeech(parts, file);
    if (lengthMs < 15_000 || lengthMs > 20_000) {
      throw new Error(`the benchmark call lasts ${lengthMs} ms; it must last 15 to 20 s`);
    }
    console.log(
      `audio: ${(lengthMs / 1000).toFixed(1)} s, ${items} items per run, ${os.availableParallelism()} cores`,
    );
    postgres = await startEmbeddedPostgres({ dir: path.join(dir, "postgres"), log: () => {} });
    const adminUrl = postgres.url.replace(/\/[^/]*$/, "/postgres");

    const results: RunResult[] = [];
    for (const workers of [1, 2]) {
      const dataDir = path.join(dir, `data-${workers}`);
      const result = await run(workers, file, adminUrl, receiver, dataDir, dir);
      results.push(result);
      console.log(
        `workers: ${workers}, items: ${items}, ${(result.ms / 1000).toFixed(1)} s, ` +
          `${perMinute(result).toFixed(2)} items/minute (items per worker: ${result.split.join(" + ")})`,
      );
      const { cpu } = result;
      const cores = (cpuSeconds: number) => ((cpuSeconds * 1000) / result.ms).toFixed(2);
      console.log(
        `    CPU in cores busy: workers ${cores(cpu.workers)} (${(cpu.workers / items).toFixed(2)} s/item), ` +
          `api ${cores(cpu.api)}, PostgreSQL ${cores(cpu.postgres)}; ` +
          `a worker waited ${(result.waitMs / 1000).toFixed(2)} s on average between items`,
      );
    }
    const [one, two] = results as [RunResult, RunResult];
    const ratio = perMinute(two) / perMinute(one);
    console.log(`ratio (2 workers / 1 worker throughput): ${ratio.toFixed(2)}`);
    console.log(reading(ratio, results));
  } finally {
    await receiver.close();
    await postgres?.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** One API process and `workers` worker processes on a fresh database; the batch through them. */
async function run(
  workers: number,
  file: string,
  adminUrl: string,
  receiver: Receiver,
  dataDir: string,
  postgresDir: string,
): Promise<RunResult> {
  const database = await freshDatabase({ adminUrl });
  const processes: Running[] = [];
  const port = await freePort();
  const address = `http://127.0.0.1:${port}`;
  const shared = {
    HARK_DATABASE_URL: database.url,
    HARK_DATA_DIR: dataDir,
    HARK_PUBLIC_URL: address,
    HARK_CALLBACK_ALLOW_HTTP: "true",
    HARK_CALLBACK_ALLOW_PRIVATE: "true",
    // "Hark is running" and "processing ended" are info lines.
    HARK_LOG_LEVEL: "info",
  };
  const start = (env: Record<string, string>, role: "api" | "worker") => {
    const hark = startMain({ ...shared, ...env }, [role]);
    processes.push(hark);
    launched.push(hark);
    return hark;
  };
  try {
    // The API first: it migrates the fresh database before the workers look at it.
    await running(start({ PORT: String(port), HARK_ADMIN_TOKEN: ADMIN_TOKEN }, "api"));
    const workerProcesses = Array.from({ length: workers }, () =>
      start({ HARK_WORKER_CONCURRENCY: "1", HARK_RECOGNIZER_CONCURRENCY: "1" }, "worker"),
    );
    await Promise.all(workerProcesses.map(started));
    const token = await createAccountOver(address, ADMIN_TOKEN, "bench");
    const [api, ...rest] = processes as [Running, ...Running[]];
    const cpu = async () => ({
      workers: await cpuOf(rest.map((hark) => hark.child.pid as number)),
      api: await cpuOf([api.child.pid as number]),
      postgres: await cpuOf((await postgresOf(postgresDir)).map((p) => p.pid)),
    });
    const cpuBefore = await cpu();

    const paths = Array.from({ length: items }, (_, index) => `/${workers}-workers/${index}`);
    const callbacks = Promise.all(paths.map((callbackPath) => receiver.next(callbackPath)));
    const firstUpload = Date.now();
    const mediaIds: string[] = [];
    for (const callbackPath of paths) {
      const configuration = { publish: { callbacks: [{ url: `${receiver.url}${callbackPath}` }] } };
      mediaIds.push(await uploadOver(address, token, file, configuration));
    }
    const received = await within(callbacks, RUN_DEADLINE_MS, `${workers} worker(s): every callback`);
    const ms = Math.max(...received.map((request) => request.at)) - firstUpload;
    const cpuAfter = await cpu();

    for (const [index, request] of received.entries()) {
      const body = JSON.parse(request.body.toString()) as { mediaId: string; status: string };
      if (body.mediaId !== mediaIds[index] || body.status !== "finished") {
        throw new Error(`item ${index} (${mediaIds[index]}): callback ${JSON.stringify(body)}`);
      }
    }
    for (const mediaId of mediaIds) {
      const response = await fetch(`${address}/v3/media/${mediaId}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const { status } = (await response.json()) as { status: string };
      if (status !== "finished") throw new Error(`${mediaId} is ${status}`);
    }
    const { split, waitMs } = pickup(workerProcesses);

    for (const hark of processes) hark.child.kill("SIGTERM");
    for (const hark of processes) {
      const exit = await hark.exit(STOP_SECONDS);
      if (exit.code !== 0)
        throw new Error(`a Hark process stopped with ${JSON.stringify(exit)}:\n${hark.output()}`);
    }
    const cpuUsed = {
      workers: cpuAfter.workers - cpuBefore.workers,
      api: cpuAfter.api - cpuBefore.api,
      postgres: cpuAfter.postgres - cpuBefore.postgres,
    };
    return { workers, ms, split, waitMs, cpu: cpuUsed };
  } finally {
    for (const hark of processes) {
      killGroup(hark);
      await hark.exit(STOP_SECONDS);
    }
    await database.drop();
  }
}

/**
 * From the workers' log lines: how many items each ended, and how long, on average, each waited between
 * ending an item and starting its next: time its core sat idle with items still queued.
 */
function pickup(workers: readonly Running[]): { split: number[]; waitMs: number } {
  const waits: number[] = [];
  const split = workers.map((worker) => {
    let endedAt: number | undefined;
    let ended = 0;
    for (const line of stdoutLines(worker)) {
      if (line.msg === "processing started" && endedAt !== undefined) waits.push(Number(line.time) - endedAt);
      if (line.msg === "processing ended") {
        endedAt = Number(line.time);
        ended++;
      }
    }
    return ended;
  });
  return { split, waitMs: waits.length ? waits.reduce((a, b) => a + b) / waits.length : 0 };
}

/** The JSON log lines a Hark process wrote to stdout so far. */
function stdoutLines(hark: Running): Record<string, unknown>[] {
  const stdout = hark.output().slice("stdout:\n".length, hark.output().lastIndexOf("\nstderr:\n"));
  return stdout.split("\n").flatMap((text) => {
    try {
      return [JSON.parse(text) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/**
 * CPU seconds of `pids`, with their children that have ended (a worker's ffmpeg and pocketsphinx runs,
 * PostgreSQL's closed backends). A child still running is not counted: measure when the work is done.
 */
async function cpuOf(pids: readonly number[]): Promise<number> {
  const ticksPerSecond = 100; // USER_HZ
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime, stime, cutime, cstime
      for (const index of [11, 12, 13, 14]) ticks += Number(fields[index]);
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks / ticksPerSecond;
}

/**
 * SIGKILL to the process group of a Hark process still running (startMain gives each its own): its
 * ffmpeg and pocketsphinx children too, which would otherwise outlive it.
 */
function killGroup(hark: Running): void {
  if (hark.child.exitCode !== null || hark.child.signalCode !== null) return;
  try {
    process.kill(-(hark.child.pid as number), "SIGKILL");
  } catch {
    // Gone meanwhile.
  }
}

function reading(ratio: number, results: readonly RunResult[]): string {
  const cores = os.availableParallelism();
  const ideal = Math.min(2, cores);
  const waitMs = Math.max(...results.map((result) => result.waitMs));
  const share = `${((ratio / ideal) * 100).toFixed(0)}% of the ideal ${ideal.toFixed(1)} on ${cores} cores`;
  // Idle time between items caps each worker below its core: the ratio then compares pickup, not cores.
  if (waitMs > 500) {
    return (
      `reading: ${share}, but not a measure of the cores: workers idled ${(waitMs / 1000).toFixed(1)} s ` +
      `on average between items with work queued, so its pickup, not its core, set the pace`
    );
  }
  if (ratio >= 0.9 * ideal) return `reading: ${share}; a second worker process adds nearly a whole worker`;
  return `reading: ${share}; the API, PostgreSQL, delivery or an uneven split take the rest`;
}

const perMinute = (result: RunResult) => (items / result.ms) * 60_000;

await main();

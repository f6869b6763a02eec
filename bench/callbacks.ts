/**
 * Callback delivery under load: Hark delivering analytics callbacks to a local receiver, without speech
 * recognition. Starts Hark in this process (embedded PostgreSQL, no processing workers), inserts media
 * items with one analytics callback each through the store, and ends their processing with
 * `endProcessing`, which renders each body and queues its first try exactly as real processing does.
 * Measures, in one run:
 *
 *   (a) throughput: 10,000 items ended with no delivery running, then the 10,000 callbacks they queued
 *       delivered: deliveries/s from the start of the dispatcher to the last receipt (target: at least
 *       1,000/s on 2 cores) — the bare loop's work in (c), plus the queue. Then (a+), for reference,
 *       10,000 more items ended as fast as possible while their callbacks are delivered, from the first
 *       end to the last receipt: ending (a database write of the whole result) then shares the two
 *       cores, which in real use it does at the pace of speech recognition, a few items a second;
 *   (b) latency at a steady 200 ends/s for 10 s: per callback, from its `endProcessing` returning to its
 *       receipt (matched by `webhook-id`), p50 and p99 (target: p99 under 250 ms);
 *   (c) baseline: a bare undici loop posting the same bodies to the same receiver with the same
 *       concurrency; deliveries/s, and the ratio Hark / bare.
 *
 * The receiver is a plain `node:http` server in a child process: in this process it would share Hark's
 * event loop and its CPU time would be charged to Hark (and to the bare loop), hiding where the time
 * goes. It stamps each receipt with `performance.timeOrigin + performance.now()`, comparable across
 * processes, and hands the stamps back over IPC in one message per phase.
 *
 *   npm run bench:callbacks     (or: node bench/callbacks.ts [--profile])
 *
 * Each phase prints the CPU time it cost, per item, of this process and of PostgreSQL. `--profile` also
 * times every database round trip (by statement) and HTTP try during (a+), and prints them per delivery.
 */
import { type ChildProcess, fork } from "node:child_process";
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { Agent, request } from "undici";
import { startDispatcher } from "../src/callbacks/dispatcher.ts";
import { USER_AGENT } from "../src/callbacks/user-agent.ts";
import type { Transcript } from "../src/domain/transcript.ts";
import { alternateFormats } from "../src/formats/index.ts";
import { parseConfiguration } from "../src/intake/configuration.ts";
import { assembleTranscript } from "../src/pipeline/assemble.ts";
import { endProcessing } from "../src/processing/end-processing.ts";
import { type RunningHark, startHark } from "../src/server.ts";
import type { Services, Stoppable } from "../src/services.ts";
import { loadSettings } from "../src/settings.ts";
import { createAccount } from "../src/store/accounts.ts";
import type { Sql } from "../src/store/database.ts";
import { insertMedia, startProcessing } from "../src/store/media.ts";
import { postgresOf } from "../test/support/service-process.ts";
import { within } from "../test/support/within.ts";

const THROUGHPUT_ITEMS = 10_000;
const STEADY_RATE = 200;
const STEADY_SECONDS = 10;
const CONCURRENCY = 100;
/** Callers ending items at once in (a) and (a+): enough to keep the database pool busy. */
const END_CALLERS = 16;
const TARGET_THROUGHPUT = 1000;
const TARGET_P99_MS = 250;
/** No phase may take longer than this. */
const PHASE_DEADLINE_MS = 300_000;

const now = () => performance.timeOrigin + performance.now();

type ReceiverMessage =
  { type: "listening"; port: number } | { type: "collected"; receipts: [id: string, at: number][] };

/** The child: answers every request 200 and stamps its arrival. */
function runReceiver(): void {
  const send = (message: ReceiverMessage) => process.send?.(message);
  let receipts: [string, number][] = [];
  let wanted: number | undefined;
  const deliverIfDone = () => {
    if (wanted === undefined || receipts.length < wanted) return;
    send({ type: "collected", receipts });
    receipts = [];
    wanted = undefined;
  };
  const server = http.createServer((req, res) => {
    req.on("data", () => {});
    req.on("end", () => {
      receipts.push([String(req.headers["webhook-id"]), now()]);
      res.writeHead(200, { "content-type": "text/plain", "content-length": "2" }).end("ok");
      deliverIfDone();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () =>
    send({ type: "listening", port: (server.address() as AddressInfo).port }),
  );
  process.on("message", (message: { type: "collect"; count: number } | { type: "exit" }) => {
    if (message.type === "exit") {
      server.closeAllConnections();
      server.close(() => process.exit(0));
      return;
    }
    wanted = message.count;
    deliverIfDone();
  });
}

interface ReceiverHandle {
  url: string;
  /** Resolves with the next `count` receipts (id → time), once they are all in. */
  collect(count: number): Promise<Map<string, number>>;
  stop(): Promise<void>;
}

async function startReceiverProcess(): Promise<ReceiverHandle> {
  const child: ChildProcess = fork(import.meta.filename, ["--receiver"], { stdio: "inherit" });
  const [listening] = (await once(child, "message")) as [ReceiverMessage];
  if (listening.type !== "listening") throw new Error("the receiver did not start");
  return {
    url: `http://127.0.0.1:${listening.port}`,
    async collect(count) {
      child.send({ type: "collect", count });
      const [message] = (await within(
        once(child, "message") as Promise<[ReceiverMessage]>,
        PHASE_DEADLINE_MS,
        `${count} receipts`,
      )) as [ReceiverMessage];
      if (message.type !== "collected") throw new Error("unexpected receiver message");
      return new Map(message.receipts);
    },
    async stop() {
      child.send({ type: "exit" });
      await once(child, "exit");
    },
  };
}

interface Item {
  mediaId: string;
  deliveryId: string;
}

async function main(): Promise<void> {
  const profile = process.argv.includes("--profile");
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-bench-callbacks-"));
  await fs.chmod(dir, 0o755); // the embedded server may run as another user
  const receiver = await startReceiverProcess();
  // No dispatcher from startHark: this one starts the very same one itself (as startWorkers would, with
  // HARK_CALLBACK_CONCURRENCY), so that (a) can queue a backlog before it runs.
  const settings = loadSettings({
    HARK_DATA_DIR: dir,
    PORT: "0",
    HARK_WORKER_CONCURRENCY: "0",
    HARK_CALLBACK_ALLOW_HTTP: "true",
    HARK_CALLBACK_ALLOW_PRIVATE: "true",
    HARK_CALLBACK_CONCURRENCY: "0",
    HARK_LOG_LEVEL: "warn",
  });
  let hark: RunningHark | undefined;
  let dispatcher: Stoppable | undefined;
  try {
    hark = await startHark(settings, pino({ level: "warn" }));
    const { services } = hark;
    console.log(
      `${os.availableParallelism()} cores; callback concurrency ${CONCURRENCY}, database pool ${settings.databasePoolSize}`,
    );
    const url = `${receiver.url}/callback`;
    const steadyItems = STEADY_RATE * STEADY_SECONDS;
    const items = await createItems(services, url, 2 * THROUGHPUT_ITEMS + steadyItems);
    const backlogItems = items.slice(0, THROUGHPUT_ITEMS);
    const throughputItems = items.slice(THROUGHPUT_ITEMS, 2 * THROUGHPUT_ITEMS);
    const steady = items.slice(2 * THROUGHPUT_ITEMS);
    const cpu = await cpuMeter(dir);

    // (a) ending with no delivery running, then delivering the backlog that left.
    await cpu.reset();
    let started = now();
    const backlogEnded = await endAll(services, backlogItems, END_CALLERS);
    console.log(
      `(a) ${THROUGHPUT_ITEMS} ends alone: ${rate(THROUGHPUT_ITEMS, backlogEnded - started)} ends/s; ${await cpu.report(THROUGHPUT_ITEMS, backlogEnded - started)}`,
    );
    let succeeded = countSucceeded(services, THROUGHPUT_ITEMS);
    await cpu.reset();
    started = now();
    dispatcher = startDispatcher(services, CONCURRENCY);
    let receipts = await receiver.collect(THROUGHPUT_ITEMS);
    await within(succeeded, PHASE_DEADLINE_MS, "every backlog delivery recorded as succeeded");
    let elapsed = Math.max(...receipts.values()) - started;
    const backlogRate = (THROUGHPUT_ITEMS / elapsed) * 1000;
    console.log(
      `(a) the ${THROUGHPUT_ITEMS} queued callbacks delivered: ${backlogRate.toFixed(0)} deliveries/s ` +
        `(target >= ${TARGET_THROUGHPUT})${verdict(backlogRate >= TARGET_THROUGHPUT)}; ${await cpu.report(THROUGHPUT_ITEMS, elapsed)}`,
    );

    // (a+) ending and delivering at once
    const profiler = profile ? instrument(services) : undefined;
    succeeded = countSucceeded(services, THROUGHPUT_ITEMS);
    await cpu.reset();
    started = now();
    const endsDone = endAll(services, throughputItems, END_CALLERS);
    receipts = await receiver.collect(THROUGHPUT_ITEMS);
    const endedAt = await endsDone;
    await within(succeeded, PHASE_DEADLINE_MS, "every delivery recorded as succeeded");
    profiler?.stop();
    elapsed = Math.max(...receipts.values()) - started;
    const harkRate = (THROUGHPUT_ITEMS / elapsed) * 1000;
    console.log(
      `(a+) ending and delivering at once: ${THROUGHPUT_ITEMS} ended in ${seconds(endedAt - started)} (${rate(THROUGHPUT_ITEMS, endedAt - started)} ends/s); ` +
        `delivered in ${seconds(elapsed)}: ${harkRate.toFixed(0)} deliveries/s ` +
        `(for reference); ${await cpu.report(THROUGHPUT_ITEMS, elapsed)}`,
    );
    if (profiler) profiler.print(THROUGHPUT_ITEMS);

    // (b) latency at a steady rate
    const steadySucceeded = countSucceeded(services, steady.length);
    const { returned, endMs } = await endAtRate(services, steady, STEADY_RATE);
    const steadyReceipts = await receiver.collect(steady.length);
    await within(steadySucceeded, PHASE_DEADLINE_MS, "every steady delivery recorded as succeeded");
    const latencies = steady.map((item) => {
      const at = steadyReceipts.get(item.deliveryId);
      const back = returned.get(item.deliveryId);
      if (at === undefined || back === undefined) throw new Error(`no receipt for ${item.deliveryId}`);
      return at - back;
    });
    const p99 = percentile(latencies, 0.99);
    console.log(
      `(b) latency at ${STEADY_RATE} ends/s for ${STEADY_SECONDS} s: end returned to receipt p50 ${ms(percentile(latencies, 0.5))}, ` +
        `p99 ${ms(p99)}, max ${ms(Math.max(...latencies))} (target p99 < ${TARGET_P99_MS} ms)${verdict(p99 < TARGET_P99_MS)}`,
    );
    console.log(
      `    endProcessing itself: p50 ${ms(percentile(endMs, 0.5))}, p99 ${ms(percentile(endMs, 0.99))}`,
    );
    await dispatcher.stop();
    dispatcher = undefined;

    // (c) bare undici, same bodies, same receiver, same concurrency
    const { rows: bodies } = await services.db.query<{ id: string; body: Buffer }>(
      "select delivery_id as id, body from deliveries where delivery_id = any($1::uuid[])",
      [throughputItems.map((item) => item.deliveryId)],
    );
    await cpu.reset();
    const bareStarted = now();
    const bareCollected = receiver.collect(bodies.length);
    await bareLoop(url, bodies, settings);
    const bareReceipts = await bareCollected;
    const bareElapsed = Math.max(...bareReceipts.values()) - bareStarted;
    const bareRate = (bodies.length / bareElapsed) * 1000;
    console.log(
      `(c) bare undici loop: ${bareRate.toFixed(0)} deliveries/s; ratio Hark (a) / bare ${(backlogRate / bareRate).toFixed(2)} ` +
        `((a+) / bare ${(harkRate / bareRate).toFixed(2)}); ${await cpu.report(bodies.length, bareElapsed)}`,
    );
  } finally {
    await dispatcher?.stop();
    await hark?.stop();
    await receiver.stop();
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * CPU time of this process and of the embedded PostgreSQL server (its processes, from /proc) since the
 * last reset, per item. The receiver's child process is not counted.
 */
async function cpuMeter(dataDir: string) {
  const ticksPerMs = 100 / 1000; // USER_HZ
  const postgresMs = async () => {
    let ticks = 0;
    for (const { pid } of await postgresOf(dataDir)) {
      try {
        const stat = await fs.readFile(`/proc/${pid}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // Gone meanwhile.
      }
    }
    return ticks / ticksPerMs;
  };
  let node = process.cpuUsage();
  let postgres = await postgresMs();
  return {
    async reset() {
      postgres = await postgresMs();
      node = process.cpuUsage();
    },
    async report(count: number, elapsedMs: number): Promise<string> {
      const used = process.cpuUsage(node);
      const nodeMs = (used.user + used.system) / 1000;
      const postgresUsed = (await postgresMs()) - postgres;
      return (
        `CPU: this process ${(nodeMs / elapsedMs).toFixed(2)} cores (${(nodeMs / count).toFixed(2)} ms/item), ` +
        `PostgreSQL ${(postgresUsed / elapsedMs).toFixed(2)} cores (${(postgresUsed / count).toFixed(2)} ms/item)`
      );
    },
  };
}

/** A two-party call of about 40 words: a transcript section as processing would leave it. */
function transcriptSection(): Transcript {
  const turns: [number, string][] = [
    [0, "thank you for calling how can I help you today"],
    [1, "hi I would like to cancel my subscription please"],
    [0, "I am sorry to hear that can I ask why you want to cancel"],
    [1, "it is too expensive and I do not use it any more"],
    [0, "I understand I have cancelled it and sent the refund to your card"],
  ];
  const speakers = [
    {
      speakerName: "Agent",
      channel: 0,
      words: [] as { word: string; start: number; end: number; confidence: number }[],
    },
    {
      speakerName: "Caller",
      channel: 1,
      words: [] as { word: string; start: number; end: number; confidence: number }[],
    },
  ];
  let at = 400;
  for (const [speaker, text] of turns) {
    for (const word of text.split(" ")) {
      speakers[speaker]?.words.push({
        word,
        start: at,
        end: at + 280,
        confidence: 0.8 + (word.length % 3) / 10,
      });
      at += 330;
    }
    at += 900;
  }
  const assembled = assembleTranscript(speakers);
  return { ...assembled, alternateFormats: alternateFormats(assembled.words) };
}

/** Media items, accepted and running, with one analytics callback each to `url`. */
async function createItems(services: Services, url: string, count: number): Promise<Item[]> {
  const account = await createAccount(services.db, `bench-${randomUUID()}`);
  if (!account) throw new Error("no account");
  const parsed = parseConfiguration(JSON.stringify({ publish: { callbacks: [{ url }] } }), {
    allowHttp: true,
    allowPrivate: true,
  });
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.errors));
  const configuration = parsed.value;
  const items: Item[] = Array.from({ length: count }, () => ({
    mediaId: randomUUID(),
    deliveryId: randomUUID(),
  }));
  const batches: Item[][] = [];
  for (let i = 0; i < items.length; i += 250) batches.push(items.slice(i, i + 250));
  await pool(batches, 4, (batch) =>
    services.db.transaction(async (sql) => {
      for (const item of batch) {
        await insertMedia(sql, {
          mediaId: item.mediaId,
          accountId: account.accountId,
          configuration,
          metadata: { externalId: `crm-${item.mediaId.slice(0, 8)}`, title: "Support call" },
          mediaUrl: undefined,
          mediaContentType: "audio/x-wav",
          originalBlob: undefined,
          originalBytes: undefined,
          timeToLiveSeconds: 86400,
          dateCreated: services.clock.now(),
          deliveryIds: [item.deliveryId],
        });
        await sql.query("update media set length_ms = 21000 where media_id = $1", [item.mediaId]);
        await startProcessing(sql, item.mediaId);
      }
    }),
  );
  return items;
}

const SECTIONS = { transcript: transcriptSection() };

function end(services: Services, item: Item): Promise<boolean> {
  return endProcessing(services, item.mediaId, { status: "finished", sections: SECTIONS, messages: [] });
}

/** Ends every item, `callers` at a time; resolves to when the last returned. */
async function endAll(services: Services, items: Item[], callers: number): Promise<number> {
  await pool(items, callers, async (item) => {
    if (!(await end(services, item))) throw new Error(`${item.mediaId} did not end`);
  });
  return now();
}

/** Starts one end every 1/`perSecond` s, on schedule whatever the earlier ones are doing. */
async function endAtRate(
  services: Services,
  items: Item[],
  perSecond: number,
): Promise<{ returned: Map<string, number>; endMs: number[] }> {
  const returned = new Map<string, number>();
  const endMs: number[] = [];
  const calls: Promise<void>[] = [];
  const started = now();
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(items.length, Math.floor(((now() - started) * perSecond) / 1000) + 1);
      for (; next < due; next++) {
        const item = items[next] as Item;
        const callStarted = now();
        calls.push(
          end(services, item).then((ended) => {
            if (!ended) throw new Error(`${item.mediaId} did not end`);
            const back = now();
            returned.set(item.deliveryId, back);
            endMs.push(back - callStarted);
          }),
        );
      }
      if (next < items.length) setTimeout(tick, 1);
      else resolve();
    };
    tick();
  });
  await Promise.all(calls);
  return { returned, endMs };
}

/** Resolves once `count` more deliveries have ended their burst succeeded. */
function countSucceeded(services: Services, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = 0;
    const onEnded = (event: { state: string; deliveryId: string }) => {
      if (event.state !== "succeeded") {
        services.events.off("delivery.burst-ended", onEnded);
        reject(new Error(`delivery ${event.deliveryId} ended ${event.state}`));
        return;
      }
      if (++seen === count) {
        services.events.off("delivery.burst-ended", onEnded);
        resolve();
      }
    };
    services.events.on("delivery.burst-ended", onEnded);
  });
}

/** The same exchange as Hark's sender makes, with nothing around it. */
async function bareLoop(
  url: string,
  bodies: { id: string; body: Buffer }[],
  settings: ReturnType<typeof loadSettings>,
): Promise<void> {
  const agent = new Agent({
    connect: { timeout: settings.callbackConnectTimeoutMs },
    headersTimeout: settings.callbackTimeoutMs,
    bodyTimeout: settings.callbackTimeoutMs,
  });
  try {
    await pool(bodies, CONCURRENCY, async ({ id, body }) => {
      const response = await request(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "content-length": String(body.length),
          "user-agent": USER_AGENT,
          "webhook-id": id,
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        },
        body,
        dispatcher: agent,
        signal: AbortSignal.timeout(settings.callbackTimeoutMs),
      });
      await response.body.text();
      if (response.statusCode !== 200) throw new Error(`HTTP ${response.statusCode}`);
    });
  } finally {
    await agent.close();
  }
}

/**
 * Wraps the database and the sender with timers: per statement kind, how many round trips and how
 * long they took in total. Statements are named by their first words.
 */
function instrument(services: Services): { stop(): void; print(deliveries: number): void } {
  const stats = new Map<string, { count: number; ms: number }>();
  const add = (name: string, ms: number) => {
    const entry = stats.get(name) ?? { count: 0, ms: 0 };
    entry.count++;
    entry.ms += ms;
    stats.set(name, entry);
  };
  const LABELS: [RegExp, string][] = [
    [/^update deliveries d set state = 'trying'/, "deliver: claimDue (a batch)"],
    [/^with attempts as/, "deliver: endBursts (a batch)"],
    [/^with attempt as/, "deliver: recordAttempt"],
    [/^select m\.media_id as key, s\.secret/, "deliver: signing secrets (a batch)"],
    [/^with ended as/, "end: finishProcessing"],
    [/^select m\.\*/, "end: getMedia"],
  ];
  const name = (text: string) => {
    const flat = text.replace(/\s+/g, " ").trim();
    return LABELS.find(([pattern]) => pattern.test(flat))?.[1] ?? flat.split(" ").slice(0, 4).join(" ");
  };
  const timedSql = (sql: Sql): Sql => ({
    async query(text, values) {
      const started = performance.now();
      try {
        return await sql.query(text, values);
      } finally {
        add(name(text), performance.now() - started);
      }
    },
  });
  const db = services.db;
  const original = { query: db.query, send: services.sender.send };
  const timed =
    <A extends unknown[], R>(label: string, fn: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = performance.now();
      try {
        return await fn(...args);
      } finally {
        add(label, performance.now() - started);
      }
    };
  const plainQuery = timedSql({ query: original.query });
  db.query = plainQuery.query;
  services.sender.send = timed("deliver: HTTP try (sender.send)", original.send);
  return {
    stop() {
      db.query = original.query;
      services.sender.send = original.send;
    },
    print(deliveries) {
      console.log(
        `    profile of (a+), per delivery: calls, and the time callers waited for them (pool wait included)`,
      );
      for (const [label, entry] of [...stats].sort((a, b) => b[1].ms - a[1].ms)) {
        console.log(
          `      ${label.padEnd(52)} ${(entry.count / deliveries).toFixed(2).padStart(6)} x  ` +
            `${(entry.ms / deliveries).toFixed(2).padStart(7)} ms/delivery  (${(entry.ms / entry.count).toFixed(2)} ms each)`,
        );
      }
    },
  };
}

/** Runs `work` over `items`, `width` at a time. */
async function pool<T>(
  items: readonly T[],
  width: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? Number.NaN;
}

const seconds = (value: number) => `${(value / 1000).toFixed(2)} s`;
const ms = (value: number) => `${value.toFixed(1)} ms`;
const rate = (count: number, elapsedMs: number) => ((count / elapsedMs) * 1000).toFixed(0);
const verdict = (met: boolean) => (met ? "  MET" : "  MISSED");

if (process.argv.includes("--receiver")) runReceiver();
else await main();

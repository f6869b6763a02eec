/**
 * Starts and stops the whole of Hark in this process: the database (embedded unless
 * `HARK_DATABASE_URL` is set), migrations, jobs, the HTTP API, the processing workers and the sweeper.
 */
import { EventEmitter } from "node:events";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pino, { type Logger } from "pino";
import { buildApp } from "./api/app.ts";
import { filesystemBlobStore } from "./blobs/filesystem-blob-store.ts";
import { startDispatcher } from "./callbacks/dispatcher.ts";
import { undiciSender } from "./callbacks/send.ts";
import { processMedia } from "./jobs/process-media.ts";
import { startJobQueue } from "./jobs/queue.ts";
import { PocketsphinxRecognizer } from "./pipeline/pocketsphinx.ts";
import { type Services, systemClock } from "./services.ts";
import type { Settings } from "./settings.ts";
import { openDatabase } from "./store/database.ts";
import { startEmbeddedPostgres } from "./store/embedded-postgres.ts";
import { migrate } from "./store/migrate.ts";
import { startSweeper } from "./sweeper.ts";

export interface Stoppable {
  stop(): Promise<void>;
}

/** Runs stop steps in the reverse order of their start, each even when an earlier one failed. */
class StopStack implements Stoppable {
  readonly #steps: (() => Promise<unknown>)[] = [];
  readonly #log: Logger;
  constructor(log: Logger) {
    this.#log = log;
  }
  push(step: () => Promise<unknown>): void {
    this.#steps.push(step);
  }
  async stop(): Promise<void> {
    for (const step of this.#steps.splice(0).reverse()) {
      await step().catch((err) => this.#log.error({ err }, "error while stopping"));
    }
  }
}

/** The services on real infrastructure: database (migrated), job queue, blob store, recogniser. */
export async function openServices(settings: Settings, log: Logger): Promise<Services & Stoppable> {
  const stack = new StopStack(log);
  try {
    let databaseUrl = settings.databaseUrl;
    if (databaseUrl === undefined) {
      const embedded = await startEmbeddedPostgres({
        dir: path.join(settings.dataDir, "postgres"),
        log: (message) => log.debug({ component: "postgres" }, message),
      });
      stack.push(() => embedded.stop());
      databaseUrl = embedded.url;
    }
    const db = openDatabase(databaseUrl, settings.databasePoolSize);
    stack.push(() => db.close());
    const applied = await migrate(db);
    if (applied.length > 0) log.info({ migrations: applied }, "database migrated");
    const sender = undiciSender({
      connectTimeoutMs: settings.callbackConnectTimeoutMs,
      timeoutMs: settings.callbackTimeoutMs,
      allowPrivate: settings.callbackAllowPrivate,
      allowCidrs: settings.callbackAllowCidrs,
    });
    stack.push(() => sender.close());
    const jobs = await startJobQueue(databaseUrl, settings.databasePoolSize, (err) =>
      log.error({ err }, "job queue error"),
    );
    stack.push(() => jobs.stop());
    return {
      settings,
      db,
      blobs: filesystemBlobStore(path.join(settings.dataDir, "blobs")),
      jobs,
      recognizer: new PocketsphinxRecognizer({ modelDir: settings.pocketsphinxModelDir }),
      sender,
      clock: systemClock,
      log,
      events: new EventEmitter(),
      stop: () => stack.stop(),
    };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/** Processing workers (they stop with the job queue), callback delivery and the sweeper. */
export async function startWorkers(services: Services): Promise<Stoppable> {
  await services.jobs.workProcess(services.settings.workerConcurrency, (job, attempt) =>
    processMedia(services, job.mediaId, attempt),
  );
  const stack = new StopStack(services.log);
  if (services.settings.callbackConcurrency > 0) {
    const dispatcher = startDispatcher(services, services.settings.callbackConcurrency);
    stack.push(() => dispatcher.stop());
  }
  const sweeper = startSweeper(services);
  stack.push(() => sweeper.stop());
  return stack;
}

export interface RunningHark extends Stoppable {
  readonly app: FastifyInstance;
  /** Where the API listens, e.g. http://127.0.0.1:8080 */
  readonly address: string;
  readonly services: Services;
}

export async function startHark(
  settings: Settings,
  log: Logger = pino({ level: settings.logLevel }),
): Promise<RunningHark> {
  const stack = new StopStack(log);
  try {
    const services = await openServices(settings, log);
    stack.push(() => services.stop());
    const app = await buildApp(services);
    stack.push(() => app.close());
    const address = await app.listen({ port: settings.port, host: settings.host });
    const workers = await startWorkers(services);
    stack.push(() => workers.stop());
    log.info({ address, publicUrl: settings.publicUrl }, "Hark is running");
    return { app, address, services, stop: () => stack.stop() };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

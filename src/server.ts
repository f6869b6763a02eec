/**
 * Starts and stops Hark in this process, in one of three roles: `serve` (everything: what `npm start`
 * runs), `api` (HTTP only) or `worker` (processing, callback delivery and the sweeper). Each opens the
 * database (embedded unless `HARK_DATABASE_URL` is set), migrates it and joins the job queue; processes
 * of any role meet only in that database and the blob store, so any number of them can run.
 */
import { EventEmitter } from "node:events";
import { availableParallelism } from "node:os";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pino, { type Logger } from "pino";
import type { BlobStore } from "./blobs/blob-store.ts";
import { filesystemBlobStore, removeStalePartials } from "./blobs/filesystem-blob-store.ts";
import { s3BlobStore } from "./blobs/s3-blob-store.ts";
import { startDispatcher } from "./callbacks/dispatcher.ts";
import { undiciSender } from "./net/callback-sender.ts";
import { PocketsphinxRecognizer } from "./pipeline/pocketsphinx.ts";
import { createLimiter } from "./pipeline/pool.ts";
import { removeLeftoverTempDirs } from "./pipeline/temp-dirs.ts";
import { processMedia } from "./processing/process-media.ts";
import { startOrphanCheck } from "./processing/orphan-check.ts";
import { startSweeper } from "./processing/sweeper.ts";
import type { Role } from "./roles.ts";
import { type Services, type Stoppable, systemClock } from "./services.ts";
import type { Settings } from "./settings.ts";
import { openDatabase } from "./store/database.ts";
import { installationSecret } from "./store/installation-secrets.ts";
import { watchDatabase } from "./store/database-watch.ts";
import { startEmbeddedPostgres } from "./store/embedded-postgres.ts";
import { startJobQueue } from "./store/job-queue.ts";
import { migrate } from "./store/migrate.ts";

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

/**
 * Runs `start`, which pushes a stop step for each thing it starts; resolves to what it returns, with a
 * `stop` that stops all of it. Should `start` fail, what it had started is stopped again.
 */
async function startAll<T extends object>(
  log: Logger,
  start: (stack: StopStack) => Promise<T>,
): Promise<T & Stoppable> {
  const stack = new StopStack(log);
  try {
    return { ...(await start(stack)), stop: () => stack.stop() };
  } catch (error) {
    await stack.stop();
    throw error;
  }
}

/** Settles, with a line saying so, when the database has gone away for good (store/database-watch.ts). */
export interface DatabaseLost {
  readonly databaseLost: Promise<string>;
}

/** The services on real infrastructure: database (migrated), job queue, blob store, recogniser. */
export function openServices(settings: Settings, log: Logger): Promise<Services & Stoppable & DatabaseLost> {
  return startAll(log, async (stack): Promise<Services & DatabaseLost> => {
    // First: a bucket that cannot be reached stops the start before anything else is started.
    const blobs = await openBlobStore(settings);
    stack.push(async () => blobs.close?.());
    await removeLeftovers(settings, log);
    let databaseUrl = settings.databaseUrl;
    const losses: Promise<string>[] = [];
    if (databaseUrl === undefined) {
      const embedded = await startEmbeddedPostgres({
        dir: path.join(settings.dataDir, "postgres"),
        log: (message) => log.debug({ component: "postgres" }, message),
        ...(settings.port === 0 ? {} : { serves: `http://${settings.host}:${settings.port}` }),
      });
      stack.push(() => embedded.stop());
      databaseUrl = embedded.url;
      // Its own server gone, Hark knows at once; there is nothing to wait for.
      losses.push(embedded.lost);
    }
    const db = openDatabase(databaseUrl, settings.databasePoolSize);
    stack.push(() => db.close());
    const watch = watchDatabase(db);
    stack.push(async () => watch.stop());
    losses.push(watch.lost);
    const applied = await migrate(db);
    if (applied.length > 0) log.info({ migrations: applied }, "database migrated");
    const streamLinkSecret = await installationSecret(db, "stream-links");
    const sender = undiciSender({
      connectTimeoutMs: settings.callbackConnectTimeoutMs,
      timeoutMs: settings.callbackTimeoutMs,
      allowPrivate: settings.callbackAllowPrivate,
      allowCidrs: settings.callbackAllowCidrs,
    });
    stack.push(() => sender.close());
    const jobs = await startJobQueue(
      databaseUrl,
      settings.databasePoolSize,
      settings.stopTimeoutSeconds * 1000,
      (err) => log.error({ err }, "job queue error"),
    );
    stack.push(() => jobs.stop());
    return {
      settings,
      db,
      blobs,
      jobs,
      recognizer: new PocketsphinxRecognizer({ modelDir: settings.pocketsphinxModelDir }),
      engines: createLimiter(settings.recognizerConcurrency || availableParallelism()),
      sender,
      clock: systemClock,
      log,
      events: new EventEmitter(),
      streamLinkSecret,
      databaseLost: Promise.race(losses),
    };
  });
}

/**
 * What a crashed process left in the data directory: partial uploads (no upload outlasts the upload
 * timeout) and transcription temp directories of processes that are gone. Other live processes sharing
 * the directory keep theirs.
 */
async function removeLeftovers(settings: Settings, log: Logger): Promise<void> {
  const partials =
    settings.blobStore === "filesystem"
      ? await removeStalePartials(path.join(settings.dataDir, "blobs"), settings.uploadTimeoutSeconds * 1000)
      : 0;
  const tempDirs = await removeLeftoverTempDirs(path.join(settings.dataDir, "tmp"));
  if (partials > 0 || tempDirs.length > 0) {
    log.info({ partials, tempDirs }, "removed what an earlier process left behind");
  }
}

/** The blob store the settings name: a directory in the data directory, or an S3-compatible bucket. */
async function openBlobStore(settings: Settings): Promise<BlobStore & { close?(): void }> {
  if (settings.blobStore === "filesystem") return filesystemBlobStore(path.join(settings.dataDir, "blobs"));
  const store = s3BlobStore({
    endpoint: settings.s3Endpoint,
    bucket: settings.s3Bucket as string,
    region: settings.s3Region,
    accessKeyId: settings.s3AccessKeyId,
    secretAccessKey: settings.s3SecretAccessKey,
    forcePathStyle: settings.s3ForcePathStyle,
    tempDir: path.join(settings.dataDir, "tmp"),
  });
  try {
    // A wrong endpoint, bucket or key stops the start, rather than failing the first upload.
    await store.size("hark/start-check");
  } catch (error) {
    store.close();
    throw new Error(
      `the S3 bucket ${settings.s3Bucket} cannot be reached: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return store;
}

/**
 * Processing workers, callback delivery, the sweeper and the check for orphaned media. Stopping them stops the job queue too: processing
 * and deliveries each get `HARK_STOP_TIMEOUT` to finish at the same time, not one after the other.
 */
export async function startWorkers(services: Services): Promise<Stoppable> {
  const { workerConcurrency, accountMaxProcessing } = services.settings;
  await services.jobs.workProcess(workerConcurrency, accountMaxProcessing, (job, attempt) =>
    processMedia(services, job.mediaId, attempt),
  );
  const { callbackConcurrency } = services.settings;
  const dispatcher = callbackConcurrency > 0 ? startDispatcher(services, callbackConcurrency) : undefined;
  const sweeper = startSweeper(services);
  const orphanCheck = startOrphanCheck(services);
  return {
    async stop() {
      const stopped = await Promise.allSettled([
        services.jobs.stop(),
        dispatcher?.stop(),
        sweeper.stop(),
        orphanCheck.stop(),
      ]);
      for (const result of stopped) {
        if (result.status === "rejected") services.log.error({ err: result.reason }, "error while stopping");
      }
    },
  };
}

export interface RunningHark extends Stoppable, DatabaseLost {
  readonly app: FastifyInstance;
  /** Where the API listens, e.g. http://127.0.0.1:8080 */
  readonly address: string;
  readonly services: Services;
}

export interface RunningWorker extends Stoppable, DatabaseLost {
  readonly services: Services;
}

/** The whole of Hark (`serve`), or the HTTP API alone (`api`). */
export async function startHark(
  settings: Settings,
  log: Logger = pino({ level: settings.logLevel }),
  role: Exclude<Role, "worker"> = "serve",
): Promise<RunningHark> {
  return startAll(log, async (stack) => {
    const services = await openServices(settings, log);
    stack.push(() => services.stop());
    // Workers start before the API listens, so that they stop after it: requests under way when the
    // stop begins still find the job queue to enqueue on.
    if (role === "serve") {
      const workers = await startWorkers(services);
      stack.push(() => workers.stop());
    }
    // Loaded here rather than at the top: a worker process never loads the HTTP layer (nor the upload's
    // configuration schema behind it).
    const { buildApp } = await import("./api/app.ts");
    const app = await buildApp(services);
    stack.push(() => app.close());
    const address = await app.listen({ port: settings.port, host: settings.host });
    log.info({ role, address, publicUrl: settings.publicUrl }, "Hark is running");
    return { app, address, services, databaseLost: services.databaseLost };
  });
}

/** Processing and callback delivery without the HTTP API. */
export async function startWorker(
  settings: Settings,
  log: Logger = pino({ level: settings.logLevel }),
): Promise<RunningWorker> {
  return startAll(log, async (stack) => {
    const services = await openServices(settings, log);
    stack.push(() => services.stop());
    const workers = await startWorkers(services);
    stack.push(() => workers.stop());
    log.info({ role: "worker", publicUrl: settings.publicUrl }, "Hark is running");
    return { services, databaseLost: services.databaseLost };
  });
}

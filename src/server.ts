/**
 * Starts and stops the whole of Hark in this process: the database (embedded unless
 * `HARK_DATABASE_URL` is set), migrations, jobs, the HTTP API, the processing workers and the sweeper.
 */
import path from "node:path";
import type { FastifyInstance } from "fastify";
import pino, { type Logger } from "pino";
import { buildApp } from "./api/app.ts";
import { filesystemBlobStore } from "./blobs/filesystem-blob-store.ts";
import { startJobQueue } from "./jobs/queue.ts";
import { processMedia } from "./jobs/process-media.ts";
import { PocketsphinxRecognizer } from "./pipeline/pocketsphinx.ts";
import { type Services, systemClock } from "./services.ts";
import type { Settings } from "./settings.ts";
import { openDatabase } from "./store/database.ts";
import { startEmbeddedPostgres } from "./store/embedded-postgres.ts";
import { migrate } from "./store/migrate.ts";
import { startSweeper } from "./sweeper.ts";

export interface RunningHark {
  readonly app: FastifyInstance;
  /** Where the API listens, e.g. http://127.0.0.1:8080 */
  readonly address: string;
  readonly services: Services;
  stop(): Promise<void>;
}

export async function startHark(settings: Settings, log: Logger = pino({ level: settings.logLevel })): Promise<RunningHark> {
  const stack: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const step of stack.reverse()) {
      await step().catch((err) => log.error({ err }, "error while stopping"));
    }
  };
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

    const jobs = await startJobQueue(databaseUrl, settings.databasePoolSize, (err) => log.error({ err }, "job queue error"));
    stack.push(() => jobs.stop());
    const services: Services = {
      settings,
      db,
      blobs: filesystemBlobStore(path.join(settings.dataDir, "blobs")),
      jobs,
      recognizer: new PocketsphinxRecognizer({ modelDir: settings.pocketsphinxModelDir }),
      clock: systemClock,
      log,
    };

    const app = await buildApp(services);
    stack.push(() => app.close());
    const address = await app.listen({ port: settings.port, host: settings.host });

    await jobs.workProcess(settings.workerConcurrency, (job, attempt) => processMedia(services, job.mediaId, attempt));
    const sweeper = startSweeper(services);
    stack.push(() => sweeper.stop());
    log.info({ address, publicUrl: settings.publicUrl }, "Hark is running");
    return { app, address, services, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

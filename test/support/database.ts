/**
 * A fresh PostgreSQL database per test file, on a real server: one that `npm test` starts (by default
 * HARK_TEST_DATABASE_URL, a URL to its `postgres` database), or, when a file runs on its own, an
 * embedded server of its own in a temporary directory.
 *
 * A fresh database is a clone (`CREATE DATABASE ... TEMPLATE`) of a template that already holds what
 * every start of Hark makes: our migrations, and pg-boss's schema with the process queue. Each file is
 * spared running the migrations and making pg-boss's schema (together more than copying them takes), and
 * every file starts from the same schema. The runner makes the template once per server before any file
 * starts; on a server without one (a file run on its own) the first `freshDatabase` makes it. It is marked
 * to take no connections: PostgreSQL refuses to clone a database someone is connected to, and clones run
 * several at once.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../../src/store/database.ts";
import { startEmbeddedPostgres } from "../../src/store/embedded-postgres.ts";
import { startJobQueue } from "../../src/store/job-queue.ts";
import { migrate } from "../../src/store/migrate.ts";
import { refuseInUnitRun } from "./unit-run.ts";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

export interface FreshDatabaseOptions {
  /** The server's `postgres` database; by default the server `npm test` started, else one of its own. */
  adminUrl?: string | undefined;
  /** Nothing in it, not even our migrations: for the tests of migrating itself. */
  empty?: boolean;
}

const TEMPLATE = "hark_test_template";
/** Held while the template is made, so that files starting at once make it once. */
const TEMPLATE_LOCK = 0x48544d50; // "HTMP"

export async function freshDatabase(options: FreshDatabaseOptions = {}): Promise<TestDatabase> {
  refuseInUnitRun("a PostgreSQL database (freshDatabase)");
  let adminUrl = options.adminUrl ?? process.env.HARK_TEST_DATABASE_URL;
  let stopServer = async () => {};
  if (adminUrl === undefined) {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "hark-test-pg-"));
    const server = await startEmbeddedPostgres({ dir, log: () => {} });
    adminUrl = server.url.replace(/\/[^/]*$/, "/postgres");
    stopServer = async () => {
      await server.stop();
      await fs.rm(dir, { recursive: true, force: true });
    };
  }
  const server = adminUrl;
  if (!options.empty) await ensureTemplate(server);
  const name = `test_${randomBytes(6).toString("hex")}`;
  await withClient(server, (client) =>
    client.query(options.empty ? `create database ${name}` : `create database ${name} template ${TEMPLATE}`),
  );
  return {
    url: databaseUrl(server, name),
    async drop() {
      await withClient(server, (client) => client.query(`drop database if exists ${name} with (force)`));
      await stopServer();
    },
  };
}

/**
 * Makes the template database on the server at `adminUrl` unless it is there. Several processes may call
 * this at once: one makes it, the others wait for it.
 */
export async function ensureTemplate(adminUrl: string): Promise<void> {
  await withClient(adminUrl, async (client) => {
    if (await templateReady(client)) return;
    await client.query("select pg_advisory_lock($1)", [TEMPLATE_LOCK]);
    try {
      if (await templateReady(client)) return;
      // One left half made by a process that died is made again.
      await client.query(`drop database if exists ${TEMPLATE} with (force)`);
      await client.query(`create database ${TEMPLATE}`);
      await prepareTemplate(databaseUrl(adminUrl, TEMPLATE));
      // Ready from here on; no connection can stand in the way of a clone.
      await client.query(`alter database ${TEMPLATE} with is_template true allow_connections false`);
    } finally {
      await client.query("select pg_advisory_unlock($1)", [TEMPLATE_LOCK]);
    }
  });
}

/** What `openServices` does to a new database: migrate it, and start (then stop) the job queue. */
async function prepareTemplate(url: string): Promise<void> {
  const db = openDatabase(url, 2);
  try {
    await migrate(db);
  } finally {
    await db.close();
  }
  let failure: Error | undefined;
  const jobs = await startJobQueue(url, 2, 0, (error) => (failure ??= error));
  await jobs.stop();
  if (failure) throw failure;
}

async function templateReady(client: pg.Client): Promise<boolean> {
  const { rows } = await client.query<{ datistemplate: boolean }>(
    "select datistemplate from pg_database where datname = $1",
    [TEMPLATE],
  );
  return rows[0]?.datistemplate === true;
}

function databaseUrl(adminUrl: string, name: string): string {
  return adminUrl.replace(/\/[^/]*$/, `/${name}`);
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(url);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

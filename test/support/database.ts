/**
 * A fresh PostgreSQL database per test file, on a real server: one that `npm test` starts (by default
 * HARK_TEST_DATABASE_URL, a URL to its `postgres` database), or, when a file runs on its own, an
 * embedded server of its own in a temporary directory.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../src/store/embedded-postgres.ts";

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** `adminUrl`: the server's `postgres` database. */
export async function freshDatabase(
  adminUrl: string | undefined = process.env.HARK_TEST_DATABASE_URL,
): Promise<TestDatabase> {
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
  const name = `test_${randomBytes(6).toString("hex")}`;
  await withClient(adminUrl, (client) => client.query(`create database ${name}`));
  return {
    url: adminUrl.replace(/\/[^/]*$/, `/${name}`),
    async drop() {
      await withClient(adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`));
      await stopServer();
    },
  };
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

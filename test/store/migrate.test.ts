import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { type Database, openDatabase } from "../../src/store/database.ts";
import { migrate } from "../../src/store/migrate.ts";
import { freshDatabase, type TestDatabase } from "../support/database.ts";

const MIGRATIONS_DIR = path.join(import.meta.dirname, "../../src/store/migrations");

async function migrationFiles(): Promise<string[]> {
  return (await fs.readdir(MIGRATIONS_DIR)).filter((name) => name.endsWith(".sql")).sort();
}

async function recorded(db: Database): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>("select name from schema_migrations order by name");
  return rows.map((row) => row.name);
}

describe("migrate", () => {
  const databases: TestDatabase[] = [];
  const pools: Database[] = [];

  async function fresh(): Promise<TestDatabase> {
    const database = await freshDatabase({ empty: true });
    databases.push(database);
    return database;
  }
  function open(url: string): Database {
    const db = openDatabase(url, 2);
    pools.push(db);
    return db;
  }

  let files: string[];
  before(async () => {
    files = await migrationFiles();
    assert.ok(files.length > 0);
  });

  after(async () => {
    for (const db of pools) await db.close();
    for (const database of databases) await database.drop();
  });

  it("applies every migration file, in order, to a fresh database and records each", async () => {
    const db = open((await fresh()).url);
    const applied = await migrate(db);
    assert.deepEqual(applied, files);
    assert.deepEqual(await recorded(db), files);
    const { rows } = await db.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = 'public' order by table_name",
    );
    for (const table of ["accounts", "deliveries", "media"]) {
      assert.ok(
        rows.some((row) => row.table_name === table),
        `table ${table} exists`,
      );
    }
  });

  it("applies nothing the second time", async () => {
    const db = open((await fresh()).url);
    await migrate(db);
    const { rows: firstRun } = await db.query("select name, applied_at from schema_migrations order by name");
    assert.deepEqual(await migrate(db), []);
    const { rows: secondRun } = await db.query(
      "select name, applied_at from schema_migrations order by name",
    );
    assert.deepEqual(secondRun, firstRun);
  });

  it("lets two processes migrate one fresh database at once: both succeed, each migration runs once", async () => {
    const { url } = await fresh();
    const [one, two] = [open(url), open(url)];
    const results = await Promise.allSettled([migrate(one), migrate(two)]);
    for (const result of results) {
      assert.equal(result.status, "fulfilled", result.status === "rejected" ? String(result.reason) : "");
    }
    const applied = results.flatMap((result) => (result.status === "fulfilled" ? result.value : []));
    assert.deepEqual(applied.sort(), files, "every migration applied by exactly one of them");
    assert.deepEqual(await recorded(one), files);
  });
});

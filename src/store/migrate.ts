/**
 * Numbered SQL migrations (`migrations/NNN_name.sql`), applied in order at start, each in its own
 * transaction with its record in `schema_migrations`. An advisory lock lets several processes start
 * against one database at once: one migrates, the others wait and find nothing left to do.
 */
import fs from "node:fs/promises";
import path from "node:path";
import type { Database } from "./database.ts";

const MIGRATIONS_DIR = path.join(import.meta.dirname, "migrations");
const LOCK_ID = 0x4841524b; // "HARK"

export async function migrate(db: Database): Promise<string[]> {
  const files = (await fs.readdir(MIGRATIONS_DIR)).filter((name) => /^\d{3}_.+\.sql$/.test(name)).sort();
  const client = await db.pool.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [LOCK_ID]);
    await client.query(
      "create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())",
    );
    const done = new Set(
      (await client.query<{ name: string }>("select name from schema_migrations")).rows.map((r) => r.name),
    );
    const applied: string[] = [];
    for (const name of files) {
      if (done.has(name)) continue;
      const sql = await fs.readFile(path.join(MIGRATIONS_DIR, name), "utf8");
      await client.query("begin");
      try {
        await client.query(sql);
        await client.query("insert into schema_migrations (name) values ($1)", [name]);
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw new Error(`migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(name);
    }
    return applied;
  } finally {
    await client.query("select pg_advisory_unlock($1)", [LOCK_ID]).catch(() => {});
    client.release();
  }
}

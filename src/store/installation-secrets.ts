/**
 * Secrets of the installation, by name: made at random by the first process that asks, then the same for
 * every process on the database, across restarts.
 */
import { randomBytes } from "node:crypto";
import type { Sql } from "./database.ts";

export async function installationSecret(sql: Sql, name: string): Promise<Buffer> {
  await sql.query(
    "insert into installation_secrets (name, secret) values ($1, $2) on conflict (name) do nothing",
    [name, randomBytes(32)],
  );
  const { rows } = await sql.query<{ secret: Buffer }>(
    "select secret from installation_secrets where name = $1",
    [name],
  );
  const secret = rows[0]?.secret;
  if (!secret) throw new Error(`installation secret ${name} vanished right after it was made`);
  return secret;
}

/**
 * The roles a Hark process runs in (`hark serve | api | worker`), and what a role asks of the settings.
 * Pure: `main` refuses or warns with what these return.
 */
import type { Settings } from "./settings.ts";

export type Role = "serve" | "api" | "worker";

export const ROLES: readonly Role[] = ["serve", "api", "worker"];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Why `role` cannot run on `settings`, if it cannot. */
export function roleRefusal(role: Role, settings: Settings): string | undefined {
  // An embedded server belongs to one process: processes in separate roles could never meet in it.
  if (role !== "serve" && settings.databaseUrl === undefined) {
    return `hark ${role} needs HARK_DATABASE_URL: the PostgreSQL server it shares with the other processes`;
  }
  return undefined;
}

/** Settings that work for `role` on one machine but are most likely wrong on several. */
export function roleWarnings(role: Role, settings: Settings): string[] {
  const warnings: string[] = [];
  if (role === "worker" && LOOPBACK.includes(new URL(settings.publicUrl).hostname)) {
    warnings.push(
      `callback bodies will link to ${settings.publicUrl}: set HARK_PUBLIC_URL to the address clients reach the API at`,
    );
  }
  if (role !== "serve" && settings.blobStore === "filesystem") {
    warnings.push(
      "media are kept in the data directory, shared only with processes on this machine that have the same HARK_DATA_DIR: on several machines set HARK_BLOB_STORE=s3",
    );
  }
  return warnings;
}

const LOOPBACK = ["127.0.0.1", "localhost", "[::1]"];

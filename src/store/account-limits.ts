/**
 * Per-account request limits: how many uploads (and reprocesses) and how many callback redeliveries an
 * account may make in a minute. Each accepted request leaves a row in `account_requests`; the count is of
 * the rows in the last minute, so every API process sharing the database sees the same count.
 *
 * `takeAllowance` runs inside the transaction that makes the request happen and holds a per-account
 * advisory lock until it ends: of concurrent requests, each counts the ones committed before it, so no two
 * slip under the limit together, and a request whose transaction rolls back (refused for another reason)
 * leaves no row and costs nothing.
 */
import type { Sql } from "./database.ts";

export type LimitedRequest = "upload" | "redelivery";

export const LIMIT_WINDOW_MS = 60_000;

export type Allowance = { allowed: true } | { allowed: false; retryAfterMs: number };

/**
 * Whether one more request fits: `recent` are the times of the account's requests in the window, newest
 * first (at most `perWindow` of them are needed). Refused, it says how long until the oldest of the last
 * `perWindow` leaves the window, at least a second (a `Retry-After` of 0 would invite an immediate retry).
 * Pure.
 */
export function allowance(
  recent: readonly Date[],
  perWindow: number,
  now: Date,
  windowMs: number,
): Allowance {
  const windowStart = now.getTime() - windowMs;
  const inWindow = recent.filter((at) => at.getTime() > windowStart);
  const oldestCounted = inWindow[perWindow - 1];
  if (oldestCounted === undefined) return { allowed: true };
  return { allowed: false, retryAfterMs: Math.max(1000, oldestCounted.getTime() + windowMs - now.getTime()) };
}

async function recentRequests(
  sql: Sql,
  accountId: string,
  kind: LimitedRequest,
  perWindow: number,
  now: Date,
) {
  const { rows } = await sql.query<{ at: Date }>(
    `select at from account_requests
     where account_id = $1 and kind = $2 and at > $3
     order by at desc limit $4`,
    [accountId, kind, new Date(now.getTime() - LIMIT_WINDOW_MS), perWindow],
  );
  return rows.map((row) => row.at);
}

/**
 * A look without the lock and without counting the request: for refusing early, before a large body is
 * read. Its answer may be out of date by the time the request is made; `takeAllowance` decides. A
 * `perMinute` of 0 means no limit.
 */
export async function peekAllowance(
  sql: Sql,
  accountId: string,
  kind: LimitedRequest,
  perMinute: number,
  now: Date,
): Promise<Allowance> {
  if (perMinute === 0) return { allowed: true };
  return allowance(
    await recentRequests(sql, accountId, kind, perMinute, now),
    perMinute,
    now,
    LIMIT_WINDOW_MS,
  );
}

/**
 * Decides whether the request fits and, if it does, counts it. `sql` must be an open transaction: the
 * count commits with the request, and the account's lock is held until then. A `perMinute` of 0 means no
 * limit (and nothing is recorded).
 */
export async function takeAllowance(
  sql: Sql,
  accountId: string,
  kind: LimitedRequest,
  perMinute: number,
  now: Date,
): Promise<Allowance> {
  if (perMinute === 0) return { allowed: true };
  await sql.query("select pg_advisory_xact_lock(hashtextextended($1, 0))", [
    `hark account-limit ${kind} ${accountId}`,
  ]);
  // Rows that have left the window count for nothing; the account's own requests clear them.
  await sql.query("delete from account_requests where account_id = $1 and kind = $2 and at <= $3", [
    accountId,
    kind,
    new Date(now.getTime() - LIMIT_WINDOW_MS),
  ]);
  const decided = allowance(
    await recentRequests(sql, accountId, kind, perMinute, now),
    perMinute,
    now,
    LIMIT_WINDOW_MS,
  );
  if (decided.allowed) {
    await sql.query("insert into account_requests (account_id, kind, at) values ($1, $2, $3)", [
      accountId,
      kind,
      now,
    ]);
  }
  return decided;
}

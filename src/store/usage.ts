/**
 * Usage records in PostgreSQL, summed per UTC month or day. The records are written by the statement
 * that ends processing (store/media.ts, `finishProcessing`); nothing here changes them.
 */
import type { UsagePeriod } from "../domain/usage.ts";
import type { Sql } from "./database.ts";

/**
 * The account's totals per `unit` ("month" or "day") for the records ended in [from, to), periods with
 * usage only, oldest first.
 */
export async function usageBetween(
  sql: Sql,
  accountId: string,
  unit: "month" | "day",
  range: { from: Date; to: Date },
): Promise<UsagePeriod[]> {
  // The period is formatted in SQL, in UTC: a timestamp without zone would be read in Node's local zone.
  const { rows } = await sql.query<{ period: string; media_count: number; length_ms: string }>(
    `select to_char(ended_at at time zone 'UTC', $2) as period,
            count(*)::int as media_count, sum(length_ms)::text as length_ms
     from usage_records
     where account_id = $1 and ended_at >= $3 and ended_at < $4
     group by 1 order by 1`,
    [accountId, unit === "month" ? "YYYY-MM" : "YYYY-MM-DD", range.from, range.to],
  );
  return rows.map((row) => ({
    period: row.period,
    mediaCount: row.media_count,
    lengthMs: Number(row.length_ms),
  }));
}

/** The UTC months (`YYYY-MM`) in which the account has usage, newest first. */
export async function usageMonths(sql: Sql, accountId: string): Promise<string[]> {
  const { rows } = await sql.query<{ period: string }>(
    `select distinct to_char(ended_at at time zone 'UTC', 'YYYY-MM') as period
     from usage_records where account_id = $1 order by 1 desc`,
    [accountId],
  );
  return rows.map((row) => row.period);
}

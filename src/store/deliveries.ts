/**
 * Callback deliveries and their attempts in PostgreSQL. A delivery moves
 * waiting → pending → trying → succeeded | will-retry (→ trying …) | exhausted, or waiting → skipped.
 */
import type { Callback } from "../api/configuration.ts";
import type { ErrorKind } from "../callbacks/send.ts";
import type { Sql } from "./database.ts";

export type DeliveryState =
  "waiting" | "pending" | "trying" | "succeeded" | "will-retry" | "exhausted" | "skipped";

export interface DeliveryRecord {
  deliveryId: string;
  mediaId: string;
  position: number;
  callback: Callback;
  state: DeliveryState;
  contentType: string | undefined;
  bodyBlob: string | undefined;
  firstTryAt: Date | undefined;
  scheduledAttempt: number;
  nextTryAt: Date | undefined;
  endedAt: Date | undefined;
}

interface DeliveryRow {
  delivery_id: string;
  media_id: string;
  position: number;
  callback: Callback;
  state: DeliveryState;
  content_type: string | null;
  body_blob: string | null;
  first_try_at: Date | null;
  scheduled_attempt: number;
  next_try_at: Date | null;
  ended_at: Date | null;
}

function toRecord(row: DeliveryRow): DeliveryRecord {
  return {
    deliveryId: row.delivery_id,
    mediaId: row.media_id,
    position: row.position,
    callback: row.callback,
    state: row.state,
    contentType: row.content_type ?? undefined,
    bodyBlob: row.body_blob ?? undefined,
    firstTryAt: row.first_try_at ?? undefined,
    scheduledAttempt: row.scheduled_attempt,
    nextTryAt: row.next_try_at ?? undefined,
    endedAt: row.ended_at ?? undefined,
  };
}

export async function deliveriesOf(sql: Sql, mediaId: string): Promise<DeliveryRecord[]> {
  const { rows } = await sql.query<DeliveryRow>(
    "select * from deliveries where media_id = $1 order by position",
    [mediaId],
  );
  return rows.map(toRecord);
}

/** A pending delivery's body and first try, set in the "processing ended" transaction. */
export async function scheduleFirstTry(
  sql: Sql,
  deliveryId: string,
  first: { contentType: string; bodyBlob: string; at: Date },
): Promise<void> {
  await sql.query(
    `update deliveries set content_type = $2, body_blob = $3, first_try_at = $4, next_try_at = $4, scheduled_attempt = 0
     where delivery_id = $1`,
    [deliveryId, first.contentType, first.bodyBlob, first.at],
  );
}

/** A callback with nothing to send (e.g. a stream the item does not have) ends here, never sent. */
export async function skipDelivery(sql: Sql, deliveryId: string, at: Date): Promise<void> {
  await sql.query("update deliveries set state = 'skipped', ended_at = $2 where delivery_id = $1", [
    deliveryId,
    at,
  ]);
}

/**
 * Starts scheduled attempt `index`: resolves to the delivery, now trying, or to undefined when it is not
 * waiting for that attempt (it has ended, or moved past it). One round trip.
 */
export async function startBurst(
  sql: Sql,
  deliveryId: string,
  index: number,
): Promise<DeliveryRecord | undefined> {
  const { rows } = await sql.query<DeliveryRow>(
    `update deliveries set state = 'trying'
     where delivery_id = $1 and scheduled_attempt = $2 and state in ('pending', 'will-retry', 'trying')
     returning *`,
    [deliveryId, index],
  );
  return rows[0] && toRecord(rows[0]);
}

export interface AttemptRecord {
  deliveryId: string;
  scheduledAttempt: number;
  try: number;
  startedAt: Date;
  durationMs: number;
  statusCode?: number;
  errorKind?: ErrorKind;
  errorMessage?: string;
  responseSnippet?: string;
  succeeded: boolean;
}

/** The insert of an attempt row, its parameters numbered from `$<first>`. */
function insertAttempt(first: number): string {
  const params = Array.from({ length: 10 }, (_, i) => `$${first + i}`).join(", ");
  return `insert into delivery_attempts (delivery_id, scheduled_attempt, try, started_at, duration_ms, status_code,
                                    error_kind, error_message, response_snippet, succeeded)
     values (${params})`;
}

function attemptValues(attempt: AttemptRecord): unknown[] {
  return [
    attempt.deliveryId,
    attempt.scheduledAttempt,
    attempt.try,
    attempt.startedAt,
    attempt.durationMs,
    attempt.statusCode ?? null,
    attempt.errorKind ?? null,
    attempt.errorMessage ?? null,
    // PostgreSQL text cannot hold NUL.
    attempt.responseSnippet?.replaceAll("\0", "") ?? null,
    attempt.succeeded,
  ];
}

export async function recordAttempt(sql: Sql, attempt: AttemptRecord): Promise<void> {
  await sql.query(insertAttempt(1), attemptValues(attempt));
}

export type BurstOutcome =
  | { state: "succeeded"; at: Date }
  | { state: "will-retry"; nextIndex: number; nextAt: Date }
  | { state: "exhausted"; at: Date };

/**
 * Where the delivery stands after a burst. `lastTry`, the try that ended the burst, is recorded in the
 * same statement: one round trip, and atomic without a transaction of its own.
 */
export async function endBurst(
  sql: Sql,
  deliveryId: string,
  outcome: BurstOutcome,
  lastTry?: AttemptRecord,
): Promise<void> {
  const [update, values]: [string, unknown[]] =
    outcome.state === "will-retry"
      ? [
          "update deliveries set state = 'will-retry', scheduled_attempt = $2, next_try_at = $3 where delivery_id = $1",
          [deliveryId, outcome.nextIndex, outcome.nextAt],
        ]
      : [
          "update deliveries set state = $2, next_try_at = null, ended_at = $3 where delivery_id = $1",
          [deliveryId, outcome.state, outcome.at],
        ];
  if (lastTry === undefined) {
    await sql.query(update, values);
    return;
  }
  // A data-modifying WITH runs to completion whether or not the update reads it.
  await sql.query(`with attempt as (${insertAttempt(values.length + 1)}) ${update}`, [
    ...values,
    ...attemptValues(lastTry),
  ]);
}

export interface AttemptSummary {
  count: number;
  last?: { at: Date; statusCode?: number; errorKind?: ErrorKind };
}

/** How many tries each delivery of a media item has had, and how the last went. */
export async function attemptSummaries(sql: Sql, mediaId: string): Promise<Map<string, AttemptSummary>> {
  const { rows } = await sql.query<{
    delivery_id: string;
    count: number;
    started_at: Date | null;
    status_code: number | null;
    error_kind: ErrorKind | null;
  }>(
    `select d.delivery_id, count(a.attempt_id)::int as count, last.started_at, last.status_code, last.error_kind
     from deliveries d
     left join delivery_attempts a using (delivery_id)
     left join lateral (select started_at, status_code, error_kind from delivery_attempts
                        where delivery_id = d.delivery_id order by attempt_id desc limit 1) last on true
     where d.media_id = $1
     group by d.delivery_id, last.started_at, last.status_code, last.error_kind`,
    [mediaId],
  );
  return new Map(
    rows.map((row) => [
      row.delivery_id,
      {
        count: row.count,
        ...(row.started_at && {
          last: {
            at: row.started_at,
            ...(row.status_code !== null && { statusCode: row.status_code }),
            ...(row.error_kind !== null && { errorKind: row.error_kind }),
          },
        }),
      },
    ]),
  );
}

/**
 * Callback deliveries and their attempts in PostgreSQL. A delivery moves
 * waiting → pending → trying → succeeded | will-retry (→ trying …) | exhausted, or waiting → skipped.
 *
 * The table is also the delivery queue (a transactional outbox): `due_at` says when a dispatcher should
 * next take a row — its next scheduled attempt, or, while a burst runs, when the claim on it lapses.
 * A row commits with the "processing ended" change that causes it, so the delivery and its "job" can
 * never disagree, and claiming, recording and rescheduling are one statement each, batched.
 */
import type { Callback } from "../domain/configuration.ts";
import type {
  ErrorKind,
  DeliveryState,
  DeliveryRecord,
  ClaimedDelivery,
  AttemptRecord,
  LoggedAttempt,
  AttemptSummary,
  BurstOutcome,
  BurstEnd,
} from "../domain/delivery.ts";
import type { Sql } from "./database.ts";

const RECORD_COLUMNS =
  "delivery_id, media_id, position, callback, state, first_try_at, scheduled_attempt, next_try_at, ended_at";

interface DeliveryRow {
  delivery_id: string;
  media_id: string;
  position: number;
  callback: Callback;
  state: DeliveryState;
  first_try_at: Date | null;
  scheduled_attempt: number;
  next_try_at: Date | null;
  ended_at: Date | null;
}

interface ClaimedRow extends DeliveryRow {
  claim: string;
  content_type: string;
  first_try_at: Date;
  body: Buffer | null;
  body_blob: string | null;
}

function toRecord(row: DeliveryRow): DeliveryRecord {
  return {
    deliveryId: row.delivery_id,
    mediaId: row.media_id,
    position: row.position,
    callback: row.callback,
    state: row.state,
    firstTryAt: row.first_try_at ?? undefined,
    scheduledAttempt: row.scheduled_attempt,
    nextTryAt: row.next_try_at ?? undefined,
    endedAt: row.ended_at ?? undefined,
  };
}

export async function deliveriesOf(sql: Sql, mediaId: string): Promise<DeliveryRecord[]> {
  const { rows } = await sql.query<DeliveryRow>(
    `select ${RECORD_COLUMNS} from deliveries where media_id = $1 order by run, position`,
    [mediaId],
  );
  return rows.map(toRecord);
}

/**
 * Claims up to `count` deliveries that are due at `now` (oldest first) for a burst each, until
 * `claimUntil`; rows another dispatcher holds are passed over. A row whose claim has lapsed (its
 * dispatcher died mid-burst) is due again, and its burst runs again from the first try.
 */
export async function claimDue(
  sql: Sql,
  now: Date,
  count: number,
  claimUntil: Date,
): Promise<ClaimedDelivery[]> {
  const { rows } = await sql.query<ClaimedRow>(
    `update deliveries d set state = 'trying', due_at = $3, claim = gen_random_uuid()
     from (select delivery_id from deliveries where due_at <= $1 order by due_at limit $2 for update skip locked) due
     where d.delivery_id = due.delivery_id
     returning d.*`,
    [now, count, claimUntil],
  );
  return rows.map((row) => ({
    ...toRecord(row),
    claim: row.claim,
    contentType: row.content_type,
    firstTryAt: row.first_try_at,
    body: row.body ?? undefined,
    bodyBlob: row.body_blob ?? undefined,
  }));
}

const ATTEMPT_COLUMNS = `delivery_id, scheduled_attempt, try, started_at, duration_ms, status_code, error_kind,
  error_message, response_snippet, succeeded`;

/**
 * Records a failed try that does not end its burst, and extends the claim until `claimUntil` for the
 * next try. One statement.
 */
export async function recordAttempt(
  sql: Sql,
  attempt: AttemptRecord,
  claim: { claim: string; until: Date },
): Promise<void> {
  const { deliveryId, scheduledAttempt, startedAt, durationMs, succeeded } = attempt;
  await sql.query(
    `with attempt as (insert into delivery_attempts (${ATTEMPT_COLUMNS})
                      values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10))
     update deliveries set due_at = $12 where delivery_id = $1 and claim = $11`,
    [
      deliveryId,
      scheduledAttempt,
      attempt.try,
      startedAt,
      durationMs,
      attempt.statusCode ?? null,
      attempt.errorKind ?? null,
      attempt.errorMessage ?? null,
      snippetText(attempt.responseSnippet),
      succeeded,
      claim.claim,
      claim.until,
    ],
  );
}

/**
 * Records how bursts ended, any number in one statement: each last try, and where its delivery stands
 * (scheduled for its next attempt, or ended). An outcome whose claim has lapsed and been taken over is
 * not applied (its tries are still recorded: they happened).
 */
export async function endBursts(sql: Sql, ends: readonly BurstEnd[]): Promise<void> {
  if (ends.length === 0) return;
  const tries = ends.map((end) => end.lastTry);
  const ended = (outcome: BurstOutcome) => (outcome.state === "will-retry" ? null : outcome.at);
  const next = (outcome: BurstOutcome) => (outcome.state === "will-retry" ? outcome : undefined);
  await sql.query(
    `with attempts as (
       insert into delivery_attempts (${ATTEMPT_COLUMNS})
       select * from unnest($1::uuid[], $2::int[], $3::int[], $4::timestamptz[], $5::int[], $6::int[], $7::text[],
                            $8::text[], $9::text[], $10::boolean[]))
     update deliveries d
     set state = o.state, scheduled_attempt = coalesce(o.next_index, d.scheduled_attempt),
         next_try_at = o.next_at, due_at = o.next_at, ended_at = o.ended_at, claim = null
     from unnest($1::uuid[], $11::uuid[], $12::text[], $13::int[], $14::timestamptz[], $15::timestamptz[])
          as o(delivery_id, claim, state, next_index, next_at, ended_at)
     where d.delivery_id = o.delivery_id and d.claim = o.claim`,
    [
      ends.map((end) => end.deliveryId),
      tries.map((t) => t.scheduledAttempt),
      tries.map((t) => t.try),
      tries.map((t) => t.startedAt),
      tries.map((t) => t.durationMs),
      tries.map((t) => t.statusCode ?? null),
      tries.map((t) => t.errorKind ?? null),
      tries.map((t) => t.errorMessage ?? null),
      tries.map((t) => snippetText(t.responseSnippet)),
      tries.map((t) => t.succeeded),
      ends.map((end) => end.claim),
      ends.map((end) => end.outcome.state),
      ends.map((end) => next(end.outcome)?.nextIndex ?? null),
      ends.map((end) => next(end.outcome)?.nextAt ?? null),
      ends.map((end) => ended(end.outcome)),
    ],
  );
}

/** PostgreSQL text cannot hold NUL. */
function snippetText(snippet: string | undefined): string | null {
  return snippet?.replaceAll("\0", "") ?? null;
}

/** Every try of each delivery of a media item, oldest first, by delivery id. */
export async function attemptsOf(sql: Sql, mediaId: string): Promise<Map<string, LoggedAttempt[]>> {
  const { rows } = await sql.query<{
    attempt_id: string;
    delivery_id: string;
    scheduled_attempt: number;
    try: number;
    started_at: Date;
    duration_ms: number;
    status_code: number | null;
    error_kind: ErrorKind | null;
    error_message: string | null;
    response_snippet: string | null;
    succeeded: boolean;
  }>(
    `select a.* from delivery_attempts a join deliveries d using (delivery_id)
     where d.media_id = $1 order by a.attempt_id`,
    [mediaId],
  );
  const log = new Map<string, LoggedAttempt[]>();
  for (const row of rows) {
    const attempts = log.get(row.delivery_id) ?? [];
    attempts.push({
      attemptId: Number(row.attempt_id),
      scheduledAttempt: row.scheduled_attempt,
      try: row.try,
      startedAt: row.started_at,
      durationMs: row.duration_ms,
      succeeded: row.succeeded,
      ...(row.status_code !== null && { statusCode: row.status_code }),
      ...(row.error_kind !== null && { errorKind: row.error_kind }),
      ...(row.error_message !== null && { errorMessage: row.error_message }),
      ...(row.response_snippet !== null && { responseSnippet: row.response_snippet }),
    });
    log.set(row.delivery_id, attempts);
  }
  return log;
}

/**
 * Hands claimed deliveries back, due at `now`, for any dispatcher to take at once rather than when the
 * claims lapse: a stopping process's bursts that it will not finish. A claim already taken over is left.
 */
export async function releaseClaims(
  sql: Sql,
  claims: readonly { deliveryId: string; claim: string }[],
  now: Date,
): Promise<void> {
  if (claims.length === 0) return;
  await sql.query(
    `update deliveries d set due_at = $3, claim = null
     from unnest($1::uuid[], $2::uuid[]) as c(delivery_id, claim)
     where d.delivery_id = c.delivery_id and d.claim = c.claim`,
    [claims.map((c) => c.deliveryId), claims.map((c) => c.claim), now],
  );
}

/** Whether the delivery `d`'s current schedule was started by a redelivery. */
const REDELIVERED = `exists (select 1 from delivery_attempts a
                             where a.delivery_id = d.delivery_id and a.started_at < d.first_try_at)`;

/** Why a redelivery was not accepted: the state the delivery was in, or how long to wait. */
export type RedeliveryRefusal = { state: DeliveryState } | { retryAfterMs: number };

/**
 * Starts a delivery's schedule afresh from `now`, with its same body and `webhook-id`: a client's
 * "send it again", also after it succeeded or was exhausted, or to bring forward a next scheduled attempt
 * that is not due yet. Resolves to the delivery, now pending, or to why it was not rescheduled: processing
 * has not ended (`waiting`), there is nothing to send (`skipped`), it is due to be sent already
 * (`pending`, or `will-retry` and due), a burst is running (`trying`: its outcome would overwrite the new
 * schedule), or it was redelivered less than `intervalMs` ago. Undefined when the media item has no such
 * delivery.
 *
 * One conditional update decides, so that of concurrent redeliveries exactly one is accepted: the others
 * find the row pending once the first commits. A schedule that a redelivery started is one whose
 * `first_try_at` is later than a try already made (the first schedule's tries all start at or after it).
 */
export async function redeliver(
  sql: Sql,
  mediaId: string,
  deliveryId: string,
  now: Date,
  intervalMs: number,
): Promise<DeliveryRecord | RedeliveryRefusal | undefined> {
  const notBefore = new Date(now.getTime() - intervalMs);
  const { rows } = await sql.query<DeliveryRow>(
    `update deliveries d
     set state = 'pending', scheduled_attempt = 0, first_try_at = $3, next_try_at = $3, due_at = $3,
         ended_at = null, claim = null
     where delivery_id = $2 and media_id = $1
       and (state in ('succeeded', 'exhausted') or (state = 'will-retry' and due_at > $3))
       and not (first_try_at > $4 and ${REDELIVERED})
     returning ${RECORD_COLUMNS}`,
    [mediaId, deliveryId, now, notBefore],
  );
  if (rows[0]) return toRecord(rows[0]);
  // Not rescheduled: say why (read after the refusal; it only explains the refusal).
  const { rows: found } = await sql.query<{
    state: DeliveryState;
    due: boolean;
    first_try_at: Date | null;
    redelivered: boolean;
  }>(
    `select state, due_at <= $3 as due, first_try_at, ${REDELIVERED} as redelivered
     from deliveries d where delivery_id = $2 and media_id = $1`,
    [mediaId, deliveryId, now],
  );
  const row = found[0];
  if (!row) return undefined;
  if (row.state === "will-retry" && row.due) return { state: "pending" };
  if (!["succeeded", "exhausted", "will-retry"].includes(row.state)) return { state: row.state };
  const wait = (row.first_try_at?.getTime() ?? 0) + intervalMs - now.getTime();
  if (row.redelivered && wait > 0) return { retryAfterMs: wait };
  return { state: row.state };
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

-- What callback delivery needs: the body rendered when processing ended, where a delivery is in its
-- schedule, and a row for every try.

alter table deliveries
  -- The Content-Type sent, exactly as the spec's table has it.
  add column content_type text,
  -- Blob key of the body rendered when processing ended (the media stream itself for type media):
  -- every try sends these same bytes.
  add column body_blob text,
  add column first_try_at timestamptz,
  -- The scheduled attempt the delivery is at (0 = the first), and when it starts.
  add column scheduled_attempt integer not null default 0,
  add column next_try_at timestamptz,
  add column ended_at timestamptz;

create table delivery_attempts (
  attempt_id        bigint generated always as identity primary key,
  delivery_id       uuid not null references deliveries (delivery_id) on delete cascade,
  scheduled_attempt integer not null,
  -- The try within the burst, from 0.
  try               integer not null,
  started_at        timestamptz not null,
  duration_ms       integer not null,
  -- The receiver's status code, when it answered.
  status_code       integer,
  -- Why the try failed, when it did: dns, connect, tls, timeout, refused-address or http-status.
  error_kind        text check (error_kind in ('dns', 'connect', 'tls', 'timeout', 'refused-address', 'http-status')),
  error_message     text,
  -- The first 1 KiB of the response body.
  response_snippet  text,
  succeeded         boolean not null
);

create index delivery_attempts_by_delivery on delivery_attempts (delivery_id, attempt_id);

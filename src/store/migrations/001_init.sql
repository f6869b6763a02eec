-- Accounts, media items and their callback deliveries.

create table accounts (
  account_id   uuid primary key,
  account_name text not null unique,
  -- SHA-256 of the bearer token: the token itself is shown once, at creation, and never stored.
  token_hash   bytea not null unique,
  created_at   timestamptz not null default now()
);

create table media (
  media_id             uuid primary key,
  account_id           uuid not null references accounts (account_id) on delete cascade,
  status               text not null check (status in ('accepted', 'running', 'finished', 'failed')),
  -- The configuration as validated at upload, with defaults applied.
  configuration        jsonb not null,
  -- The metadata as the upload supplied it; null when it supplied none.
  metadata             jsonb,
  external_id          text generated always as (metadata ->> 'externalId') stored,
  media_url            text,
  media_content_type   text,
  -- Blob key of the original bytes; null until a mediaUrl download has stored them.
  original_blob        text,
  original_bytes       bigint,
  length_ms            integer,
  -- The computed sections of the media document (transcript, later the analyses).
  sections             jsonb not null default '{}'::jsonb,
  errors               jsonb,
  messages             jsonb not null default '[]'::jsonb,
  -- Per-task progress as GET .../progress reports it.
  progress             jsonb not null default '{}'::jsonb,
  time_to_live_seconds integer not null check (time_to_live_seconds > 0),
  date_created         timestamptz not null,
  date_finished        timestamptz,
  -- date_created + TTL until processing ends, then date_finished + TTL.
  expires_on           timestamptz not null
);

create index media_by_account on media (account_id, date_created desc, media_id desc);
create index media_by_external_id on media (account_id, external_id) where external_id is not null;
create index media_by_expiry on media (expires_on);

-- One row per element of configuration.publish.callbacks, created with the media item so that a
-- callback exists from the moment the upload is accepted. The "processing ended" transaction moves
-- them out of 'waiting'.
create table deliveries (
  -- Sent as webhook-id on every try, so receivers can drop duplicates.
  delivery_id uuid primary key,
  media_id    uuid not null references media (media_id) on delete cascade,
  position    integer not null check (position >= 0),
  -- The callback as configured, normalised (method upper-case, defaults applied).
  callback    jsonb not null,
  state       text not null default 'waiting'
              check (state in ('waiting', 'pending', 'trying', 'succeeded', 'will-retry', 'exhausted', 'skipped')),
  created_at  timestamptz not null default now(),
  unique (media_id, position)
);

-- API keys an account makes for itself (`/v3/profile/keys`), and the usage record of every processed item.

create table api_keys (
  key_id      uuid primary key,
  account_id  uuid not null references accounts (account_id) on delete cascade,
  -- SHA-256 of the bearer token, as for the account's own token: the token is shown once, at creation.
  token_hash  bytea not null unique,
  -- VoiceBase's `lastSix`: enough of the token to tell keys apart in a list, too little to guess the rest.
  last_six    text not null,
  ephemeral   boolean not null,
  -- VoiceBase's scope text as the client sent it (`media:get`); null: everything but the keys API.
  scope       text,
  issued_at   timestamptz not null,
  -- Null: the key works until it is deleted.
  expires_at  timestamptz
);

create index api_keys_by_account on api_keys (account_id, issued_at);

-- One row per item whose processing finished, written by the statement that ends processing. No foreign
-- key to `media`: usage outlives the item's deletion and its time-to-live expiry.
create table usage_records (
  usage_id    bigint generated always as identity primary key,
  account_id  uuid not null references accounts (account_id) on delete cascade,
  media_id    uuid not null,
  ended_at    timestamptz not null,
  length_ms   bigint not null check (length_ms >= 0)
);

create index usage_by_account on usage_records (account_id, ended_at);

-- Public keys for client-supplied encryption: an account's OpenPGP keys that an upload may name
-- (`configuration.encryption.publicKeyId`) to have its results stored and delivered encrypted.

create table public_keys (
  public_key_id    uuid primary key,
  account_id       uuid not null references accounts (account_id) on delete cascade,
  -- The key text exactly as the client sent it: shown back byte for byte, and what `public_key_hash`
  -- is the SHA-256 of (a receiver compares it with the hash of the file it holds).
  armored          text not null,
  -- The primary key's fingerprint, lower-case hex, to tell keys apart without reading them.
  fingerprint      text not null,
  public_key_hash  text not null check (public_key_hash ~ '^[0-9a-f]{64}$'),
  created_at       timestamptz not null
);

-- The API lists an account's keys; an upload and processing read one by id within the account.
create index public_keys_by_account on public_keys (account_id, created_at);

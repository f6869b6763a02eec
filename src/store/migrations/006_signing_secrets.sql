-- Signing secrets: an account's keys for the Standard Webhooks signature on every callback try. Each
-- active secret adds one signature to the `webhook-signature` header, so during a rotation the old and
-- the new secret both sign until the old one expires.

create table signing_secrets (
  secret_id   uuid primary key,
  account_id  uuid not null references accounts (account_id) on delete cascade,
  -- `whsec_` + base64 of the key. Kept as it is, unlike an account token: signing needs the key itself,
  -- and the receiver holds the same one.
  secret      text not null check (secret like 'whsec\_%'),
  created_at  timestamptz not null,
  -- Null: signs until deleted. Set by a rotation: signs until then, never after.
  expires_at  timestamptz
);

-- The dispatcher loads the active secrets of a claimed batch's accounts; the API lists an account's.
create index signing_secrets_by_account on signing_secrets (account_id, created_at);

-- Secrets of the installation, shared by every process that uses the database: the stream links' HMAC
-- key (src/security/stream-links.ts). Made by the first process that needs one (store/installation-secrets.ts).
create table installation_secrets (
  name text primary key,
  secret bytea not null,
  created_at timestamptz not null default now()
);

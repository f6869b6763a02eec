-- Per-account request limits (store/account-limits.ts): one row per accepted request of a limited kind,
-- kept while it is inside the one-minute window. Counting rows here rather than in a process's memory
-- makes the limit hold across every API process that shares the database.
create table account_requests (
  account_id uuid not null references accounts (account_id) on delete cascade,
  -- 'upload': an upload or a reprocess; 'redelivery': a callback redelivery.
  kind       text not null check (kind in ('upload', 'redelivery')),
  at         timestamptz not null
);

create index account_requests_by_account on account_requests (account_id, kind, at desc);

-- Custom vocabularies (src/domain/vocabularies.ts): terms or scripts an account keeps by name and names in
-- uploads. Like the other definitions (004), the name is the key, unique per account and compared exactly.
-- A vocabulary holds terms or scripts, never both; the column of the other kind is null. Either list may be
-- empty: VoiceBase keeps empty vocabularies, and an upload naming one is refused (20009).

create table vocabularies (
  account_id      uuid not null references accounts (account_id) on delete cascade,
  vocabulary_name text not null,
  vocabulary_type text not null check (vocabulary_type in ('terms', 'scripts')),
  -- [{term, soundsLike?, weight?}] as the API cleaned them (trimmed, inner spaces collapsed), in the order given.
  terms           jsonb check (terms is null or jsonb_typeof(terms) = 'array'),
  scripts         text[],
  created_at      timestamptz not null,
  updated_at      timestamptz not null,
  primary key (account_id, vocabulary_name),
  check ((vocabulary_type = 'terms') = (terms is not null)),
  check ((vocabulary_type = 'scripts') = (scripts is not null))
);

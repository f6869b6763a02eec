-- Definitions: what an account defines once and names in the configurations of many uploads (keyword
-- spotting groups, categories, trained classifiers). Processing reads them when it runs, so a change
-- applies to media processed after it. Names are unique per account and compared exactly, as VoiceBase
-- does; the name is the key, so each table's primary key begins with the account.

create table spotting_groups (
  account_id  uuid not null references accounts (account_id) on delete cascade,
  group_name  text not null,
  -- As validateSpottingGroup returns them: trimmed, inner spaces collapsed, repeats (ignoring case)
  -- dropped, in the order given.
  keywords    text[] not null check (cardinality(keywords) > 0),
  created_at  timestamptz not null,
  updated_at  timestamptz not null,
  primary key (account_id, group_name)
);

create table categories (
  account_id           uuid not null references accounts (account_id) on delete cascade,
  category_name        text not null,
  category_description text,
  -- In Hark's query language (src/analytics/categories.ts), checked by its parser before it is stored;
  -- kept as the client wrote it, and parsed again when media are processed.
  query                text not null,
  -- VoiceBase's bookkeeping fields: kept for the client, used by nothing in Hark.
  tags                 text[],
  notes                text,
  version              text,
  created_at           timestamptz not null,
  updated_at           timestamptz not null,
  primary key (account_id, category_name)
);

create table classifiers (
  -- Stays the same when the classifier is trained again under its name; the version tells trainings apart.
  classifier_id   uuid primary key,
  account_id      uuid not null references accounts (account_id) on delete cascade,
  classifier_name text not null,
  -- 1 at the first training, one more at each retraining. Media results carry it (as VoiceBase's string
  -- classifierVersion), so a client can tell which training made a prediction.
  version         integer not null default 1 check (version >= 1),
  -- The positive label (class 1), then the negative one (class 0). The model holds them too; this copy
  -- lets a listing show them without reading the models.
  labels          text[] not null check (cardinality(labels) = 2),
  example_count   integer not null check (example_count > 0),
  -- The ClassifierModel that trainClassifier returned, as it is; it carries its own format version.
  model           jsonb not null,
  created_at      timestamptz not null,
  updated_at      timestamptz not null,
  unique (account_id, classifier_name)
);

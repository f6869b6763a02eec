-- Media search (GET /v3/media): full text over each item's title, description, transcript words and the
-- extended metadata fields its account declared searchable (PUT /v3/definition/media/search), and
-- containment over extended metadata (extendedFilter).

-- An account's searchable fields: VoiceBase's `VbSearchableFields`, each `extended.` and a dotted path.
create table searchable_fields (
  account_id uuid primary key references accounts (account_id) on delete cascade,
  fields     text[] not null,
  updated_at timestamptz not null
);

-- What a query matches, by weight: A title, B description, C the searchable extended fields, D the spoken
-- words (speaker-turn markers are not words). The `simple` configuration lowercases and never stems: the
-- transcripts are in many languages, and a client searching "Frost" means that word. An encrypted item
-- matches nothing: its metadata and results are the client's secret (its transcript is not even stored).
-- Nor does an item uploaded with `searchability.searchable: false` (VoiceBase's: kept out of the media query).
create function media_search_document(configuration jsonb, metadata jsonb, sections jsonb, fields text[])
returns tsvector language sql immutable as $$
  select case when configuration ? 'encryption'
                   or configuration #>> '{raw,searchability,searchable}' = 'false' then ''::tsvector else
    setweight(to_tsvector('simple'::regconfig, coalesce(metadata ->> 'title', '')), 'A')
    || setweight(to_tsvector('simple'::regconfig, coalesce(metadata ->> 'description', '')), 'B')
    || setweight(jsonb_to_tsvector('simple'::regconfig,
         coalesce((select jsonb_agg(metadata #> string_to_array(field, '.')) from unnest(fields) as field), '[]'),
         '["string", "numeric"]'), 'C')
    || setweight(jsonb_to_tsvector('simple'::regconfig,
         jsonb_path_query_array(sections, '$.transcript.words[*] ? (!exists(@.m) || @.m != "turn").w'),
         '["string"]'), 'D')
  end
$$;

-- Kept by a trigger rather than generated: it depends on the account's searchable fields, which live in
-- another table. Changing those fields recomputes the account's documents (store/searchable-fields.ts).
alter table media add column search_document tsvector not null default ''::tsvector;

create function media_search_document_trigger() returns trigger language plpgsql as $$
begin
  new.search_document := media_search_document(new.configuration, new.metadata, new.sections,
    (select fields from searchable_fields where account_id = new.account_id));
  return new;
end
$$;

create trigger media_search_document before insert or update of configuration, metadata, sections on media
  for each row execute function media_search_document_trigger();

update media set metadata = metadata;

create index media_search on media using gin (search_document);
-- extendedFilter is containment (`metadata @> {"extended": {...}}`).
create index media_metadata on media using gin (metadata jsonb_path_ops);

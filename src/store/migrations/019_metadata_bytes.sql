-- The size of each item's metadata as text, kept beside it, so that a page of GET /v3/media can stop
-- before its metadata passes HARK_LIST_PAGE_METADATA_BYTES without reading (and detoasting) the metadata
-- of items it leaves out (store/media-search.ts). Metadata stored before HARK_MAX_METADATA_BYTES may be
-- up to 1 MiB; a thousand such items on one page held gigabytes in memory.
alter table media add column metadata_bytes integer
  generated always as (coalesce(octet_length(metadata::text), 0)) stored;

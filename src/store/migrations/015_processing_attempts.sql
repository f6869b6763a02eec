-- What a media item's processing has cost it, counted by Hark rather than by pg-boss (whose retry_count
-- goes up on every claim, so a job handed back at a stop would use up one of the item's retries):
-- process_failures: attempts that failed on our side (the job then runs again, up to a limit);
-- process_crashes: attempts whose process died mid-way (killed, power cut), seen at the next claim;
-- process_open: an attempt is under way, or died; a stop's hand-back and a failure close it.
-- A reprocess starts the counts again (store/media.ts, startProcessing).
alter table media
  add column process_failures integer not null default 0,
  add column process_crashes integer not null default 0,
  add column process_open boolean not null default false;

-- The check for orphaned media (store/orphaned-media.ts) reads the items not yet ended, every sweep.
create index media_in_process on media (date_created) where status in ('accepted', 'running');

-- Reprocessing (`POST /v3/media/{mediaId}`): an item is processed again, from its stored original, with a
-- new configuration. Each processing of an item is a run, counted from 0; a run's callbacks are their own
-- deliveries, so a reprocess adds rows beside the earlier runs' (which keep their state and their log).

alter table media add column run integer not null default 0 check (run >= 0);
-- The corrected transcript a reprocess gave (its `transcript` part): every later run aligns it to the
-- recognised words, until another reprocess gives another.
alter table media add column given_transcript text;

alter table deliveries add column run integer not null default 0 check (run >= 0);
alter table deliveries drop constraint deliveries_media_id_position_key;
alter table deliveries add constraint deliveries_media_id_run_position_key unique (media_id, run, position);

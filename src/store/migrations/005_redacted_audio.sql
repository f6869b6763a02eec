-- The `redacted-audio` stream: the original with a tone over what the detectors found, made when a
-- detector of the configuration has an audio redactor.
alter table media add column redacted_blob text;

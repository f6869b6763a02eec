-- A try that could not be made because the callback's stored body is gone from the blob store
-- (callbacks/deliver.ts): its own error kind, so the delivery log says why nothing was sent.
alter table delivery_attempts drop constraint delivery_attempts_error_kind_check;
alter table delivery_attempts add constraint delivery_attempts_error_kind_check
  check (error_kind in ('dns', 'connect', 'tls', 'timeout', 'refused-address', 'http-status', 'body-missing'));

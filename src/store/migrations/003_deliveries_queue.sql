-- The deliveries table becomes its own queue (a transactional outbox): a dispatcher claims the rows
-- that are due, so the delivery row is the job, and no second record of a delivery's place in its
-- schedule can disagree with it.

alter table deliveries
  -- The rendered body (analytics and transcript callbacks); a media callback streams `body_blob`.
  -- Deliveries rendered by earlier releases have their body in `body_blob` instead.
  add column body bytea,
  -- When a dispatcher should next take the row: the time of its next scheduled attempt, or, while a
  -- burst runs, when the claim on it lapses (its dispatcher is presumed dead). Null once ended.
  add column due_at timestamptz,
  -- The claim of the dispatcher running the current burst; a stale dispatcher cannot overwrite a
  -- newer claim's outcome.
  add column claim uuid;

update deliveries set due_at = next_try_at where state in ('pending', 'will-retry', 'trying');

create index deliveries_due on deliveries (due_at) where due_at is not null;

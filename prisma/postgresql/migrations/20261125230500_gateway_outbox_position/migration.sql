-- The outbox in commit order across instances. Every transaction of the store holds one advisory lock until it
-- commits (lib/guild-api/store/postgresql-driver.ts), so positions drawn from this sequence inside it commit in the
-- order they were drawn: a reader that has seen position N has seen every row before it. Rows copied in from SQLite
-- or written before this migration get positions in their id order.
ALTER TABLE "gateway_events" ADD COLUMN "position" BIGINT;
CREATE INDEX "gateway_events_position_idx" ON "gateway_events"("position");

CREATE SEQUENCE gateway_events_position_seq;
UPDATE "gateway_events" SET "position" = numbered.n
  FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM "gateway_events") AS numbered
  WHERE "gateway_events".id = numbered.id;
SELECT setval('gateway_events_position_seq', COALESCE((SELECT MAX("position") FROM "gateway_events"), 0) + 1, false);

CREATE FUNCTION gateway_events_take_position() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."position" := nextval('gateway_events_position_seq');
  RETURN NEW;
END;
$$;
CREATE TRIGGER gateway_events_position BEFORE INSERT ON "gateway_events"
  FOR EACH ROW EXECUTE FUNCTION gateway_events_take_position();

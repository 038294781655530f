-- The outbox's position column, used on PostgreSQL only (SQLite walks gateway_events by rowid, which its single write
-- lock assigns in commit order): kept in both schemas so the two stay one.
ALTER TABLE "gateway_events" ADD COLUMN "position" BIGINT;
CREATE INDEX "gateway_events_position_idx" ON "gateway_events"("position");

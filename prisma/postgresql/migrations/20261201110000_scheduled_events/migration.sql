-- Guild Scheduled Events (issue #34): cover images and recurrence rules on the events, the users interested in each
-- (paged by user id), and an index for the sweep that completes active events once their end time has passed.
-- AlterTable
ALTER TABLE "guild_scheduled_events" ADD COLUMN "image" TEXT,
ADD COLUMN "recurrence_rule" TEXT;

-- CreateTable
CREATE TABLE "guild_scheduled_event_users" (
    "event_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,

    CONSTRAINT "guild_scheduled_event_users_pkey" PRIMARY KEY ("event_id","user_id")
);

-- CreateIndex
CREATE INDEX "guild_scheduled_events_status_scheduled_end_time_idx" ON "guild_scheduled_events"("status", "scheduled_end_time");

-- Other instances hear of interest changes as of every table the API reads (change_notifications).
CREATE TRIGGER "guild_scheduled_event_users_notify_change" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE
  ON "guild_scheduled_event_users" FOR EACH STATEMENT EXECUTE FUNCTION guildhall_notify_change();

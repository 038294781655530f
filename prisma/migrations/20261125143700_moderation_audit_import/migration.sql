-- The audit history imports the guild's own audit log (bots, other clients) beside the dashboard's own entries,
-- prune previews remember the member count they saw, and the import keeps its place per guild.

-- AlterTable (columns added in place: the history keeps its rows and ids)
ALTER TABLE "audit_history_entries" ADD COLUMN "source" TEXT NOT NULL DEFAULT 'dashboard';
ALTER TABLE "audit_history_entries" ADD COLUMN "auditLogId" TEXT;
ALTER TABLE "audit_history_entries" ADD COLUMN "actorBot" BOOLEAN NOT NULL DEFAULT false;
CREATE UNIQUE INDEX "audit_history_entries_auditLogId_key" ON "audit_history_entries"("auditLogId");

-- AlterTable
ALTER TABLE "prune_previews" ADD COLUMN "memberCount" INTEGER;

-- CreateTable
CREATE TABLE "guild_audit_log_syncs" (
    "guildId" TEXT NOT NULL PRIMARY KEY,
    "newestId" TEXT,
    "oldestId" TEXT,
    "backfilled" BOOLEAN NOT NULL DEFAULT false,
    "syncedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

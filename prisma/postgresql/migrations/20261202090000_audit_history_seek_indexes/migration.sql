-- The audit history's filter menus, one source's page and the Bans page's "banned by" read by index seeks, not over
-- the whole history (which grows by every change the guild's audit log imports: about 20,000 entries an hour of the
-- soak's steady moderation).
-- The menus' actor names and actions compare in byte order, as on SQLite (the init migration's rule for text that is
-- ordered or read as ranges): the first of a renamed actor's names, and the indexes' order, are the same on both.
ALTER TABLE "audit_history_entries" ALTER COLUMN "actorName" SET DATA TYPE TEXT COLLATE "C";
ALTER TABLE "audit_history_entries" ALTER COLUMN "action" SET DATA TYPE TEXT COLLATE "C";

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_source_createdAt_idx" ON "audit_history_entries"("guildId", "source", "createdAt");

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_source_action_idx" ON "audit_history_entries"("guildId", "source", "action");

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_source_actorId_actorName_idx" ON "audit_history_entries"("guildId", "source", "actorId", "actorName");

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_targetId_createdAt_idx" ON "audit_history_entries"("guildId", "targetId", "createdAt");


-- The audit history's filter menus, one source's page and the Bans page's "banned by" read by index seeks, not over
-- the whole history (which grows by every change the guild's audit log imports: about 20,000 entries an hour of the
-- soak's steady moderation).
-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_source_createdAt_idx" ON "audit_history_entries"("guildId", "source", "createdAt");

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_source_action_idx" ON "audit_history_entries"("guildId", "source", "action");

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_source_actorId_actorName_idx" ON "audit_history_entries"("guildId", "source", "actorId", "actorName");

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_targetId_createdAt_idx" ON "audit_history_entries"("guildId", "targetId", "createdAt");


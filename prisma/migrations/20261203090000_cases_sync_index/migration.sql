-- The entries moderation cases are still to be made from (syncCases, after every audit-log import) are found by a
-- seek. On (guildId, casesDerived) SQLite's planner walked (guildId, createdAt) to skip the sort, reading the whole
-- history to find the few new entries: 20 ms at 46,000 entries, more every hour.
-- DropIndex
DROP INDEX "audit_history_entries_guildId_casesDerived_idx";

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_casesDerived_createdAt_idx" ON "audit_history_entries"("guildId", "casesDerived", "createdAt");

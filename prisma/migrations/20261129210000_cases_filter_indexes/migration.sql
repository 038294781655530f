-- The Cases list's filters read by number (the list's order): a member's few cases among many are found at once.
DROP INDEX "moderation_cases_guildId_targetId_createdAt_idx";
DROP INDEX "moderation_cases_guildId_type_createdAt_idx";
DROP INDEX "moderation_cases_guildId_moderatorId_createdAt_idx";

-- CreateIndex
CREATE INDEX "moderation_cases_guildId_targetId_number_idx" ON "moderation_cases"("guildId", "targetId", "number");

-- CreateIndex
CREATE INDEX "moderation_cases_guildId_type_number_idx" ON "moderation_cases"("guildId", "type", "number");

-- CreateIndex
CREATE INDEX "moderation_cases_guildId_moderatorId_number_idx" ON "moderation_cases"("guildId", "moderatorId", "number");

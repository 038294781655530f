-- DropIndex
DROP INDEX "members_guild_id_role_count_last_active_at_idx";

-- CreateIndex
CREATE INDEX "members_guild_id_role_count_last_active_at_user_id_idx" ON "members"("guild_id", "role_count", "last_active_at", "user_id");


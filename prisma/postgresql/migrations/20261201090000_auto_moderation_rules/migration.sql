-- AutoMod rules (issue #33): Discord's Auto Moderation rules, their trigger metadata, actions and exempt ids kept as
-- the wire's JSON; rules are counted per trigger type (Discord's caps), hence the index.
-- CreateTable
CREATE TABLE "auto_moderation_rules" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "creator_id" BIGINT NOT NULL,
    "event_type" INTEGER NOT NULL,
    "trigger_type" INTEGER NOT NULL,
    "trigger_metadata" TEXT NOT NULL,
    "actions" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "exempt_roles" TEXT NOT NULL DEFAULT '[]',
    "exempt_channels" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "auto_moderation_rules_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "auto_moderation_rules_guild_id_trigger_type_idx" ON "auto_moderation_rules"("guild_id", "trigger_type");

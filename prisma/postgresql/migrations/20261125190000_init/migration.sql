-- Guildhall's schema on PostgreSQL: every table of prisma/schema.prisma as `prisma migrate diff --from-empty
-- --to-schema-datamodel prisma/postgresql/schema.prisma --script` writes it, with what the SQLite migrations up to
-- 20261125163800_guild_snapshot_generation add by hand (prisma/migrations/*/migration.sql), in PostgreSQL's terms:
-- the members' stored wire JSON, the presence counter and the guild snapshot's stamp kept by plpgsql triggers, the
-- partial and expression indexes, and collations. Later migrations come in pairs: one in each folder
-- (tests/postgres/schema-parity.test.ts compares the two migrated schemas).
--
-- Collations: SQLite compares text byte by byte (BINARY); a PostgreSQL database's default collation is usually a
-- language's (en_US, ICU), which orders 'B' after 'a' and skips punctuation. The text the guild API orders by or reads
-- as ranges keeps SQLite's byte order with COLLATE "C": the members' name keys (username order, name prefixes as
-- ranges), guild names (the guild list's order) and the lower-cased global name index below.

-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "users" (
    "id" BIGINT NOT NULL,
    "username" TEXT NOT NULL,
    "global_name" TEXT,
    "discriminator" TEXT NOT NULL DEFAULT '0',
    "avatar" TEXT,
    "banner" TEXT,
    "bot" BOOLEAN NOT NULL DEFAULT false,
    "system" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "public_flags" INTEGER NOT NULL DEFAULT 0,
    "locale" TEXT NOT NULL DEFAULT 'en-US',
    "mfa_enabled" BOOLEAN NOT NULL DEFAULT false,
    "password_hash" TEXT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "applications" (
    "id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "icon" TEXT,
    "owner_id" BIGINT NOT NULL,
    "bot_user_id" BIGINT,
    "bot_token_hash" TEXT,
    "client_secret_hash" TEXT NOT NULL,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "redirect_uris" TEXT NOT NULL DEFAULT '[]',
    "url_mappings" TEXT NOT NULL DEFAULT '[]',
    "activities_enabled" BOOLEAN NOT NULL DEFAULT false,
    "integration_types" TEXT NOT NULL DEFAULT '[0,1]',
    "bot_public" BOOLEAN NOT NULL DEFAULT true,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "applications_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "application_commands" (
    "id" BIGINT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "guild_id" BIGINT,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "handler" INTEGER,
    "integration_types" TEXT NOT NULL DEFAULT '[0,1]',
    "contexts" TEXT NOT NULL DEFAULT '[0,1,2]',
    "version" BIGINT NOT NULL,

    CONSTRAINT "application_commands_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "oauth2_codes" (
    "code_hash" TEXT NOT NULL,
    "application_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "scopes" TEXT NOT NULL,
    "redirect_uri" TEXT,
    "code_challenge" TEXT,
    "code_challenge_method" TEXT,
    "guild_id" BIGINT,
    "expires_at" BIGINT NOT NULL,
    "used_at" BIGINT,

    CONSTRAINT "oauth2_codes_pkey" PRIMARY KEY ("code_hash")
);

-- CreateTable
CREATE TABLE "oauth2_tokens" (
    "id" BIGINT NOT NULL,
    "access_token_hash" TEXT NOT NULL,
    "refresh_token_hash" TEXT,
    "application_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "scopes" TEXT NOT NULL,
    "expires_at" BIGINT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "revoked_at" BIGINT,
    "family_id" BIGINT,

    CONSTRAINT "oauth2_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "guilds" (
    "id" BIGINT NOT NULL,
    "name" TEXT COLLATE "C" NOT NULL,
    "icon" TEXT,
    "splash" TEXT,
    "discovery_splash" TEXT,
    "banner" TEXT,
    "description" TEXT,
    "owner_id" BIGINT NOT NULL,
    "application_id" BIGINT,
    "region" TEXT,
    "afk_channel_id" BIGINT,
    "afk_timeout" INTEGER NOT NULL DEFAULT 300,
    "widget_enabled" BOOLEAN NOT NULL DEFAULT false,
    "widget_channel_id" BIGINT,
    "verification_level" INTEGER NOT NULL DEFAULT 0,
    "default_message_notifications" INTEGER NOT NULL DEFAULT 0,
    "explicit_content_filter" INTEGER NOT NULL DEFAULT 0,
    "features" TEXT NOT NULL DEFAULT '[]',
    "mfa_level" INTEGER NOT NULL DEFAULT 0,
    "system_channel_id" BIGINT,
    "system_channel_flags" INTEGER NOT NULL DEFAULT 0,
    "rules_channel_id" BIGINT,
    "public_updates_channel_id" BIGINT,
    "safety_alerts_channel_id" BIGINT,
    "max_members" INTEGER NOT NULL DEFAULT 500000,
    "max_presences" INTEGER,
    "max_video_channel_users" INTEGER NOT NULL DEFAULT 25,
    "max_stage_video_channel_users" INTEGER NOT NULL DEFAULT 50,
    "vanity_url_code" TEXT,
    "vanity_url_uses" INTEGER NOT NULL DEFAULT 0,
    "premium_tier" INTEGER NOT NULL DEFAULT 0,
    "premium_subscription_count" INTEGER NOT NULL DEFAULT 0,
    "preferred_locale" TEXT NOT NULL DEFAULT 'en-US',
    "nsfw_level" INTEGER NOT NULL DEFAULT 0,
    "premium_progress_bar_enabled" BOOLEAN NOT NULL DEFAULT false,
    "member_count" INTEGER NOT NULL DEFAULT 0,
    "invites_disabled_until" BIGINT,
    "dms_disabled_until" BIGINT,
    "dm_spam_detected_at" BIGINT,
    "raid_detected_at" BIGINT,
    "welcome_description" TEXT,
    "welcome_channels" TEXT NOT NULL DEFAULT '[]',
    "widget_version" INTEGER NOT NULL DEFAULT 0,
    "created_at" BIGINT NOT NULL,
    "presence_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "guilds_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "roles" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "permissions" BIGINT NOT NULL,
    "position" INTEGER NOT NULL,
    "color" INTEGER NOT NULL DEFAULT 0,
    "secondary_color" INTEGER,
    "tertiary_color" INTEGER,
    "hoist" BOOLEAN NOT NULL DEFAULT false,
    "icon" TEXT,
    "unicode_emoji" TEXT,
    "managed" BOOLEAN NOT NULL DEFAULT false,
    "mentionable" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "tags" TEXT,

    CONSTRAINT "roles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cache_generations" (
    "name" TEXT NOT NULL,
    "value" BIGINT NOT NULL,

    CONSTRAINT "cache_generations_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "channels" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "parent_id" BIGINT,
    "topic" TEXT,
    "nsfw" BOOLEAN NOT NULL DEFAULT false,
    "bitrate" INTEGER,
    "user_limit" INTEGER,
    "rate_limit_per_user" INTEGER,
    "rtc_region" TEXT,
    "video_quality_mode" INTEGER,
    "default_auto_archive_duration" INTEGER,
    "default_reaction_emoji" TEXT,
    "available_tags" TEXT,
    "default_sort_order" INTEGER,
    "default_forum_layout" INTEGER,
    "default_thread_rate_limit_per_user" INTEGER,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "permission_overwrites" TEXT NOT NULL DEFAULT '[]',
    "last_message_id" BIGINT,
    "owner_id" BIGINT,
    "thread_metadata" TEXT,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "message_count" INTEGER,
    "member_count" INTEGER,
    "applied_tags" TEXT,

    CONSTRAINT "channels_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "thread_members" (
    "thread_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "join_timestamp" BIGINT NOT NULL,
    "flags" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "thread_members_pkey" PRIMARY KEY ("thread_id","user_id")
);

-- CreateTable
CREATE TABLE "members" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "nick" TEXT,
    "nick_key" TEXT COLLATE "C",
    "username_key" TEXT COLLATE "C" NOT NULL,
    "avatar" TEXT,
    "banner" TEXT,
    "joined_at" BIGINT NOT NULL,
    "premium_since" BIGINT,
    "deaf" BOOLEAN NOT NULL DEFAULT false,
    "mute" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "pending" BOOLEAN NOT NULL DEFAULT false,
    "communication_disabled_until" BIGINT,
    "last_active_at" BIGINT NOT NULL,
    "role_count" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL DEFAULT 'offline',
    "wire_json" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "members_pkey" PRIMARY KEY ("guild_id","user_id")
);

-- CreateTable
CREATE TABLE "member_roles" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "role_id" BIGINT NOT NULL,

    CONSTRAINT "member_roles_pkey" PRIMARY KEY ("guild_id","user_id","role_id")
);

-- CreateTable
CREATE TABLE "voice_states" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "channel_id" BIGINT NOT NULL,
    "session_id" TEXT NOT NULL,
    "self_mute" BOOLEAN NOT NULL DEFAULT false,
    "self_deaf" BOOLEAN NOT NULL DEFAULT false,
    "self_video" BOOLEAN NOT NULL DEFAULT false,
    "self_stream" BOOLEAN NOT NULL DEFAULT false,
    "suppress" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "voice_states_pkey" PRIMARY KEY ("guild_id","user_id")
);

-- CreateTable
CREATE TABLE "bans" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "reason" TEXT,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "bans_pkey" PRIMARY KEY ("guild_id","user_id")
);

-- CreateTable
CREATE TABLE "emojis" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "roles" TEXT NOT NULL DEFAULT '[]',
    "user_id" BIGINT,
    "require_colons" BOOLEAN NOT NULL DEFAULT true,
    "managed" BOOLEAN NOT NULL DEFAULT false,
    "animated" BOOLEAN NOT NULL DEFAULT false,
    "available" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "emojis_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "stickers" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "tags" TEXT NOT NULL,
    "format_type" INTEGER NOT NULL,
    "available" BOOLEAN NOT NULL DEFAULT true,

    CONSTRAINT "stickers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "guild_scheduled_events" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "channel_id" BIGINT,
    "creator_id" BIGINT,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "scheduled_start_time" BIGINT NOT NULL,
    "scheduled_end_time" BIGINT,
    "privacy_level" INTEGER NOT NULL DEFAULT 2,
    "status" INTEGER NOT NULL DEFAULT 1,
    "entity_type" INTEGER NOT NULL,
    "entity_metadata" TEXT,
    "user_count" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "guild_scheduled_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "invites" (
    "code" TEXT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "channel_id" BIGINT NOT NULL,
    "inviter_id" BIGINT,
    "type" INTEGER NOT NULL DEFAULT 0,
    "target_type" INTEGER,
    "target_user_id" BIGINT,
    "target_application_id" BIGINT,
    "max_age" INTEGER NOT NULL DEFAULT 86400,
    "max_uses" INTEGER NOT NULL DEFAULT 0,
    "uses" INTEGER NOT NULL DEFAULT 0,
    "temporary" BOOLEAN NOT NULL DEFAULT false,
    "flags" INTEGER NOT NULL DEFAULT 0,
    "role_ids" TEXT NOT NULL DEFAULT '[]',
    "widget" BOOLEAN NOT NULL DEFAULT false,
    "created_at" BIGINT NOT NULL,
    "expires_at" BIGINT,

    CONSTRAINT "invites_pkey" PRIMARY KEY ("code")
);

-- CreateTable
CREATE TABLE "invite_target_users" (
    "invite_code" TEXT NOT NULL,
    "user_id" BIGINT NOT NULL,

    CONSTRAINT "invite_target_users_pkey" PRIMARY KEY ("invite_code","user_id")
);

-- CreateTable
CREATE TABLE "invite_target_users_jobs" (
    "invite_code" TEXT NOT NULL,
    "status" INTEGER NOT NULL DEFAULT 0,
    "total_users" INTEGER NOT NULL,
    "processed_users" INTEGER NOT NULL DEFAULT 0,
    "pending_user_ids" TEXT NOT NULL DEFAULT '[]',
    "error_message" TEXT,
    "created_at" BIGINT NOT NULL,
    "completed_at" BIGINT,

    CONSTRAINT "invite_target_users_jobs_pkey" PRIMARY KEY ("invite_code")
);

-- CreateTable
CREATE TABLE "integrations" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "syncing" BOOLEAN,
    "role_id" BIGINT,
    "enable_emoticons" BOOLEAN,
    "expire_behavior" INTEGER,
    "expire_grace_period" INTEGER,
    "user_id" BIGINT,
    "account_id" TEXT NOT NULL,
    "account_name" TEXT NOT NULL,
    "synced_at" BIGINT,
    "subscriber_count" INTEGER,
    "revoked" BOOLEAN,
    "application_id" BIGINT,
    "scopes" TEXT NOT NULL DEFAULT '[]',
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "integrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "guild_onboarding" (
    "guild_id" BIGINT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "mode" INTEGER NOT NULL DEFAULT 0,
    "default_channel_ids" TEXT NOT NULL DEFAULT '[]',
    "prompts" TEXT NOT NULL DEFAULT '[]',

    CONSTRAINT "guild_onboarding_pkey" PRIMARY KEY ("guild_id")
);

-- CreateTable
CREATE TABLE "audit_log_entries" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT,
    "action_type" INTEGER NOT NULL,
    "target_id" TEXT,
    "reason" TEXT,
    "changes" TEXT,
    "options" TEXT,

    CONSTRAINT "audit_log_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "gateway_events" (
    "id" BIGINT NOT NULL,
    "guild_id" BIGINT,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL,

    CONSTRAINT "gateway_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "images" (
    "kind" TEXT NOT NULL,
    "owner_id" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "data" BYTEA NOT NULL,

    CONSTRAINT "images_pkey" PRIMARY KEY ("kind","owner_id","hash")
);

-- CreateTable
CREATE TABLE "dashboard_users" (
    "id" TEXT NOT NULL,
    "name" TEXT,
    "email" TEXT,
    "emailVerified" TIMESTAMP(3),
    "image" TEXT,

    CONSTRAINT "dashboard_users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_accounts" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "providerAccountId" TEXT NOT NULL,
    "refresh_token" TEXT,
    "access_token" TEXT,
    "expires_at" INTEGER,
    "token_type" TEXT,
    "scope" TEXT,
    "id_token" TEXT,
    "session_state" TEXT,

    CONSTRAINT "dashboard_accounts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_sessions" (
    "id" TEXT NOT NULL,
    "sessionToken" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "dashboard_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "dashboard_verification_tokens" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" TIMESTAMP(3) NOT NULL
);

-- CreateTable
CREATE TABLE "audit_history_entries" (
    "id" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "targetType" TEXT,
    "targetId" TEXT,
    "targetName" TEXT,
    "reason" TEXT,
    "request" TEXT,
    "before" TEXT,
    "after" TEXT,
    "status" TEXT NOT NULL,
    "httpStatus" INTEGER,
    "error" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL DEFAULT 'dashboard',
    "auditLogId" TEXT,
    "actorBot" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "audit_history_entries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "guild_audit_log_syncs" (
    "guildId" TEXT NOT NULL,
    "newestId" TEXT,
    "oldestId" TEXT,
    "backfilled" BOOLEAN NOT NULL DEFAULT false,
    "syncedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "guild_audit_log_syncs_pkey" PRIMARY KEY ("guildId")
);

-- CreateTable
CREATE TABLE "prune_previews" (
    "id" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "days" INTEGER NOT NULL,
    "includeRoles" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "actorId" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ranAt" TIMESTAMP(3),
    "ranBy" TEXT,
    "pruned" INTEGER,
    "computeCount" BOOLEAN,
    "runStatus" TEXT,
    "runError" TEXT,
    "memberCount" INTEGER,

    CONSTRAINT "prune_previews_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_ban_jobs" (
    "id" TEXT NOT NULL,
    "guildId" TEXT NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'ban',
    "params" TEXT NOT NULL DEFAULT '{}',
    "actorId" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "reason" TEXT,
    "status" TEXT NOT NULL,
    "deleteMessageSeconds" INTEGER NOT NULL DEFAULT 0,
    "invalid" TEXT NOT NULL DEFAULT '[]',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "bulk_ban_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "bulk_ban_items" (
    "jobId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "detail" TEXT,
    "name" TEXT,

    CONSTRAINT "bulk_ban_items_pkey" PRIMARY KEY ("jobId","userId")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");

-- CreateIndex
CREATE UNIQUE INDEX "applications_bot_user_id_key" ON "applications"("bot_user_id");

-- CreateIndex
CREATE UNIQUE INDEX "applications_bot_token_hash_key" ON "applications"("bot_token_hash");

-- CreateIndex
CREATE INDEX "application_commands_application_id_idx" ON "application_commands"("application_id");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_tokens_access_token_hash_key" ON "oauth2_tokens"("access_token_hash");

-- CreateIndex
CREATE UNIQUE INDEX "oauth2_tokens_refresh_token_hash_key" ON "oauth2_tokens"("refresh_token_hash");

-- CreateIndex
CREATE INDEX "oauth2_tokens_user_id_idx" ON "oauth2_tokens"("user_id");

-- CreateIndex
CREATE INDEX "oauth2_tokens_family_id_idx" ON "oauth2_tokens"("family_id");

-- CreateIndex
CREATE UNIQUE INDEX "guilds_vanity_url_code_key" ON "guilds"("vanity_url_code");

-- CreateIndex
CREATE INDEX "roles_guild_id_position_idx" ON "roles"("guild_id", "position");

-- CreateIndex
CREATE INDEX "channels_guild_id_type_idx" ON "channels"("guild_id", "type");

-- CreateIndex
CREATE INDEX "channels_parent_id_idx" ON "channels"("parent_id");

-- CreateIndex
CREATE INDEX "thread_members_user_id_idx" ON "thread_members"("user_id");

-- CreateIndex
CREATE INDEX "members_guild_id_nick_key_user_id_idx" ON "members"("guild_id", "nick_key", "user_id");

-- CreateIndex
CREATE INDEX "members_guild_id_username_key_user_id_idx" ON "members"("guild_id", "username_key", "user_id");

-- CreateIndex
CREATE INDEX "members_guild_id_joined_at_user_id_idx" ON "members"("guild_id", "joined_at", "user_id");

-- CreateIndex
CREATE INDEX "members_guild_id_role_count_last_active_at_user_id_idx" ON "members"("guild_id", "role_count", "last_active_at", "user_id");

-- CreateIndex
CREATE INDEX "members_guild_id_status_idx" ON "members"("guild_id", "status");

-- CreateIndex
CREATE INDEX "members_user_id_idx" ON "members"("user_id");

-- CreateIndex
CREATE INDEX "member_roles_guild_id_role_id_idx" ON "member_roles"("guild_id", "role_id");

-- CreateIndex
CREATE INDEX "voice_states_channel_id_idx" ON "voice_states"("channel_id");

-- CreateIndex
CREATE INDEX "emojis_guild_id_idx" ON "emojis"("guild_id");

-- CreateIndex
CREATE INDEX "stickers_guild_id_idx" ON "stickers"("guild_id");

-- CreateIndex
CREATE INDEX "guild_scheduled_events_guild_id_idx" ON "guild_scheduled_events"("guild_id");

-- CreateIndex
CREATE INDEX "invites_guild_id_idx" ON "invites"("guild_id");

-- CreateIndex
CREATE INDEX "invites_channel_id_idx" ON "invites"("channel_id");

-- CreateIndex
CREATE INDEX "integrations_guild_id_idx" ON "integrations"("guild_id");

-- CreateIndex
CREATE INDEX "audit_log_entries_guild_id_id_idx" ON "audit_log_entries"("guild_id", "id");

-- CreateIndex
CREATE INDEX "gateway_events_guild_id_id_idx" ON "gateway_events"("guild_id", "id");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_users_email_key" ON "dashboard_users"("email");

-- CreateIndex
CREATE INDEX "dashboard_accounts_userId_idx" ON "dashboard_accounts"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_accounts_provider_providerAccountId_key" ON "dashboard_accounts"("provider", "providerAccountId");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_sessions_sessionToken_key" ON "dashboard_sessions"("sessionToken");

-- CreateIndex
CREATE INDEX "dashboard_sessions_userId_idx" ON "dashboard_sessions"("userId");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_verification_tokens_token_key" ON "dashboard_verification_tokens"("token");

-- CreateIndex
CREATE UNIQUE INDEX "dashboard_verification_tokens_identifier_token_key" ON "dashboard_verification_tokens"("identifier", "token");

-- CreateIndex
CREATE UNIQUE INDEX "audit_history_entries_auditLogId_key" ON "audit_history_entries"("auditLogId");

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_createdAt_idx" ON "audit_history_entries"("guildId", "createdAt");

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_actorId_idx" ON "audit_history_entries"("guildId", "actorId");

-- CreateIndex
CREATE INDEX "prune_previews_guildId_createdAt_idx" ON "prune_previews"("guildId", "createdAt");

-- CreateIndex
CREATE INDEX "bulk_ban_jobs_guildId_kind_createdAt_idx" ON "bulk_ban_jobs"("guildId", "kind", "createdAt");

-- CreateIndex
CREATE INDEX "bulk_ban_items_jobId_state_idx" ON "bulk_ban_items"("jobId", "state");

-- AddForeignKey
ALTER TABLE "dashboard_accounts" ADD CONSTRAINT "dashboard_accounts_userId_fkey" FOREIGN KEY ("userId") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dashboard_sessions" ADD CONSTRAINT "dashboard_sessions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "dashboard_users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "bulk_ban_items" ADD CONSTRAINT "bulk_ban_items_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "bulk_ban_jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- ───────────── By hand: what Prisma's schema cannot express (SQLite: the migrations named in each part) ─────────────

-- The member object as the API sends it, kept in members.wire_json (SQLite: 20261123120000_member_wire_json). The
-- same JSON text as SQLite's json_object writes: no spaces, keys in the serializers' order, ids as strings, times as
-- toISOString() gives them, role ids in id order, communication_disabled_until null (readers add a running timeout).

-- A text as a JSON value: a string escaped as SQLite's json_object escapes it (\" \\ \n \t, other controls as \u00XX), NULL as null.
CREATE FUNCTION "guildhall_json_text"("value" TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(to_json("value")::text, 'null');

-- Milliseconds since the Unix epoch as toISOString() writes them (SQLite: strftime('%Y-%m-%dT%H:%M:%fZ')); NULL stays NULL.
-- Interval arithmetic, not to_timestamp(double), so no millisecond is lost to floating point.
CREATE FUNCTION "guildhall_iso_time"("ms" BIGINT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN to_char(TIMESTAMP '1970-01-01 00:00:00' + "ms" * INTERVAL '1 millisecond', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"');

CREATE FUNCTION "guildhall_json_bool"("value" BOOLEAN) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN "value" THEN 'true' ELSE 'false' END;

-- The user object of a member (lib/guild-api/serializers/user.ts); "system" only for system users, last.
CREATE FUNCTION "guildhall_user_wire_json"("u" "users") RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN '{"id":"' || ("u")."id" || '","username":' || guildhall_json_text(("u")."username")
  || ',"global_name":' || guildhall_json_text(("u")."global_name")
  || ',"discriminator":' || guildhall_json_text(("u")."discriminator")
  || ',"avatar":' || guildhall_json_text(("u")."avatar")
  || ',"public_flags":' || ("u")."public_flags" || ',"flags":' || ("u")."flags"
  || ',"bot":' || guildhall_json_bool(("u")."bot")
  || ',"banner":' || guildhall_json_text(("u")."banner")
  || ',"accent_color":null,"avatar_decoration_data":null,"collectibles":null,"primary_guild":null'
  || CASE WHEN ("u")."system" THEN ',"system":true' ELSE '' END || '}';

-- One member's wire JSON (lib/guild-api/serializers/member.ts) from its row, its user's row and its role ids as a JSON
-- array. A plain expression, so the planner inlines it into the statements below (on the 1M-member copy, a role given
-- took 3.6 ms through a function with its own query per member, 0.5–1 ms this way; both on a loaded machine).
CREATE FUNCTION "guildhall_member_json"("m" "members", "u" "users", "role_ids" TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN '{"user":' || guildhall_user_wire_json("u")
  || ',"nick":' || guildhall_json_text(("m")."nick")
  || ',"avatar":' || guildhall_json_text(("m")."avatar")
  || ',"banner":' || guildhall_json_text(("m")."banner")
  || ',"roles":' || "role_ids"
  || ',"joined_at":' || guildhall_json_text(guildhall_iso_time(("m")."joined_at"))
  || ',"premium_since":' || guildhall_json_text(guildhall_iso_time(("m")."premium_since"))
  || ',"deaf":' || guildhall_json_bool(("m")."deaf")
  || ',"mute":' || guildhall_json_bool(("m")."mute")
  || ',"flags":' || ("m")."flags"
  || ',"pending":' || guildhall_json_bool(("m")."pending")
  || ',"communication_disabled_until":null,"avatar_decoration_data":null,"collectibles":null}';

-- The member's role ids (a JSON array of strings in id order, the primary key's) are read by a subquery written out in
-- each statement below: a function holding it would run as a query of its own per member (measured about 2× slower).

-- One stored member's JSON as the triggers write it (for checks and repairs: `UPDATE members SET nick = nick` also
-- rewrites it). NULL when the user does not exist.
CREATE FUNCTION "guildhall_member_wire_json"("m" "members") RETURNS TEXT
LANGUAGE sql STABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT guildhall_member_json("m", u, (SELECT '[' || coalesce(string_agg('"' || r."role_id" || '"', ',' ORDER BY r."role_id"), '') || ']'
       FROM "member_roles" r WHERE r."guild_id" = ("m")."guild_id" AND r."user_id" = ("m")."user_id"))
  FROM "users" u WHERE u."id" = ("m")."user_id";
END;

-- A new member, or a change to what the member object shows: computed into the row before it is written (one write,
-- where SQLite's AFTER trigger updates the row a second time). The column list keeps presence and activity updates
-- (status, last_active_at, role_count) and wire_json's own updates from firing it, as on SQLite. A member whose user
-- does not exist gets NULL, which wire_json's NOT NULL refuses, as on SQLite.
CREATE FUNCTION "guildhall_members_wire_json"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  member_user "users";
BEGIN
  SELECT * INTO member_user FROM "users" WHERE "id" = NEW."user_id";
  NEW."wire_json" := CASE WHEN FOUND
    THEN guildhall_member_json(NEW, member_user, (SELECT '[' || coalesce(string_agg('"' || r."role_id" || '"', ',' ORDER BY r."role_id"), '') || ']'
       FROM "member_roles" r WHERE r."guild_id" = NEW."guild_id" AND r."user_id" = NEW."user_id")) END;
  RETURN NEW;
END
$$;

CREATE TRIGGER "members_wire_json_insert" BEFORE INSERT ON "members"
FOR EACH ROW EXECUTE FUNCTION guildhall_members_wire_json();

CREATE TRIGGER "members_wire_json_update"
BEFORE UPDATE OF "nick", "avatar", "banner", "joined_at", "premium_since", "deaf", "mute", "flags", "pending" ON "members"
FOR EACH ROW EXECUTE FUNCTION guildhall_members_wire_json();

-- A role given or taken: that member's JSON again, row by row as on SQLite (the API gives and takes one role a
-- request; measured faster than a statement trigger's transition table for one row).
CREATE FUNCTION "guildhall_member_roles_wire_json"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  changed "member_roles" := CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
BEGIN
  UPDATE "members" m
  SET "wire_json" = guildhall_member_json(m, u, (SELECT '[' || coalesce(string_agg('"' || r."role_id" || '"', ',' ORDER BY r."role_id"), '') || ']'
       FROM "member_roles" r WHERE r."guild_id" = m."guild_id" AND r."user_id" = m."user_id"))
  FROM "users" u
  WHERE m."guild_id" = changed."guild_id" AND m."user_id" = changed."user_id" AND u."id" = m."user_id";
  RETURN NULL;
END
$$;

CREATE TRIGGER "member_roles_wire_json_insert" AFTER INSERT ON "member_roles"
FOR EACH ROW EXECUTE FUNCTION guildhall_member_roles_wire_json();

CREATE TRIGGER "member_roles_wire_json_delete" AFTER DELETE ON "member_roles"
FOR EACH ROW EXECUTE FUNCTION guildhall_member_roles_wire_json();

-- A user's profile changed: every guild's member object of that user (members_user_id_idx).
CREATE FUNCTION "guildhall_users_wire_json"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "members" m
  SET "wire_json" = guildhall_member_json(m, NEW, (SELECT '[' || coalesce(string_agg('"' || r."role_id" || '"', ',' ORDER BY r."role_id"), '') || ']'
       FROM "member_roles" r WHERE r."guild_id" = m."guild_id" AND r."user_id" = m."user_id"))
  WHERE m."user_id" = NEW."id";
  RETURN NULL;
END
$$;

CREATE TRIGGER "users_wire_json_update"
AFTER UPDATE OF "username", "global_name", "discriminator", "avatar", "public_flags", "flags", "bot", "banner", "system" ON "users"
FOR EACH ROW EXECUTE FUNCTION guildhall_users_wire_json();

-- guilds.presence_count, the members online, idle or busy (SQLite: 20261125160700_presence_count), kept in the
-- transaction of every member row it follows. Inserts and deletes once per statement, grouped by guild (a bulk
-- insert or a bulk ban's delete updates each guild once); a status change per row, only when it moves the count.
CREATE FUNCTION "guildhall_members_presence_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "guilds" g SET "presence_count" = g."presence_count" + c."present"
  FROM (SELECT "guild_id", count(*) AS "present" FROM "inserted_members"
        WHERE "status" IN ('online', 'idle', 'dnd') GROUP BY "guild_id") c
  WHERE g."id" = c."guild_id";
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_members_presence_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "guilds" g SET "presence_count" = g."presence_count" - c."present"
  FROM (SELECT "guild_id", count(*) AS "present" FROM "deleted_members"
        WHERE "status" IN ('online', 'idle', 'dnd') GROUP BY "guild_id") c
  WHERE g."id" = c."guild_id";
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_members_presence_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "guilds" SET "presence_count" = "presence_count" - (OLD."status" IN ('online', 'idle', 'dnd'))::int
  WHERE "id" = OLD."guild_id";
  UPDATE "guilds" SET "presence_count" = "presence_count" + (NEW."status" IN ('online', 'idle', 'dnd'))::int
  WHERE "id" = NEW."guild_id";
  RETURN NULL;
END
$$;

CREATE TRIGGER "members_presence_count_insert" AFTER INSERT ON "members"
REFERENCING NEW TABLE AS "inserted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_members_presence_insert();

CREATE TRIGGER "members_presence_count_delete" AFTER DELETE ON "members"
REFERENCING OLD TABLE AS "deleted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_members_presence_delete();

CREATE TRIGGER "members_presence_count_update" AFTER UPDATE OF "status", "guild_id" ON "members"
FOR EACH ROW WHEN ((OLD."status" IN ('online', 'idle', 'dnd')) <> (NEW."status" IN ('online', 'idle', 'dnd'))
  OR OLD."guild_id" <> NEW."guild_id")
EXECUTE FUNCTION guildhall_members_presence_update();

-- The guild snapshot's stamp (SQLite: 20261125163800_guild_snapshot_generation): every row written to guilds or roles
-- sets it to a new random value (random, not a counter: a rolled-back write restores the old value, and a counter
-- would then take the same value again for a different write). Row by row, as on SQLite, so a statement that
-- changes no row (an UPDATE matching nothing) leaves the stamp, and the cached snapshot, as they are.
INSERT INTO "cache_generations" ("name", "value") VALUES ('guilds_roles', (random() * 9.0e18)::bigint);

CREATE FUNCTION "guildhall_bump_guilds_roles_generation"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "cache_generations" SET "value" = (random() * 9.0e18)::bigint WHERE "name" = 'guilds_roles';
  RETURN NULL;
END
$$;

CREATE TRIGGER "guilds_generation" AFTER INSERT OR UPDATE OR DELETE ON "guilds"
FOR EACH ROW EXECUTE FUNCTION guildhall_bump_guilds_roles_generation();

CREATE TRIGGER "roles_generation" AFTER INSERT OR UPDATE OR DELETE ON "roles"
FOR EACH ROW EXECUTE FUNCTION guildhall_bump_guilds_roles_generation();

-- Search Guild Members v2's small indexes (SQLite: 20261125141300_members): timed-out members (a timeout that has
-- ended keeps its time until the next write, so "> now" is checked when read), pending members, bot users.
CREATE INDEX "members_timed_out_idx" ON "members"("guild_id", "communication_disabled_until")
  WHERE "communication_disabled_until" IS NOT NULL;
CREATE INDEX "members_pending_idx" ON "members"("guild_id", "user_id") WHERE "pending";
CREATE INDEX "users_bot_idx" ON "users"("id") WHERE "bot";

-- Global names by their start, as the username and nickname keys are: lower() of ASCII letters only and byte order,
-- as SQLite's lower() and BINARY collation give (queries must use this very expression to be answered by it).
CREATE INDEX "users_global_name_key_idx" ON "users"(lower("global_name" COLLATE "C"));

-- Name substrings. SQLite keeps a trigram full-text table (user_name_trigrams, FTS5) filled by triggers, because FTS5
-- indexes only its own table; pg_trgm indexes the name columns themselves, so there is no copy of the names to keep:
-- `username ILIKE '%text%'` (case-insensitive, in the database's default collation) is answered by these indexes, and
-- a nickname match is one in the guild searched by construction.
CREATE EXTENSION IF NOT EXISTS "pg_trgm";
CREATE INDEX "users_username_trigram_idx" ON "users" USING gin ("username" gin_trgm_ops);
CREATE INDEX "users_global_name_trigram_idx" ON "users" USING gin ("global_name" gin_trgm_ops);
CREATE INDEX "members_nick_trigram_idx" ON "members" USING gin ("nick" gin_trgm_ops) WHERE "nick" IS NOT NULL;

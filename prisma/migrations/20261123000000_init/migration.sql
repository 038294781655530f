-- CreateTable
CREATE TABLE "users" (
    "id" BIGINT NOT NULL PRIMARY KEY,
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
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "applications" (
    "id" BIGINT NOT NULL PRIMARY KEY,
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
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "application_commands" (
    "id" BIGINT NOT NULL PRIMARY KEY,
    "application_id" BIGINT NOT NULL,
    "guild_id" BIGINT,
    "type" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "handler" INTEGER,
    "integration_types" TEXT NOT NULL DEFAULT '[0,1]',
    "contexts" TEXT NOT NULL DEFAULT '[0,1,2]',
    "version" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "oauth2_codes" (
    "code_hash" TEXT NOT NULL PRIMARY KEY,
    "application_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "scopes" TEXT NOT NULL,
    "redirect_uri" TEXT,
    "code_challenge" TEXT,
    "code_challenge_method" TEXT,
    "guild_id" BIGINT,
    "expires_at" BIGINT NOT NULL,
    "used_at" BIGINT
);

-- CreateTable
CREATE TABLE "oauth2_tokens" (
    "id" BIGINT NOT NULL PRIMARY KEY,
    "access_token_hash" TEXT NOT NULL,
    "refresh_token_hash" TEXT,
    "application_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "scopes" TEXT NOT NULL,
    "expires_at" BIGINT NOT NULL,
    "created_at" BIGINT NOT NULL,
    "revoked_at" BIGINT
);

-- CreateTable
CREATE TABLE "guilds" (
    "id" BIGINT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
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
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "roles" (
    "id" BIGINT NOT NULL PRIMARY KEY,
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
    "tags" TEXT
);

-- CreateTable
CREATE TABLE "channels" (
    "id" BIGINT NOT NULL PRIMARY KEY,
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
    "applied_tags" TEXT
);

-- CreateTable
CREATE TABLE "thread_members" (
    "thread_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "join_timestamp" BIGINT NOT NULL,
    "flags" INTEGER NOT NULL DEFAULT 0,

    PRIMARY KEY ("thread_id", "user_id")
);

-- CreateTable
CREATE TABLE "members" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "nick" TEXT,
    "nick_key" TEXT,
    "username_key" TEXT NOT NULL,
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

    PRIMARY KEY ("guild_id", "user_id")
);

-- CreateTable
CREATE TABLE "member_roles" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "role_id" BIGINT NOT NULL,

    PRIMARY KEY ("guild_id", "user_id", "role_id")
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

    PRIMARY KEY ("guild_id", "user_id")
);

-- CreateTable
CREATE TABLE "bans" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "reason" TEXT,
    "created_at" BIGINT NOT NULL,

    PRIMARY KEY ("guild_id", "user_id")
);

-- CreateTable
CREATE TABLE "emojis" (
    "id" BIGINT NOT NULL PRIMARY KEY,
    "guild_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "roles" TEXT NOT NULL DEFAULT '[]',
    "user_id" BIGINT,
    "require_colons" BOOLEAN NOT NULL DEFAULT true,
    "managed" BOOLEAN NOT NULL DEFAULT false,
    "animated" BOOLEAN NOT NULL DEFAULT false,
    "available" BOOLEAN NOT NULL DEFAULT true
);

-- CreateTable
CREATE TABLE "stickers" (
    "id" BIGINT NOT NULL PRIMARY KEY,
    "guild_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "tags" TEXT NOT NULL,
    "format_type" INTEGER NOT NULL,
    "available" BOOLEAN NOT NULL DEFAULT true
);

-- CreateTable
CREATE TABLE "guild_scheduled_events" (
    "id" BIGINT NOT NULL PRIMARY KEY,
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
    "user_count" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "invites" (
    "code" TEXT NOT NULL PRIMARY KEY,
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
    "expires_at" BIGINT
);

-- CreateTable
CREATE TABLE "invite_target_users" (
    "invite_code" TEXT NOT NULL,
    "user_id" BIGINT NOT NULL,

    PRIMARY KEY ("invite_code", "user_id")
);

-- CreateTable
CREATE TABLE "invite_target_users_jobs" (
    "invite_code" TEXT NOT NULL PRIMARY KEY,
    "status" INTEGER NOT NULL DEFAULT 0,
    "total_users" INTEGER NOT NULL,
    "processed_users" INTEGER NOT NULL DEFAULT 0,
    "pending_user_ids" TEXT NOT NULL DEFAULT '[]',
    "error_message" TEXT,
    "created_at" BIGINT NOT NULL,
    "completed_at" BIGINT
);

-- CreateTable
CREATE TABLE "integrations" (
    "id" BIGINT NOT NULL PRIMARY KEY,
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
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "guild_onboarding" (
    "guild_id" BIGINT NOT NULL PRIMARY KEY,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "mode" INTEGER NOT NULL DEFAULT 0,
    "default_channel_ids" TEXT NOT NULL DEFAULT '[]',
    "prompts" TEXT NOT NULL DEFAULT '[]'
);

-- CreateTable
CREATE TABLE "audit_log_entries" (
    "id" BIGINT NOT NULL PRIMARY KEY,
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT,
    "action_type" INTEGER NOT NULL,
    "target_id" TEXT,
    "reason" TEXT,
    "changes" TEXT,
    "options" TEXT
);

-- CreateTable
CREATE TABLE "gateway_events" (
    "id" BIGINT NOT NULL PRIMARY KEY,
    "guild_id" BIGINT,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "created_at" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "images" (
    "kind" TEXT NOT NULL,
    "owner_id" BIGINT NOT NULL,
    "hash" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "data" BLOB NOT NULL,

    PRIMARY KEY ("kind", "owner_id", "hash")
);

-- CreateTable
CREATE TABLE "dashboard_users" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT,
    "email" TEXT,
    "emailVerified" DATETIME,
    "image" TEXT
);

-- CreateTable
CREATE TABLE "dashboard_accounts" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    CONSTRAINT "dashboard_accounts_userId_fkey" FOREIGN KEY ("userId") REFERENCES "dashboard_users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "dashboard_sessions" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "sessionToken" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "expires" DATETIME NOT NULL,
    CONSTRAINT "dashboard_sessions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "dashboard_users" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "dashboard_verification_tokens" (
    "identifier" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expires" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "audit_history_entries" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "prune_previews" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "days" INTEGER NOT NULL,
    "includeRoles" TEXT NOT NULL,
    "count" INTEGER NOT NULL,
    "actorId" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ranAt" DATETIME,
    "ranBy" TEXT,
    "pruned" INTEGER,
    "computeCount" BOOLEAN,
    "runStatus" TEXT,
    "runError" TEXT
);

-- CreateTable
CREATE TABLE "bulk_ban_jobs" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "reason" TEXT,
    "status" TEXT NOT NULL,
    "deleteMessageSeconds" INTEGER NOT NULL DEFAULT 0,
    "invalid" TEXT NOT NULL DEFAULT '[]',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "bulk_ban_items" (
    "jobId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "detail" TEXT,

    PRIMARY KEY ("jobId", "userId"),
    CONSTRAINT "bulk_ban_items_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "bulk_ban_jobs" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
CREATE INDEX "members_guild_id_nick_key_idx" ON "members"("guild_id", "nick_key");

-- CreateIndex
CREATE INDEX "members_guild_id_username_key_idx" ON "members"("guild_id", "username_key");

-- CreateIndex
CREATE INDEX "members_guild_id_role_count_last_active_at_idx" ON "members"("guild_id", "role_count", "last_active_at");

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
CREATE INDEX "audit_history_entries_guildId_createdAt_idx" ON "audit_history_entries"("guildId", "createdAt");

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_actorId_idx" ON "audit_history_entries"("guildId", "actorId");

-- CreateIndex
CREATE INDEX "prune_previews_guildId_createdAt_idx" ON "prune_previews"("guildId", "createdAt");

-- CreateIndex
CREATE INDEX "bulk_ban_jobs_guildId_createdAt_idx" ON "bulk_ban_jobs"("guildId", "createdAt");

-- CreateIndex
CREATE INDEX "bulk_ban_items_jobId_state_idx" ON "bulk_ban_items"("jobId", "state");


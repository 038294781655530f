-- Members at scale: Search Guild Members v2's indexes, and bulk member jobs in the bulk-ban job tables.
-- (Written by hand: ADD COLUMN instead of the table rebuild `migrate diff` proposes, plus what Prisma's schema cannot
-- express: partial and expression indexes, the trigram full-text table and the triggers that keep it.)

-- Bulk jobs: what a job does besides banning (lib/dashboard/jobs/member-actions), and its parameters.
ALTER TABLE "bulk_ban_jobs" ADD COLUMN "kind" TEXT NOT NULL DEFAULT 'ban';
ALTER TABLE "bulk_ban_jobs" ADD COLUMN "params" TEXT NOT NULL DEFAULT '{}';
DROP INDEX "bulk_ban_jobs_guildId_createdAt_idx";
CREATE INDEX "bulk_ban_jobs_guildId_kind_createdAt_idx" ON "bulk_ban_jobs"("guildId", "kind", "createdAt");
ALTER TABLE "bulk_ban_items" ADD COLUMN "name" TEXT;

-- "Member since" order and joined-within ranges, keyset on (joined_at, user_id).
CREATE INDEX "members_guild_id_joined_at_user_id_idx" ON "members"("guild_id", "joined_at", "user_id");
-- The name keys with the user id: username order keyset on (username_key, user_id), and name prefixes read as sets of
-- user ids from the index alone (Search Guild Members' prefix ranges use them as before).
DROP INDEX "members_guild_id_nick_key_idx";
DROP INDEX "members_guild_id_username_key_idx";
CREATE INDEX "members_guild_id_nick_key_user_id_idx" ON "members"("guild_id", "nick_key", "user_id");
CREATE INDEX "members_guild_id_username_key_user_id_idx" ON "members"("guild_id", "username_key", "user_id");

-- Filters that select few members, as small indexes the planner can drive a search from: timed-out members (a
-- timeout that has ended keeps its time until the next write, so "> now" is checked when read), pending members,
-- and bot users.
CREATE INDEX "members_timed_out_idx" ON "members"("guild_id", "communication_disabled_until")
  WHERE "communication_disabled_until" IS NOT NULL;
CREATE INDEX "members_pending_idx" ON "members"("guild_id", "user_id") WHERE "pending" = 1;
CREATE INDEX "users_bot_idx" ON "users"("id") WHERE "bot" = 1;
-- Global names by their start, as the username and nickname keys are (SQLite's lower(): ASCII letters).
CREATE INDEX "users_global_name_key_idx" ON "users"(lower("global_name"));

-- Name substrings: one row per user (rowid = the user id) with the username, the global name and every nickname the
-- user has in any guild, each in its own column (a match never spans two names), indexed by trigrams
-- (case-insensitive). Username and global-name matches need no further check; a nickname match is checked against
-- the nickname the user has in the guild searched. Contentless: the names live in users and members.
CREATE VIRTUAL TABLE "user_name_trigrams" USING fts5("username", "global_name", "nicks", tokenize = 'trigram', content = '', contentless_delete = 1);

-- The row's columns, correlated with "users" (never with NEW/OLD values, for the reason the wire_json migration gives).
CREATE VIEW "user_search_names" AS
SELECT u.id, u.username, coalesce(u.global_name, '') AS global_name,
  coalesce((SELECT group_concat(m.nick, ' | ') FROM members m WHERE m.user_id = u.id AND m.nick IS NOT NULL), '') AS nicks
FROM users u;

CREATE TRIGGER "users_name_trigrams_insert" AFTER INSERT ON "users" BEGIN
  INSERT INTO "user_name_trigrams"(rowid, "username", "global_name", "nicks") VALUES (NEW.id, NEW.username, coalesce(NEW.global_name, ''), '');
END;

CREATE TRIGGER "users_name_trigrams_update" AFTER UPDATE OF "username", "global_name" ON "users" BEGIN
  DELETE FROM "user_name_trigrams" WHERE rowid = NEW.id;
  INSERT INTO "user_name_trigrams"(rowid, "username", "global_name", "nicks") SELECT id, username, global_name, nicks FROM "user_search_names" WHERE id = NEW.id;
END;

CREATE TRIGGER "users_name_trigrams_delete" AFTER DELETE ON "users" BEGIN
  DELETE FROM "user_name_trigrams" WHERE rowid = OLD.id;
END;

-- Nicknames: only members that have (or had) one touch the index.
CREATE TRIGGER "members_name_trigrams_insert" AFTER INSERT ON "members" WHEN NEW.nick IS NOT NULL BEGIN
  DELETE FROM "user_name_trigrams" WHERE rowid = NEW.user_id;
  INSERT INTO "user_name_trigrams"(rowid, "username", "global_name", "nicks") SELECT id, username, global_name, nicks FROM "user_search_names" WHERE id = NEW.user_id;
END;

CREATE TRIGGER "members_name_trigrams_update" AFTER UPDATE OF "nick" ON "members" WHEN OLD.nick IS NOT NEW.nick BEGIN
  DELETE FROM "user_name_trigrams" WHERE rowid = NEW.user_id;
  INSERT INTO "user_name_trigrams"(rowid, "username", "global_name", "nicks") SELECT id, username, global_name, nicks FROM "user_search_names" WHERE id = NEW.user_id;
END;

CREATE TRIGGER "members_name_trigrams_delete" AFTER DELETE ON "members" WHEN OLD.nick IS NOT NULL BEGIN
  DELETE FROM "user_name_trigrams" WHERE rowid = OLD.user_id;
  INSERT INTO "user_name_trigrams"(rowid, "username", "global_name", "nicks") SELECT id, username, global_name, nicks FROM "user_search_names" WHERE id = OLD.user_id;
END;

-- Users that existed before this migration.
INSERT INTO "user_name_trigrams"(rowid, "username", "global_name", "nicks") SELECT id, username, global_name, nicks FROM "user_search_names";

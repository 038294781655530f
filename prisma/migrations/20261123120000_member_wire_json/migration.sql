-- The member object as the API sends it, kept in members.wire_json by triggers, so a page of List Guild Members
-- or Search Guild Members is a range read of one column instead of JSON built row by row on every request.
-- (Written by hand: ADD COLUMN instead of the table rebuild `migrate diff` proposes, plus the triggers, which
-- Prisma's schema cannot express.)
--
-- The JSON follows the serializers exactly (lib/guild-api/serializers/member.ts and user.ts): ids as strings,
-- booleans as true/false, times as toISOString() gives them ('%f' is seconds with milliseconds), role ids in id
-- order. communication_disabled_until is always null here: a timeout ends with time, not with a write, so readers
-- set it while it lasts.

ALTER TABLE "members" ADD COLUMN "wire_json" TEXT NOT NULL DEFAULT '';

-- One member's wire JSON, which the triggers below store. They look it up correlated with the row being updated
-- ("members".guild_id), never with NEW/OLD values: SQLite evaluates a subquery on trigger values once per firing,
-- before the UPDATE finds its row, and without the view's indexes (measured: 185 µs against 7 µs a member).
CREATE VIEW "member_wire_json" AS
SELECT m.guild_id, m.user_id, json_object(
  'user', CASE WHEN u.system THEN json_set(json_object('id', CAST(u.id AS TEXT), 'username', u.username, 'global_name', u.global_name, 'discriminator', u.discriminator,
    'avatar', u.avatar, 'public_flags', u.public_flags, 'flags', u.flags, 'bot', CASE WHEN u.bot THEN json('true') ELSE json('false') END,
    'banner', u.banner, 'accent_color', NULL, 'avatar_decoration_data', NULL, 'collectibles', NULL, 'primary_guild', NULL), '$.system', json('true')) ELSE json_object('id', CAST(u.id AS TEXT), 'username', u.username, 'global_name', u.global_name, 'discriminator', u.discriminator,
    'avatar', u.avatar, 'public_flags', u.public_flags, 'flags', u.flags, 'bot', CASE WHEN u.bot THEN json('true') ELSE json('false') END,
    'banner', u.banner, 'accent_color', NULL, 'avatar_decoration_data', NULL, 'collectibles', NULL, 'primary_guild', NULL) END,
  'nick', m.nick, 'avatar', m.avatar, 'banner', m.banner,
  'roles', (SELECT json_group_array(CAST(r.role_id AS TEXT)) FROM (SELECT role_id FROM member_roles WHERE guild_id = m.guild_id AND user_id = m.user_id ORDER BY role_id) r),
  'joined_at', strftime('%Y-%m-%dT%H:%M:%fZ', m.joined_at / 1000.0, 'unixepoch'),
  'premium_since', strftime('%Y-%m-%dT%H:%M:%fZ', m.premium_since / 1000.0, 'unixepoch'),
  'deaf', CASE WHEN m.deaf THEN json('true') ELSE json('false') END,
  'mute', CASE WHEN m.mute THEN json('true') ELSE json('false') END,
  'flags', m.flags,
  'pending', CASE WHEN m.pending THEN json('true') ELSE json('false') END,
  'communication_disabled_until', NULL,
  'avatar_decoration_data', NULL, 'collectibles', NULL) AS wire_json
FROM members m JOIN users u ON u.id = m.user_id;

-- A new member, a change to what the member object shows, a role given or taken, a user's profile changed.
-- (recursive_triggers is off, SQLite's default, so the UPDATEs below do not fire these triggers again; the column
-- lists keep wire_json's own update and presence/activity updates from firing them at all.)
CREATE TRIGGER "members_wire_json_insert" AFTER INSERT ON "members" BEGIN
  UPDATE "members" SET "wire_json" = (SELECT v."wire_json" FROM "member_wire_json" v WHERE v.guild_id = "members".guild_id AND v.user_id = "members".user_id)
  WHERE "guild_id" = NEW.guild_id AND "user_id" = NEW.user_id;
END;

CREATE TRIGGER "members_wire_json_update" AFTER UPDATE OF "nick", "avatar", "banner", "joined_at", "premium_since", "deaf", "mute", "flags", "pending" ON "members" BEGIN
  UPDATE "members" SET "wire_json" = (SELECT v."wire_json" FROM "member_wire_json" v WHERE v.guild_id = "members".guild_id AND v.user_id = "members".user_id)
  WHERE "guild_id" = NEW.guild_id AND "user_id" = NEW.user_id;
END;

CREATE TRIGGER "member_roles_wire_json_insert" AFTER INSERT ON "member_roles" BEGIN
  UPDATE "members" SET "wire_json" = (SELECT v."wire_json" FROM "member_wire_json" v WHERE v.guild_id = "members".guild_id AND v.user_id = "members".user_id)
  WHERE "guild_id" = NEW.guild_id AND "user_id" = NEW.user_id;
END;

CREATE TRIGGER "member_roles_wire_json_delete" AFTER DELETE ON "member_roles" BEGIN
  UPDATE "members" SET "wire_json" = (SELECT v."wire_json" FROM "member_wire_json" v WHERE v.guild_id = "members".guild_id AND v.user_id = "members".user_id)
  WHERE "guild_id" = OLD.guild_id AND "user_id" = OLD.user_id;
END;

CREATE TRIGGER "users_wire_json_update" AFTER UPDATE OF "username", "global_name", "discriminator", "avatar", "public_flags", "flags", "bot", "banner", "system" ON "users" BEGIN
  UPDATE "members" SET "wire_json" = (SELECT v."wire_json" FROM "member_wire_json" v WHERE v.guild_id = "members".guild_id AND v.user_id = "members".user_id)
  WHERE "user_id" = NEW.id;
END;

-- Members that existed before this migration.
UPDATE "members" SET "wire_json" = (SELECT v."wire_json" FROM "member_wire_json" v WHERE v.guild_id = "members".guild_id AND v.user_id = "members".user_id);

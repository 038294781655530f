-- Search Guild Members v2's "joined within … with a role" without checking every member who joined (PostgreSQL only;
-- SQLite walks its join-date index and probes member_roles per member, about 0.4 µs each). PostgreSQL's probe costs
-- about 1 µs, so the members page's filter "joined in the last 7 days, with a role" read 941 index entries and probed
-- member_roles 941 times for 75 members on the 100,000-member bench copy (1.5 ms, twice SQLite's whole request), and
-- 10,119 times on a million members (15–20 ms). Here every role assignment is kept with its member's join date, so the
-- role's members who joined in a range are one range of (guild_id, role_id, joined_at): 75 index entries.
--
-- The table is member_roles joined to members, kept by triggers in the transaction of every write to either: inserts
-- and deletes once per statement from their transition tables (a bulk role add of 10,000 is one INSERT here); a
-- member's join date, guild or user id changing, row by row (PostgreSQL refuses transition tables on a trigger with a
-- column list, and a statement trigger on every UPDATE of members would also run for presence and activity updates).
-- A role assignment whose member row does not exist has no row here, as the join has none.
--
-- The statement triggers join their transition table (a few rows, usually one) to an indexed table by its key; the
-- planner, costing a probe as a random read, hashed this whole table instead (a bulk ban of 200 members scanned all
-- 23,664 rows twice, 10 ms of its 35 on the 100,000-member bench copy). Those functions forbid hash and merge joins
-- for their own statements, so each row of the transition table probes the key.
--
-- npm run db:copy copies with the target's triggers off and rebuilds this table after the copy with the function
-- below, which is also the backfill here. tests/postgres/triggers-parity.test.ts compares it with SQLite's member_roles
-- joined to members after writes of every kind.

-- Instances may be serving while this runs (npm start migrates): writes to members and member_roles wait from here
-- until this migration commits (it runs as one transaction), so none falls between the backfill's read and the
-- triggers.
LOCK TABLE "members", "member_roles" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "role_members_by_joined_at" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "role_id" BIGINT NOT NULL,
    -- members.joined_at
    "joined_at" BIGINT NOT NULL,

    CONSTRAINT "role_members_by_joined_at_pkey" PRIMARY KEY ("guild_id", "user_id", "role_id")
);

-- A role's members by join date, user id last: index-only ranges for the search (store/member-search.ts).
CREATE INDEX "role_members_by_joined_at_role_idx" ON "role_members_by_joined_at"("guild_id", "role_id", "joined_at", "user_id");

-- The table from member_roles and members as they are: the backfill below, and npm run db:copy after copying with
-- triggers off (scripts/copy-sqlite-to-postgresql.ts).
CREATE FUNCTION "guildhall_rebuild_role_members_by_joined_at"() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM "role_members_by_joined_at";
  INSERT INTO "role_members_by_joined_at" ("guild_id", "user_id", "role_id", "joined_at")
  SELECT r."guild_id", r."user_id", r."role_id", m."joined_at"
  FROM "member_roles" r JOIN "members" m ON m."guild_id" = r."guild_id" AND m."user_id" = r."user_id";
$$;

SELECT guildhall_rebuild_role_members_by_joined_at();

CREATE FUNCTION "guildhall_role_members_roles_insert"() RETURNS trigger
LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "role_members_by_joined_at" ("guild_id", "user_id", "role_id", "joined_at")
  SELECT r."guild_id", r."user_id", r."role_id", m."joined_at"
  FROM "inserted_roles" r JOIN "members" m ON m."guild_id" = r."guild_id" AND m."user_id" = r."user_id"
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_role_members_roles_delete"() RETURNS trigger
LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  DELETE FROM "role_members_by_joined_at" t USING "deleted_roles" r
  WHERE t."guild_id" = r."guild_id" AND t."user_id" = r."user_id" AND t."role_id" = r."role_id";
  RETURN NULL;
END
$$;

-- An assignment rewritten in place (the API never does; a repair might): the old rows out, the new ones in.
CREATE FUNCTION "guildhall_role_members_roles_update"() RETURNS trigger
LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  DELETE FROM "role_members_by_joined_at" t USING "deleted_roles" r
  WHERE t."guild_id" = r."guild_id" AND t."user_id" = r."user_id" AND t."role_id" = r."role_id";
  INSERT INTO "role_members_by_joined_at" ("guild_id", "user_id", "role_id", "joined_at")
  SELECT r."guild_id", r."user_id", r."role_id", m."joined_at"
  FROM "inserted_roles" r JOIN "members" m ON m."guild_id" = r."guild_id" AND m."user_id" = r."user_id"
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

-- Members who join with role assignments already there (a member row written after its roles).
CREATE FUNCTION "guildhall_role_members_members_insert"() RETURNS trigger
LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "role_members_by_joined_at" ("guild_id", "user_id", "role_id", "joined_at")
  SELECT r."guild_id", r."user_id", r."role_id", m."joined_at"
  FROM "inserted_members" m JOIN "member_roles" r ON r."guild_id" = m."guild_id" AND r."user_id" = m."user_id"
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_role_members_members_delete"() RETURNS trigger
LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  DELETE FROM "role_members_by_joined_at" t USING "deleted_members" m
  WHERE t."guild_id" = m."guild_id" AND t."user_id" = m."user_id";
  RETURN NULL;
END
$$;

-- One member whose WHEN below held: its rows leave with its old key and come back with the new key and join date.
CREATE FUNCTION "guildhall_role_members_members_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "role_members_by_joined_at" WHERE "guild_id" = OLD."guild_id" AND "user_id" = OLD."user_id";
  INSERT INTO "role_members_by_joined_at" ("guild_id", "user_id", "role_id", "joined_at")
  SELECT r."guild_id", r."user_id", r."role_id", NEW."joined_at"
  FROM "member_roles" r WHERE r."guild_id" = NEW."guild_id" AND r."user_id" = NEW."user_id"
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_role_members_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "role_members_by_joined_at";
  RETURN NULL;
END
$$;

CREATE TRIGGER "member_roles_role_members_insert" AFTER INSERT ON "member_roles"
REFERENCING NEW TABLE AS "inserted_roles"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_role_members_roles_insert();

CREATE TRIGGER "member_roles_role_members_delete" AFTER DELETE ON "member_roles"
REFERENCING OLD TABLE AS "deleted_roles"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_role_members_roles_delete();

CREATE TRIGGER "member_roles_role_members_update" AFTER UPDATE ON "member_roles"
REFERENCING OLD TABLE AS "deleted_roles" NEW TABLE AS "inserted_roles"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_role_members_roles_update();

CREATE TRIGGER "member_roles_role_members_truncate" AFTER TRUNCATE ON "member_roles"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_role_members_truncate();

CREATE TRIGGER "members_role_members_insert" AFTER INSERT ON "members"
REFERENCING NEW TABLE AS "inserted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_role_members_members_insert();

CREATE TRIGGER "members_role_members_delete" AFTER DELETE ON "members"
REFERENCING OLD TABLE AS "deleted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_role_members_members_delete();

-- Presence, activity, nickname and wire-JSON updates (most updates of members) leave the join date and the key as
-- they were: the WHEN keeps the function from running for them.
CREATE TRIGGER "members_role_members_update" AFTER UPDATE OF "joined_at", "guild_id", "user_id" ON "members"
FOR EACH ROW WHEN (OLD."joined_at" <> NEW."joined_at" OR OLD."guild_id" <> NEW."guild_id" OR OLD."user_id" <> NEW."user_id")
EXECUTE FUNCTION guildhall_role_members_members_update();

CREATE TRIGGER "members_role_members_truncate" AFTER TRUNCATE ON "members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_role_members_truncate();

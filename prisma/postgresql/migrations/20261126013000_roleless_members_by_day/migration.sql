-- Get Guild Prune Count without counting members one by one (PostgreSQL only; SQLite counts its covering index).
-- The count of members with no role inactive since before a cutoff was one range of the index
-- members(guild_id, role_count, last_active_at, user_id): O(members) on both engines, and PostgreSQL's executor
-- costs about three times SQLite's per index entry (100,000 members: an index-only scan of ~20,000 entries, 3.5 ms
-- against SQLite's ~1 ms; ten times that at 1M). Here each guild's role-less members are also counted per UTC day of
-- their last activity, so the count for a cutoff is the sum of the days wholly before the cutoff's day (a row per
-- day: a few hundred) plus one index range inside the cutoff's own day (lib/guild-api/store/members.ts, "Prune").
--
-- The counts are kept by triggers in the transaction of every member write: inserts and deletes once per statement
-- from their transition tables (a bulk ban's one DELETE of 200 members updates each day once); updates row by row,
-- only when a row enters, leaves or moves between days (PostgreSQL refuses transition tables on a trigger with a
-- column list, and a statement trigger on every UPDATE of members would also run for each wire_json update the
-- member_roles triggers make). A day whose members all left keeps its row at 0: rows are bounded by the days that
-- ever held a role-less member's last activity, and summing a 0 costs nothing.
-- Writers hold Guildhall's one advisory lock, so the counts' row locks are never contended in practice; without it
-- they would still be exact (each change is an increment under the row's lock).
--
-- npm run db:copy copies members with the target's triggers off, so it rebuilds these counts after the copy with
-- the function below, which is also the backfill here. A test compares them with COUNT(*) after member writes of
-- every kind (tests/integration/api/prune.test.ts on PostgreSQL).

-- Instances may be serving while this runs (npm start migrates): member writes wait from here until this migration
-- commits (it runs as one transaction), so none falls between the backfill's read and the triggers.
LOCK TABLE "members" IN SHARE ROW EXCLUSIVE MODE;

-- Days since 1970-01-01 UTC of a time in milliseconds (floor, so times before 1970 fall on the right day too).
CREATE FUNCTION "guildhall_utc_day"("ms" BIGINT) RETURNS INTEGER
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT floor("ms" / 86400000.0)::integer $$;

CREATE TABLE "roleless_members_by_day" (
    "guild_id" BIGINT NOT NULL,
    -- guildhall_utc_day(members.last_active_at)
    "day" INTEGER NOT NULL,
    -- members of the guild with role_count = 0 whose last activity falls on that day
    "member_count" INTEGER NOT NULL,

    CONSTRAINT "roleless_members_by_day_pkey" PRIMARY KEY ("guild_id", "day")
);

-- The counts from members as they are: the backfill below, and npm run db:copy after copying members with triggers
-- off (scripts/copy-sqlite-to-postgresql.ts).
CREATE FUNCTION "guildhall_rebuild_roleless_members_by_day"() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM "roleless_members_by_day";
  INSERT INTO "roleless_members_by_day" ("guild_id", "day", "member_count")
  SELECT "guild_id", guildhall_utc_day("last_active_at"), count(*) FROM "members" WHERE "role_count" = 0
  GROUP BY 1, 2;
$$;

SELECT guildhall_rebuild_roleless_members_by_day();

CREATE FUNCTION "guildhall_roleless_members_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "roleless_members_by_day" AS d ("guild_id", "day", "member_count")
  SELECT "guild_id", guildhall_utc_day("last_active_at"), count(*) FROM "inserted_members" WHERE "role_count" = 0
  GROUP BY 1, 2
  ON CONFLICT ("guild_id", "day") DO UPDATE SET "member_count" = d."member_count" + excluded."member_count";
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_roleless_members_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "roleless_members_by_day" d SET "member_count" = d."member_count" - c."left"
  FROM (SELECT "guild_id", guildhall_utc_day("last_active_at") AS "day", count(*) AS "left" FROM "deleted_members"
        WHERE "role_count" = 0 GROUP BY 1, 2) c
  WHERE d."guild_id" = c."guild_id" AND d."day" = c."day";
  RETURN NULL;
END
$$;

-- One row whose WHEN below held: it left its day's count, entered one, or both.
CREATE FUNCTION "guildhall_roleless_members_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."role_count" = 0 THEN
    UPDATE "roleless_members_by_day" SET "member_count" = "member_count" - 1
    WHERE "guild_id" = OLD."guild_id" AND "day" = guildhall_utc_day(OLD."last_active_at");
  END IF;
  IF NEW."role_count" = 0 THEN
    INSERT INTO "roleless_members_by_day" AS d ("guild_id", "day", "member_count")
    VALUES (NEW."guild_id", guildhall_utc_day(NEW."last_active_at"), 1)
    ON CONFLICT ("guild_id", "day") DO UPDATE SET "member_count" = d."member_count" + 1;
  END IF;
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_roleless_members_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "roleless_members_by_day";
  RETURN NULL;
END
$$;

CREATE TRIGGER "members_roleless_by_day_insert" AFTER INSERT ON "members"
REFERENCING NEW TABLE AS "inserted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_roleless_members_insert();

CREATE TRIGGER "members_roleless_by_day_delete" AFTER DELETE ON "members"
REFERENCING OLD TABLE AS "deleted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_roleless_members_delete();

-- Most role_count updates (a second role, a role taken from a member who keeps another) and activity within the same
-- day change no count: the WHEN keeps the function from running for them.
CREATE TRIGGER "members_roleless_by_day_update" AFTER UPDATE OF "role_count", "last_active_at", "guild_id" ON "members"
FOR EACH ROW WHEN ((OLD."role_count" = 0 OR NEW."role_count" = 0)
  AND (OLD."role_count" <> NEW."role_count" OR OLD."guild_id" <> NEW."guild_id"
       OR guildhall_utc_day(OLD."last_active_at") <> guildhall_utc_day(NEW."last_active_at")))
EXECUTE FUNCTION guildhall_roleless_members_update();

CREATE TRIGGER "members_roleless_by_day_truncate" AFTER TRUNCATE ON "members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_roleless_members_truncate();

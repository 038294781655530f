-- Member search's "joined within …" counted without counting the members one by one (PostgreSQL only; SQLite counts
-- its index range). A search by join date alone is a page (a few hundred index entries) and a count of every member
-- who joined in the range: "joined in the last year" on the million-member bench copy is 517,703 entries of
-- members(guild_id, joined_at, user_id), 42 ms on PostgreSQL against SQLite's 18. Here each guild's members are also
-- counted per UTC day of joining, so the count is the sum of the days wholly inside the range (a few hundred rows)
-- plus the index ranges within its first and last days (lib/guild-api/store/member-search.ts, joinedTerm).
--
-- Kept by triggers in the transaction of every member write, as roleless_members_by_day is (…_roleless_members_by_day):
-- inserts and deletes once per statement from their transition tables; a join date or guild changing, row by row with
-- a WHEN. A day whose members all left keeps its row at 0. npm run db:copy rebuilds the counts after copying with
-- triggers off, with the function below, which is also the backfill here.

-- Instances may be serving while this runs (npm start migrates; one transaction): Guildhall's write lock first (as in
-- …_member_name_keys), then member writes wait until this commits, so none falls between the backfill and the triggers.
SELECT pg_advisory_xact_lock(444351474788);
LOCK TABLE "members" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "members_by_join_day" (
    "guild_id" BIGINT NOT NULL,
    -- guildhall_utc_day(members.joined_at)
    "day" INTEGER NOT NULL,
    -- members of the guild who joined on that day
    "member_count" INTEGER NOT NULL,

    CONSTRAINT "members_by_join_day_pkey" PRIMARY KEY ("guild_id", "day")
);

-- The counts from members as they are: the backfill below, and npm run db:copy after copying members with triggers
-- off (scripts/copy-sqlite-to-postgresql.ts).
CREATE FUNCTION "guildhall_rebuild_members_by_join_day"() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM "members_by_join_day";
  INSERT INTO "members_by_join_day" ("guild_id", "day", "member_count")
  SELECT "guild_id", guildhall_utc_day("joined_at"), count(*) FROM "members" GROUP BY 1, 2;
$$;

SELECT guildhall_rebuild_members_by_join_day();

CREATE FUNCTION "guildhall_members_by_join_day_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "members_by_join_day" AS d ("guild_id", "day", "member_count")
  SELECT "guild_id", guildhall_utc_day("joined_at"), count(*) FROM "inserted_members" GROUP BY 1, 2
  ON CONFLICT ("guild_id", "day") DO UPDATE SET "member_count" = d."member_count" + excluded."member_count";
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_members_by_join_day_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "members_by_join_day" d SET "member_count" = d."member_count" - c."left"
  FROM (SELECT "guild_id", guildhall_utc_day("joined_at") AS "day", count(*) AS "left" FROM "deleted_members"
        GROUP BY 1, 2) c
  WHERE d."guild_id" = c."guild_id" AND d."day" = c."day";
  RETURN NULL;
END
$$;

-- One member whose WHEN below held: it leaves its old day's count and enters its new one.
CREATE FUNCTION "guildhall_members_by_join_day_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "members_by_join_day" SET "member_count" = "member_count" - 1
  WHERE "guild_id" = OLD."guild_id" AND "day" = guildhall_utc_day(OLD."joined_at");
  INSERT INTO "members_by_join_day" AS d ("guild_id", "day", "member_count")
  VALUES (NEW."guild_id", guildhall_utc_day(NEW."joined_at"), 1)
  ON CONFLICT ("guild_id", "day") DO UPDATE SET "member_count" = d."member_count" + 1;
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_members_by_join_day_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "members_by_join_day";
  RETURN NULL;
END
$$;

CREATE TRIGGER "members_by_join_day_insert" AFTER INSERT ON "members"
REFERENCING NEW TABLE AS "inserted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_members_by_join_day_insert();

CREATE TRIGGER "members_by_join_day_delete" AFTER DELETE ON "members"
REFERENCING OLD TABLE AS "deleted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_members_by_join_day_delete();

-- Join dates and guilds almost never change (a repair might): the WHEN keeps every other update from running it.
CREATE TRIGGER "members_by_join_day_update" AFTER UPDATE OF "joined_at", "guild_id" ON "members"
FOR EACH ROW WHEN (OLD."guild_id" <> NEW."guild_id"
  OR guildhall_utc_day(OLD."joined_at") <> guildhall_utc_day(NEW."joined_at"))
EXECUTE FUNCTION guildhall_members_by_join_day_update();

CREATE TRIGGER "members_by_join_day_truncate" AFTER TRUNCATE ON "members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_members_by_join_day_truncate();

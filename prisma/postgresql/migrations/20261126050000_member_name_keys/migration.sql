-- Search Guild Members v2's name substring (`query`, 3+ characters) without reading a single members row it does not
-- show (PostgreSQL only; SQLite matches its trigram table, user_name_trigrams). The text was matched by pg_trgm
-- indexes on users.username, users.global_name and members.nick, and every matching user then probed the members'
-- indexes for membership and the sort's columns: "zumi" on the 1,000,000-member bench copy matched 22,502 members in
-- 70–100 ms, of which the ILIKE rechecks on users took 35 ms and the probes into members (wide rows: the stored JSON)
-- 40–55 ms, against SQLite's 27 ms for the whole request.
--
-- Here each member has a narrow row: the sort columns (joined_at, username_key; user_id is in the key) and the three
-- names lower-cased, with one trigram index over the three. The search's matches, their count and the page's order
-- are one bitmap scan of this table (EXPLAIN, same search: 20 ms), and only the page's members are read from members.
-- The names are lower-cased here and the search text by lower() as well, both in the database's collation (ILIKE's
-- folding), so a recheck is a plain LIKE, not a case-folding ILIKE per row.
--
-- Kept by triggers in the transaction of every write to members and users. Members: inserts and deletes once per
-- statement from their transition tables (a bulk ban's one DELETE of 200 members is one DELETE here); a nickname,
-- join date, username key or key changing, row by row with a WHEN (PostgreSQL refuses transition tables on triggers
-- with a column list, and most updates of members are presence, activity and stored-JSON updates that change none of
-- these). Users (written by the seed and by hand, never by the API at run time): every insert, delete and update, once
-- per statement, refreshes the rows of the members of the users whose id or names changed.
--
-- npm run db:copy copies with the target's triggers off and rebuilds this table after the copy with the function
-- below, which is also the backfill here. tests/postgres/triggers-parity.test.ts compares it with SQLite's members
-- joined to users after writes of every kind.

-- Instances may be serving while this runs (npm start migrates; it runs as one transaction). Guildhall's write lock
-- first (store/postgresql-driver.ts, WRITE_LOCK_KEY; every transaction of an instance takes it before anything
-- else): no instance's transaction is in flight from here on, so the DROP INDEX below, which needs ACCESS EXCLUSIVE,
-- cannot deadlock with one that read these tables and waits to write them. Then writes to members and users wait
-- until this commits, so none falls between the backfill's read and the triggers; reads go on until the DROP INDEX.
SELECT pg_advisory_xact_lock(444351474788);
LOCK TABLE "members", "users" IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE "member_name_keys" (
    "guild_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    -- members.joined_at and members.username_key: the search's sorts
    "joined_at" BIGINT NOT NULL,
    "username_key" TEXT COLLATE "C" NOT NULL,
    -- lower(users.username), lower(users.global_name), lower(members.nick)
    "username_lower" TEXT NOT NULL,
    "global_name_lower" TEXT,
    "nick_lower" TEXT,

    CONSTRAINT "member_name_keys_pkey" PRIMARY KEY ("guild_id", "user_id")
);

-- The table from members and users as they are: the backfill below, and npm run db:copy after copying with triggers
-- off (scripts/copy-sqlite-to-postgresql.ts).
CREATE FUNCTION "guildhall_rebuild_member_name_keys"() RETURNS void
LANGUAGE sql AS $$
  DELETE FROM "member_name_keys";
  INSERT INTO "member_name_keys"
  SELECT m."guild_id", m."user_id", m."joined_at", m."username_key", lower(u."username"), lower(u."global_name"),
    lower(m."nick")
  FROM "members" m JOIN "users" u ON u."id" = m."user_id";
$$;

SELECT guildhall_rebuild_member_name_keys();

-- One GIN index over the three names: a search ORs three conditions, each a bitmap scan of it (store/member-search.ts).
CREATE INDEX "member_name_keys_trigram_idx" ON "member_name_keys"
USING gin ("username_lower" gin_trgm_ops, "global_name_lower" gin_trgm_ops, "nick_lower" gin_trgm_ops);

-- The names of users and members were matched through these; nothing reads them now.
DROP INDEX "users_username_trigram_idx";
DROP INDEX "users_global_name_trigram_idx";
DROP INDEX "members_nick_trigram_idx";

-- The statement triggers join their transition table (usually one row) to an indexed table by its key; hash and merge
-- joins are off for their own statements, so the planner probes the key instead of hashing a whole table.
CREATE FUNCTION "guildhall_member_name_keys_members_insert"() RETURNS trigger
LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  INSERT INTO "member_name_keys"
  SELECT m."guild_id", m."user_id", m."joined_at", m."username_key", lower(u."username"), lower(u."global_name"),
    lower(m."nick")
  FROM "inserted_members" m JOIN "users" u ON u."id" = m."user_id"
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_member_name_keys_members_delete"() RETURNS trigger
LANGUAGE plpgsql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
BEGIN
  DELETE FROM "member_name_keys" t USING "deleted_members" m
  WHERE t."guild_id" = m."guild_id" AND t."user_id" = m."user_id";
  RETURN NULL;
END
$$;

-- One member whose WHEN below held: its row leaves with its old key and comes back as the member is now.
CREATE FUNCTION "guildhall_member_name_keys_members_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "member_name_keys" WHERE "guild_id" = OLD."guild_id" AND "user_id" = OLD."user_id";
  INSERT INTO "member_name_keys"
  SELECT NEW."guild_id", NEW."user_id", NEW."joined_at", NEW."username_key", lower(u."username"), lower(u."global_name"),
    lower(NEW."nick")
  FROM "users" u WHERE u."id" = NEW."user_id"
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;

-- The rows of the members of these users, as members and users now hold them (the users triggers below): a member
-- whose user is gone has none, as the join has none. Through members_user_id_idx, then this table's key.
CREATE FUNCTION "guildhall_refresh_member_name_keys"("user_ids" BIGINT[]) RETURNS void
LANGUAGE sql SET enable_hashjoin = off SET enable_mergejoin = off AS $$
  DELETE FROM "member_name_keys" t USING "members" m
  WHERE m."user_id" = ANY ("user_ids") AND t."guild_id" = m."guild_id" AND t."user_id" = m."user_id";
  INSERT INTO "member_name_keys"
  SELECT m."guild_id", m."user_id", m."joined_at", m."username_key", lower(u."username"), lower(u."global_name"),
    lower(m."nick")
  FROM "members" m JOIN "users" u ON u."id" = m."user_id" WHERE m."user_id" = ANY ("user_ids");
$$;

CREATE FUNCTION "guildhall_member_name_keys_users_insert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM guildhall_refresh_member_name_keys(ARRAY(SELECT "id" FROM "inserted_users"));
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_member_name_keys_users_delete"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM guildhall_refresh_member_name_keys(ARRAY(SELECT "id" FROM "deleted_users"));
  RETURN NULL;
END
$$;

-- The ids on either side of a change to an id, a username or a global name (a rename, an id given to another user,
-- two ids swapped); other updates (avatars, flags, locales) refresh nothing.
CREATE FUNCTION "guildhall_member_name_keys_users_update"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM guildhall_refresh_member_name_keys(ARRAY(SELECT "id" FROM (
    (SELECT "id", "username", "global_name" FROM "old_users" EXCEPT SELECT "id", "username", "global_name" FROM "new_users")
    UNION
    (SELECT "id", "username", "global_name" FROM "new_users" EXCEPT SELECT "id", "username", "global_name" FROM "old_users")
  ) AS "changed"));
  RETURN NULL;
END
$$;

CREATE FUNCTION "guildhall_member_name_keys_truncate"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "member_name_keys";
  RETURN NULL;
END
$$;

CREATE TRIGGER "members_name_keys_insert" AFTER INSERT ON "members"
REFERENCING NEW TABLE AS "inserted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_member_name_keys_members_insert();

CREATE TRIGGER "members_name_keys_delete" AFTER DELETE ON "members"
REFERENCING OLD TABLE AS "deleted_members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_member_name_keys_members_delete();

-- Presence, activity, role-count and stored-JSON updates (most updates of members) change none of these columns.
CREATE TRIGGER "members_name_keys_update"
AFTER UPDATE OF "nick", "joined_at", "username_key", "guild_id", "user_id" ON "members"
FOR EACH ROW WHEN (OLD."nick" IS DISTINCT FROM NEW."nick" OR OLD."joined_at" <> NEW."joined_at"
  OR OLD."username_key" <> NEW."username_key" OR OLD."guild_id" <> NEW."guild_id" OR OLD."user_id" <> NEW."user_id")
EXECUTE FUNCTION guildhall_member_name_keys_members_update();

CREATE TRIGGER "members_name_keys_truncate" AFTER TRUNCATE ON "members"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_member_name_keys_truncate();

CREATE TRIGGER "users_name_keys_insert" AFTER INSERT ON "users"
REFERENCING NEW TABLE AS "inserted_users"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_member_name_keys_users_insert();

CREATE TRIGGER "users_name_keys_delete" AFTER DELETE ON "users"
REFERENCING OLD TABLE AS "deleted_users"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_member_name_keys_users_delete();

CREATE TRIGGER "users_name_keys_update" AFTER UPDATE ON "users"
REFERENCING OLD TABLE AS "old_users" NEW TABLE AS "new_users"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_member_name_keys_users_update();

CREATE TRIGGER "users_name_keys_truncate" AFTER TRUNCATE ON "users"
FOR EACH STATEMENT EXECUTE FUNCTION guildhall_member_name_keys_truncate();

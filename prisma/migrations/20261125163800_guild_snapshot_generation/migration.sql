-- The guild API caches each guild's snapshot (its row, its roles and the permission engine's view of them) until the
-- database may have changed; "changed" was any write at all, so a bulk job's 10,000 role assignments rebuilt it on
-- every request. These triggers give guilds and roles their own stamp, set to a new random value by every write to
-- either table (random, not a counter: a rolled-back write restores the old value, and a counter would then take the
-- same value again for a different write). The snapshot is valid while the stamp it was built at is current.
-- (The table from `prisma migrate diff`; the row and the triggers by hand: Prisma's schema cannot express triggers.)

-- CreateTable
CREATE TABLE "cache_generations" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "value" BIGINT NOT NULL
);

INSERT INTO "cache_generations" ("name", "value") VALUES ('guilds_roles', random());

CREATE TRIGGER "guilds_generation_insert" AFTER INSERT ON "guilds" BEGIN
  UPDATE "cache_generations" SET "value" = random() WHERE "name" = 'guilds_roles';
END;
CREATE TRIGGER "guilds_generation_update" AFTER UPDATE ON "guilds" BEGIN
  UPDATE "cache_generations" SET "value" = random() WHERE "name" = 'guilds_roles';
END;
CREATE TRIGGER "guilds_generation_delete" AFTER DELETE ON "guilds" BEGIN
  UPDATE "cache_generations" SET "value" = random() WHERE "name" = 'guilds_roles';
END;
CREATE TRIGGER "roles_generation_insert" AFTER INSERT ON "roles" BEGIN
  UPDATE "cache_generations" SET "value" = random() WHERE "name" = 'guilds_roles';
END;
CREATE TRIGGER "roles_generation_update" AFTER UPDATE ON "roles" BEGIN
  UPDATE "cache_generations" SET "value" = random() WHERE "name" = 'guilds_roles';
END;
CREATE TRIGGER "roles_generation_delete" AFTER DELETE ON "roles" BEGIN
  UPDATE "cache_generations" SET "value" = random() WHERE "name" = 'guilds_roles';
END;

-- The columns each moderator has hidden in each dashboard table, keyed by their user id on the guild API and the
-- table (lib/dashboard/table-preferences.ts): the tables remember a moderator's column choices across visits.
-- CreateTable
CREATE TABLE "table_preferences" (
    "userId" TEXT NOT NULL,
    "tableId" TEXT NOT NULL,
    "hiddenColumns" TEXT NOT NULL DEFAULT '[]',
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "table_preferences_pkey" PRIMARY KEY ("userId","tableId")
);

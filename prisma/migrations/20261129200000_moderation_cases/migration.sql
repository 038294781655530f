-- Moderation cases (issue #32): cases numbered per guild and read off the audit history (casesDerived marks the
-- entries read), each case's reason edits, the guilds' case counters, the work scheduled for later (a temporary
-- ban's end, a long timeout's renewal), ban appeals (each guild's form, the appeals, the per-user turn), and
-- escalation rules.
-- CreateTable
CREATE TABLE "moderation_cases" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "number" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "targetName" TEXT NOT NULL,
    "moderatorId" TEXT NOT NULL,
    "moderatorName" TEXT NOT NULL,
    "moderatorBot" BOOLEAN NOT NULL DEFAULT false,
    "reason" TEXT,
    "durationSeconds" INTEGER,
    "endsAt" DATETIME,
    "auditLogId" TEXT,
    "historyId" TEXT NOT NULL,
    "source" TEXT NOT NULL DEFAULT 'dashboard',
    "details" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "case_counters" (
    "guildId" TEXT NOT NULL PRIMARY KEY,
    "last" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "case_reason_edits" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "caseId" TEXT NOT NULL,
    "editorId" TEXT NOT NULL,
    "editorName" TEXT NOT NULL,
    "previous" TEXT,
    "next" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "case_reason_edits_caseId_fkey" FOREIGN KEY ("caseId") REFERENCES "moderation_cases" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "scheduled_moderations" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "caseId" TEXT NOT NULL,
    "actorId" TEXT NOT NULL,
    "runAt" DATETIME NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "claimedBy" TEXT,
    "claimedUntil" DATETIME,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "doneAt" DATETIME
);

-- CreateTable
CREATE TABLE "appeal_settings" (
    "guildId" TEXT NOT NULL PRIMARY KEY,
    "enabled" BOOLEAN NOT NULL DEFAULT false,
    "showReason" BOOLEAN NOT NULL DEFAULT true,
    "questions" TEXT NOT NULL DEFAULT '[]',
    "actorId" TEXT NOT NULL,
    "actorName" TEXT NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ban_appeals" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "userName" TEXT NOT NULL,
    "answers" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'open',
    "banReason" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decidedAt" DATETIME,
    "moderatorId" TEXT,
    "moderatorName" TEXT,
    "message" TEXT
);

-- CreateTable
CREATE TABLE "appeal_limits" (
    "guildId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "lastSentAt" DATETIME NOT NULL,

    PRIMARY KEY ("guildId", "userId")
);

-- CreateTable
CREATE TABLE "escalation_rules" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "guildId" TEXT NOT NULL,
    "warnings" INTEGER NOT NULL,
    "withinDays" INTEGER NOT NULL,
    "action" TEXT NOT NULL,
    "durationSeconds" INTEGER,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- AlterTable (a column with a default: SQLite adds it in place, without copying the history)
ALTER TABLE "audit_history_entries" ADD COLUMN "casesDerived" BOOLEAN NOT NULL DEFAULT false;

-- The history from before cases existed: only its moderation entries are left for syncCases to read into cases
-- (a few per request, lib/dashboard/cases/store.ts); the rest are read already.
UPDATE "audit_history_entries" SET "casesDerived" = true WHERE "action" NOT IN ('Create Guild Ban', 'Remove Guild Ban', 'Remove Guild Member', 'Bulk Guild Ban', 'Modify Guild Member', 'Modify Guild Member Roles', 'Bulk kick', 'Bulk timeout', 'Bulk remove timeout', 'Cancel bulk member action');

-- CreateIndex
CREATE INDEX "audit_history_entries_guildId_casesDerived_idx" ON "audit_history_entries"("guildId", "casesDerived");

-- CreateIndex
CREATE INDEX "moderation_cases_guildId_createdAt_idx" ON "moderation_cases"("guildId", "createdAt");

-- CreateIndex
CREATE INDEX "moderation_cases_guildId_targetId_createdAt_idx" ON "moderation_cases"("guildId", "targetId", "createdAt");

-- CreateIndex
CREATE INDEX "moderation_cases_guildId_type_createdAt_idx" ON "moderation_cases"("guildId", "type", "createdAt");

-- CreateIndex
CREATE INDEX "moderation_cases_guildId_moderatorId_createdAt_idx" ON "moderation_cases"("guildId", "moderatorId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "moderation_cases_guildId_number_key" ON "moderation_cases"("guildId", "number");

-- CreateIndex
CREATE UNIQUE INDEX "moderation_cases_historyId_type_targetId_key" ON "moderation_cases"("historyId", "type", "targetId");

-- CreateIndex
CREATE INDEX "case_reason_edits_caseId_createdAt_idx" ON "case_reason_edits"("caseId", "createdAt");

-- CreateIndex
CREATE INDEX "scheduled_moderations_status_runAt_idx" ON "scheduled_moderations"("status", "runAt");

-- CreateIndex
CREATE INDEX "scheduled_moderations_guildId_userId_status_idx" ON "scheduled_moderations"("guildId", "userId", "status");

-- CreateIndex
CREATE INDEX "ban_appeals_guildId_status_createdAt_idx" ON "ban_appeals"("guildId", "status", "createdAt");

-- CreateIndex
CREATE INDEX "ban_appeals_guildId_userId_createdAt_idx" ON "ban_appeals"("guildId", "userId", "createdAt");

-- CreateIndex
CREATE INDEX "escalation_rules_guildId_idx" ON "escalation_rules"("guildId");

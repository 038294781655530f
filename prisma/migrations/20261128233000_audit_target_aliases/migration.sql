-- Every name an audit history entry's target went by when it was written (username, global name, the member's
-- nickname then), one a line, so the history's Target filter finds entries made under any of them (issue 30).
-- AlterTable
ALTER TABLE "audit_history_entries" ADD COLUMN "targetAliases" TEXT;

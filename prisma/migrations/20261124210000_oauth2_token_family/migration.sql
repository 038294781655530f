-- AlterTable
ALTER TABLE "oauth2_tokens" ADD COLUMN "family_id" BIGINT;

-- CreateIndex
CREATE INDEX "oauth2_tokens_family_id_idx" ON "oauth2_tokens"("family_id");


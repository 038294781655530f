-- Expressions (issue #34): stickers remember who uploaded them (Discord answers `user` to those who may manage
-- them); soundboard sounds get their table. Emoji, sticker and sound files are kept in images, by kind.
-- AlterTable
ALTER TABLE "stickers" ADD COLUMN "user_id" BIGINT;

-- CreateTable
CREATE TABLE "soundboard_sounds" (
    "id" BIGINT NOT NULL PRIMARY KEY,
    "guild_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "volume" REAL NOT NULL DEFAULT 1,
    "emoji_id" BIGINT,
    "emoji_name" TEXT,
    "user_id" BIGINT,
    "available" BOOLEAN NOT NULL DEFAULT true
);

-- CreateIndex
CREATE INDEX "soundboard_sounds_guild_id_idx" ON "soundboard_sounds"("guild_id");


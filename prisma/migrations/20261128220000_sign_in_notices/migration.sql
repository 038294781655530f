-- Wrong passwords typed for a person's account on the built-in provider's sign-in, told to the owner after their next
-- successful sign-in (lib/guild-api/store/sign-in-notices.ts). Not read by any cache: no change notification.
-- CreateTable
CREATE TABLE "sign_in_notices" (
    "user_id" BIGINT NOT NULL PRIMARY KEY,
    "wrong_passwords" INTEGER NOT NULL DEFAULT 0,
    "last_wrong_at" BIGINT,
    "notice_count" INTEGER NOT NULL DEFAULT 0,
    "notice_last_at" BIGINT
);

-- Leases on target-user jobs: the instance working on a job holds it until lease_until (ms since the epoch) and
-- renews it with every chunk; another instance takes over a job whose lease has run out (its owner died).
ALTER TABLE "invite_target_users_jobs" ADD COLUMN "lease_owner" TEXT;
ALTER TABLE "invite_target_users_jobs" ADD COLUMN "lease_until" BIGINT;

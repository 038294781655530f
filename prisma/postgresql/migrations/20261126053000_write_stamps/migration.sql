-- What a write transaction knows of other connections' commits (PostgreSQL only). An instance learns of another's
-- commit from its NOTIFY (…_change_notifications), and a request's read scope starts with a round trip that hands it
-- the pending ones. Inside a transaction PostgreSQL holds notifications back until it ends, so a write transaction
-- that waited for the write lock while another instance committed would judge its write by caches that commit made
-- stale (a role taken away, a token revoked), and learn of it only after its own commit.
--
-- So every statement that writes a watched table also draws a value from this sequence (in the same statement
-- trigger that notifies), and a write transaction, once it holds the lock, reads the sequence's last value: another
-- value than its connection last saw means someone wrote since, and the caches are emptied before the judgement
-- (store/postgresql-driver.ts, begin). A sequence is not transactional: a rolled-back write also moves it (an
-- unneeded emptying, never a missed one), and no writer waits for another on it.
CREATE SEQUENCE "guildhall_write_stamps";

CREATE OR REPLACE FUNCTION guildhall_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM nextval('guildhall_write_stamps');
  PERFORM pg_notify('guildhall_changes', '');
  RETURN NULL;
END;
$$;

-- Guildhall's write lock (store/postgresql-driver.ts, WRITE_LOCK_KEY), then the stamp as it stands once the lock is
-- held: read after the lock, by a statement of its own inside the function, so every earlier holder's writes count.
CREATE FUNCTION "guildhall_take_write_lock"("lock_key" BIGINT) RETURNS BIGINT
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock("lock_key");
  RETURN (SELECT "last_value" FROM "guildhall_write_stamps");
END
$$;

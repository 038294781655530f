-- Other connections' commits, heard by every Guildhall instance (lib/guild-api/store/postgresql-driver.ts): each
-- statement that writes a table the built-in API reads notifies guildhall_changes. PostgreSQL delivers a
-- transaction's notifications when it commits, and only one of several identical ones, so a transaction costs one
-- notification whatever it wrote; a rolled-back one sends none. The instances empty their read caches when one
-- arrives from another server process, and their gateway hubs read the outbox (gateway_events) at once.
CREATE FUNCTION guildhall_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('guildhall_changes', '');
  RETURN NULL;
END;
$$;

DO $$
DECLARE
  watched text;
BEGIN
  FOREACH watched IN ARRAY ARRAY[
    'users', 'applications', 'application_commands', 'oauth2_codes', 'oauth2_tokens', 'guilds', 'roles',
    'cache_generations', 'channels', 'thread_members', 'members', 'member_roles', 'voice_states', 'bans', 'emojis',
    'stickers', 'guild_scheduled_events', 'invites', 'invite_target_users', 'invite_target_users_jobs',
    'integrations', 'guild_onboarding', 'audit_log_entries', 'images', 'gateway_events'
  ] LOOP
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION guildhall_notify_change()',
      watched || '_notify_change', watched);
  END LOOP;
END;
$$;

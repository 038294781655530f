-- The wire-JSON helpers of the init migration were declared IMMUTABLE, but their bodies call to_json and to_char,
-- which are STABLE: PostgreSQL inlines an SQL function only when its body is no more volatile than it is declared,
-- so each call ran as a query of its own. Measured on the 100,000-member bench copy: guildhall_user_wire_json over
-- 1,000 users 126 ms → 9 ms, a Get Guild Bans page of 1,000 about 420 ms → 20 ms. STABLE is their true volatility
-- (no index or generated column uses them); every caller (the member wire-JSON triggers, the ban pages) gains.
ALTER FUNCTION "guildhall_json_text"(TEXT) STABLE;
ALTER FUNCTION "guildhall_iso_time"(BIGINT) STABLE;
ALTER FUNCTION "guildhall_json_bool"(BOOLEAN) STABLE;
ALTER FUNCTION "guildhall_user_wire_json"("users") STABLE;
ALTER FUNCTION "guildhall_member_json"("members", "users", TEXT) STABLE;

// The user object as Discord sends it (every field UserResponse requires).
export interface UserRow {
  id: bigint;
  username: string;
  global_name: string | null;
  discriminator: string;
  avatar: string | null;
  banner?: string | null;
  bot: bigint;
  system?: bigint;
  flags?: bigint;
  public_flags: bigint;
  locale?: string;
  mfa_enabled?: bigint;
}

export const USER_COLUMNS =
  "id, username, global_name, discriminator, avatar, banner, bot, system, flags, public_flags, locale, mfa_enabled";

export function serializeUser(row: UserRow) {
  return {
    id: String(row.id),
    username: row.username,
    global_name: row.global_name,
    discriminator: row.discriminator,
    avatar: row.avatar,
    public_flags: Number(row.public_flags),
    flags: Number(row.flags ?? row.public_flags),
    bot: Boolean(row.bot),
    banner: row.banner ?? null,
    accent_color: null,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
    ...(row.system ? { system: true } : {}),
  };
}

/**
 * serializeUser's output built by SQLite from a users row aliased `u`, for lists answered as JSON text (the same
 * fields in the same order; migration 20261123120000_member_wire_json holds a copy for the stored member JSON).
 */
const USER_OBJECT_SQL = `json_object('id', CAST(u.id AS TEXT), 'username', u.username, 'global_name', u.global_name, 'discriminator', u.discriminator,
  'avatar', u.avatar, 'public_flags', u.public_flags, 'flags', u.flags, 'bot', CASE WHEN u.bot THEN json('true') ELSE json('false') END,
  'banner', u.banner, 'accent_color', NULL, 'avatar_decoration_data', NULL, 'collectibles', NULL, 'primary_guild', NULL)`;
export const USER_JSON_SQL = `CASE WHEN u.system THEN json_set(${USER_OBJECT_SQL}, '$.system', json('true')) ELSE ${USER_OBJECT_SQL} END`;

/** `/users/@me` adds the private fields (mfa_enabled, locale). */
export function serializeCurrentUser(row: UserRow) {
  return { ...serializeUser(row), mfa_enabled: Boolean(row.mfa_enabled), locale: row.locale ?? "en-US" };
}

// The user object as Discord sends it (every field UserResponse requires). store/users.ts builds the same object in
// SQL (USER_JSON_SQL) for lists answered as JSON text.
import type { UserRow } from "../store/users";

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

/** `/users/@me` adds the private fields (mfa_enabled, locale). */
export function serializeCurrentUser(row: UserRow) {
  return { ...serializeUser(row), mfa_enabled: Boolean(row.mfa_enabled), locale: row.locale ?? "en-US" };
}

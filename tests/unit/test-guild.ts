// A guild for the permission tests, with snowflake-sized ids (beyond 2^53, where a Number comparison breaks).
import type { GuildPermissionContext } from "@/lib/discord/permissions";

export const GUILD = "1100000000000000000";
export const OWNER = "1000000000000000001";

/** The guild's permission context: @everyone holds `everyone`; `roles` follow from position 1 upwards. */
export function guildContext(
  everyone: bigint,
  roles: ReadonlyArray<readonly [id: string, permissions: bigint]>,
): GuildPermissionContext {
  return {
    guildId: GUILD,
    ownerId: OWNER,
    roles: [
      { id: GUILD, position: 0, permissions: everyone },
      ...roles.map(([id, permissions], index) => ({ id, position: index + 1, permissions })),
    ],
  };
}

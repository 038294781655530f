// The roles table. A guild's roles are read through the read cache: every permission check needs them.
import { sql } from "./db";
import { dialect } from "./dialect";
import type { MaybePromise } from "../maybe-promise";
import { readCache } from "./read-cache";
import { idListJson } from "./users";

export interface RoleRow {
  id: bigint;
  guild_id: bigint;
  name: string;
  permissions: bigint;
  position: bigint;
  color: bigint;
  secondary_color: bigint | null;
  tertiary_color: bigint | null;
  hoist: bigint;
  icon: string | null;
  unicode_emoji: string | null;
  managed: bigint;
  mentionable: bigint;
  flags: bigint;
  tags: string | null;
}

/** Roles in display order: by position, ties by id. The index (guild_id, position) gives the order; ties are rare. */
export const listGuildRoles: (guildId: bigint) => MaybePromise<readonly RoleRow[]> = readCache(
  async (guildId: bigint) => {
    const roles = (await sql.all("SELECT * FROM roles WHERE guild_id = ? ORDER BY position", guildId)) as RoleRow[];
    for (let i = 1; i < roles.length; i++) {
      if (roles[i].position === roles[i - 1].position)
        return roles.sort((a, b) =>
          a.position === b.position ? (a.id < b.id ? -1 : 1) : a.position < b.position ? -1 : 1,
        );
    }
    return roles;
  },
  1_000,
);

export async function findRole(guildId: bigint, roleId: bigint): Promise<RoleRow | undefined> {
  return (await sql.get("SELECT * FROM roles WHERE guild_id = ? AND id = ?", guildId, roleId)) as RoleRow | undefined;
}

export async function findRoleById(roleId: bigint): Promise<RoleRow | undefined> {
  return (await sql.get("SELECT * FROM roles WHERE id = ?", roleId)) as RoleRow | undefined;
}

export async function countGuildRoles(guildId: bigint): Promise<number> {
  return Number((await sql.value("SELECT COUNT(*) FROM roles WHERE guild_id = ?", guildId)) as bigint);
}

/** The roles of the guild among `roleIds`, by position. */
export async function listRolesByIds(guildId: bigint, roleIds: readonly (bigint | string)[]): Promise<RoleRow[]> {
  if (roleIds.length === 0) return [];
  return (await sql.all(
    dialect({
      sqlite: "SELECT * FROM roles WHERE guild_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY position",
      postgresql: `SELECT * FROM roles WHERE guild_id = ?
        AND id IN (SELECT CAST(value AS BIGINT) FROM jsonb_array_elements_text(CAST(? AS JSONB)) AS ids(value)) ORDER BY position`,
    }),
    guildId,
    idListJson(roleIds),
  )) as RoleRow[];
}

/** Managed roles created for a bot or an integration (their tags name it). */
export async function listManagedRoles(
  guildId: bigint,
  botId: string | null,
  integrationId: string,
): Promise<RoleRow[]> {
  return (await sql.all(
    dialect({
      sqlite: `SELECT * FROM roles WHERE guild_id = ? AND managed = 1
       AND (json_extract(tags, '$.bot_id') = ? OR json_extract(tags, '$.integration_id') = ?)`,
      postgresql: `SELECT * FROM roles WHERE guild_id = ? AND managed = TRUE
       AND (CAST(tags AS JSONB) ->> 'bot_id' = ? OR CAST(tags AS JSONB) ->> 'integration_id' = ?)`,
    }),
    guildId,
    botId,
    integrationId,
  )) as RoleRow[];
}

/** Every role above @everyone (position ≥ 1) but `exceptId`, in hierarchy order. */
export async function listRolesAboveEveryone(guildId: bigint, exceptId: bigint): Promise<RoleRow[]> {
  return (await sql.all(
    "SELECT * FROM roles WHERE guild_id = ? AND id != ? AND position >= 1 ORDER BY position, id",
    guildId,
    exceptId,
  )) as RoleRow[];
}

/** Moves every role at position ≥ 1 (but `exceptId`) up one, making room just above @everyone. */
export async function shiftRolesAboveEveryone(guildId: bigint, exceptId: bigint | null = null): Promise<void> {
  await sql.run(
    "UPDATE roles SET position = position + 1 WHERE guild_id = ? AND id IS DISTINCT FROM ? AND position >= 1",
    guildId,
    exceptId,
  );
}

/** A role row with the table's defaults (no color, not hoisted, not managed, no icon or tags) under `fields`. */
export function roleRowWithDefaults(
  fields: Pick<RoleRow, "id" | "guild_id" | "name" | "permissions" | "position"> & Partial<RoleRow>,
): RoleRow {
  return {
    color: 0n,
    secondary_color: null,
    tertiary_color: null,
    hoist: 0n,
    icon: null,
    unicode_emoji: null,
    managed: 0n,
    mentionable: 0n,
    flags: 0n,
    tags: null,
    ...fields,
  };
}

export async function insertRole(role: RoleRow): Promise<void> {
  await sql.run(
    `INSERT INTO roles (id, guild_id, name, permissions, position, color, secondary_color, tertiary_color, hoist, icon, unicode_emoji, managed, mentionable, flags, tags)
     VALUES (@id, @guild_id, @name, @permissions, @position, @color, @secondary_color, @tertiary_color, @hoist, @icon, @unicode_emoji, @managed, @mentionable, @flags, @tags)`,
    role,
  );
}

/** Writes the fields Modify Guild Role changes. */
export async function updateRole(role: RoleRow): Promise<void> {
  await sql.run(
    `UPDATE roles SET name = @name, permissions = @permissions, color = @color, secondary_color = @secondary_color,
     tertiary_color = @tertiary_color, hoist = @hoist, icon = @icon, unicode_emoji = @unicode_emoji, mentionable = @mentionable WHERE id = @id`,
    {
      id: role.id,
      name: role.name,
      permissions: role.permissions,
      color: role.color,
      secondary_color: role.secondary_color,
      tertiary_color: role.tertiary_color,
      hoist: role.hoist,
      icon: role.icon,
      unicode_emoji: role.unicode_emoji,
      mentionable: role.mentionable,
    },
  );
}

export async function setRolePosition(roleId: bigint, position: bigint): Promise<void> {
  await sql.run("UPDATE roles SET position = ? WHERE id = ?", position, roleId);
}

/** False when there was no such role. */
export async function deleteRole(guildId: bigint, roleId: bigint): Promise<boolean> {
  return (await sql.run("DELETE FROM roles WHERE guild_id = ? AND id = ?", guildId, roleId)).changes > 0;
}

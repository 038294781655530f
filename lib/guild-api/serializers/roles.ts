// The role object: permissions as a decimal string, the deprecated `color` kept equal to colors.primary_color.
import type { RoleRow } from "../store/roles";

export function serializeRole(row: RoleRow) {
  return {
    id: String(row.id),
    name: row.name,
    description: null,
    permissions: String(row.permissions),
    position: Number(row.position),
    color: Number(row.color),
    colors: {
      primary_color: Number(row.color),
      secondary_color: row.secondary_color === null ? null : Number(row.secondary_color),
      tertiary_color: row.tertiary_color === null ? null : Number(row.tertiary_color),
    },
    hoist: Boolean(row.hoist),
    icon: row.icon,
    unicode_emoji: row.unicode_emoji,
    managed: Boolean(row.managed),
    mentionable: Boolean(row.mentionable),
    flags: Number(row.flags),
    ...(row.tags ? { tags: JSON.parse(row.tags) as Record<string, unknown> } : {}),
  };
}

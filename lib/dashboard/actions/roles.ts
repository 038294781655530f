"use server";

// Server actions of the roles page.
import { type APIRole } from "discord-api-types/v10";
import { guildAction } from "./guild-action";
import { firstRefusal } from "./moderator";
import {
  CreateRoleInputSchema,
  DeleteRoleInputSchema,
  ModifyRoleInputSchema,
  RolePositionsInputSchema,
} from "./schemas/roles";
import { pick } from "./snapshots";

const ROLE_FIELDS = ["name", "color", "hoist", "mentionable", "permissions"] as const;
const roleView = (role: APIRole) => pick(role, ["id", ...ROLE_FIELDS, "position"]);
/** The role's name in a before snapshot (roleView), or null when it could not be read. */
const roleName = (before: unknown) => (before as { name?: string } | null | undefined)?.name ?? null;

/** POST /guilds/{guild.id}/roles: Create Guild Role */
export const createGuildRoleAction = guildAction({
  action: "Create Guild Role",
  schema: CreateRoleInputSchema,
  // The role the API made (the name asked for is in the request).
  target: (_input, { result }) => {
    const role = result as APIRole | undefined;
    return { type: "role", id: role?.id ?? null, name: role?.name ?? null };
  },
  authorize: (check, input) =>
    firstRefusal(check.may("Create Guild Role"), check.grantBlock(BigInt(input.permissions))),
  run: ({ api, guildId, input, reason }) =>
    api.roles.create(
      guildId,
      {
        name: input.name,
        color: input.color,
        hoist: input.hoist,
        mentionable: input.mentionable,
        permissions: input.permissions,
      },
      { reason },
    ),
  after: roleView,
  message: (role) => `Created the role ${role.name}.`,
});

/** PATCH /guilds/{guild.id}/roles/{role.id}: Modify Guild Role */
export const modifyGuildRoleAction = guildAction({
  action: "Modify Guild Role",
  schema: ModifyRoleInputSchema,
  target: (input, { before, result }) => ({
    type: "role",
    id: input.roleId,
    name: (result as APIRole | undefined)?.name ?? roleName(before),
  }),
  authorize: (check, input) => {
    // Only the bits that change are judged, against the role's permissions now (the API's rule).
    const current = check.roles.find((r) => r.id === input.roleId);
    return firstRefusal(
      check.may("Modify Guild Role"),
      check.roleBlock(input.roleId),
      input.permissions !== undefined && current
        ? check.grantBlock(BigInt(input.permissions), BigInt(current.permissions))
        : null,
    );
  },
  request: (input) =>
    pick(
      input,
      ROLE_FIELDS.filter((key) => input[key] !== undefined),
    ),
  before: async ({ api, guildId, input }) => roleView(await api.roles.get(guildId, input.roleId)),
  run: ({ api, guildId, input, reason }) => {
    const body = Object.fromEntries(
      ROLE_FIELDS.filter((key) => input[key] !== undefined).map((key) => [key, input[key]]),
    );
    return api.roles.edit(guildId, input.roleId, body, { reason });
  },
  after: roleView,
  message: (role) => `Saved ${role.name}.`,
});

/** PATCH /guilds/{guild.id}/roles: Modify Guild Role Positions (a whole drag in one request) */
export const modifyGuildRolePositionsAction = guildAction({
  action: "Modify Guild Role Positions",
  schema: RolePositionsInputSchema,
  target: (input, { before }) => {
    const names = input.positions.map(
      (p) => (before as Record<string, { name: string }> | undefined)?.[p.id]?.name ?? p.id,
    );
    return {
      type: "roles",
      id: input.positions.length === 1 ? input.positions[0].id : null,
      name: names.length <= 3 ? names.join(", ") : `${names.length} roles`,
    };
  },
  // Where each role goes counts as much as where it is: the API's own rule (canMoveRoles, lib/discord/permissions).
  authorize: (check, input) => firstRefusal(check.may("Modify Guild Role Positions"), check.moveBlock(input.positions)),
  request: (input) => input.positions,
  before: async ({ api, guildId, input }) =>
    positionsOf(
      await api.roles.list(guildId),
      input.positions.map((p) => p.id),
    ),
  run: ({ api, guildId, input, reason }) => api.roles.setPositions(guildId, input.positions, { reason }),
  after: (roles, { input }) =>
    positionsOf(
      roles,
      input.positions.map((p) => p.id),
    ),
  message: () => "Saved the new role order.",
});

function positionsOf(roles: readonly APIRole[], ids: readonly string[]) {
  const wanted = new Set(ids);
  return Object.fromEntries(
    roles.filter((r) => wanted.has(r.id)).map((r) => [r.id, { name: r.name, position: r.position }]),
  );
}

/** DELETE /guilds/{guild.id}/roles/{role.id}: Delete Guild Role */
export const deleteGuildRoleAction = guildAction({
  action: "Delete Guild Role",
  schema: DeleteRoleInputSchema,
  target: (input, { before }) => ({
    type: "role",
    id: input.roleId,
    name: roleName(before),
  }),
  authorize: (check, input) => {
    // @everyone and managed roles are refused by the API as invalid (400) before the hierarchy is judged.
    const role = check.roles.find((r) => r.id === input.roleId);
    const invalid = role === undefined || role.managed || role.id === check.guildId;
    return firstRefusal(check.may("Delete Guild Role"), invalid ? null : check.roleBlock(input.roleId));
  },
  request: () => ({}),
  before: async ({ api, guildId, input }) => roleView(await api.roles.get(guildId, input.roleId)),
  run: ({ api, guildId, input, reason }) => api.roles.delete(guildId, input.roleId, { reason }),
  after: () => null,
  message: (_r, _input, { before }) => `Deleted ${roleName(before) ?? "the role"}.`,
});

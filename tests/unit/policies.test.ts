import fs from "node:fs";
import path from "node:path";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describe, expect, test } from "vitest";
import {
  discordPolicyOf,
  judge,
  judgeHierarchy,
  judgePermissions,
  judgeToken,
  MANAGE_SCOPE,
  POLICIES,
  type OperationName,
} from "@/lib/discord/policies";
import type { GuildPermissionContext } from "@/lib/discord/permissions";
import { apiRoutes } from "@/lib/guild-api/routes";

const shape = (p: string) => p.replace(/\{[^}]+\}|:[A-Za-z]+/g, "*");

describe("the table and the API's routes", () => {
  test("every route names an operation whose method and path are the route's", () => {
    for (const definition of apiRoutes) {
      const policy = POLICIES[definition.operation];
      expect(policy, definition.operation).toBeDefined();
      expect(policy.method, definition.operation).toBe(definition.method);
      // Modify Current User Nick is also routed with "@me" percent-encoded (/members/:userId/nick).
      if (definition.path !== "/guilds/:guildId/members/:userId/nick")
        expect(shape(policy.path), definition.operation).toBe(shape(definition.path));
    }
  });

  test("every operation of the table is served by a route", () => {
    const served = new Set(apiRoutes.map((definition) => definition.operation));
    expect(Object.keys(POLICIES).filter((operation) => !served.has(operation as OperationName))).toEqual([]);
  });

  test("the table is pure: it imports nothing of the built-in API, the database or Next", () => {
    const source = fs.readFileSync(path.join(__dirname, "../../lib/discord/policies.ts"), "utf8");
    const imports = [...source.matchAll(/from "([^"]+)"/g)].map((m) => m[1]);
    expect(imports.every((from) => from === "discord-api-types/v10" || from.startsWith("./"))).toBe(true);
  });

  test("permission flags are BigInt and management routes take bots and Bearer tokens with the management scope", () => {
    for (const [operation, policy] of Object.entries(POLICIES)) {
      for (const mask of policy.permissions) expect(typeof mask, operation).toBe("bigint");
      if ((policy.scopes as readonly string[]).includes(MANAGE_SCOPE))
        expect(policy.tokens, operation).toEqual(["bot", "bearer"]);
    }
  });
});

describe("discordPolicyOf: the table on Discord's terms (DISCORD_STRICT=1)", () => {
  test("management routes take bot tokens only; Discord's user-token routes keep theirs", () => {
    const strict = (operation: OperationName) => discordPolicyOf(operation)!;
    expect(strict("Create Guild Ban")).toMatchObject({ tokens: ["bot"], scopes: [] });
    expect(
      judgeToken("Create Guild Ban", { tokenKind: "bearer", scopes: [MANAGE_SCOPE] }, strict("Create Guild Ban")),
    ).toMatchObject({ ok: false, reason: "token" });
    expect(strict("Get Guild Channels").tokens).toEqual(["bot", "bearer"]);
    expect(strict("Get Current User Guilds")).toMatchObject({ tokens: ["bot", "bearer"], scopes: ["guilds"] });
  });

  test("extensions have no policy; Discord's permissions where Guildhall asks fewer", () => {
    expect(discordPolicyOf("List Guild Events")).toBeNull();
    expect(discordPolicyOf("Accept Invite")).toBeNull();
    const search = discordPolicyOf("Search Guild Members v2")!;
    expect(judgePermissions("Search Guild Members v2", { permissions: P.KickMembers }).ok).toBe(true);
    expect(judgePermissions("Search Guild Members v2", { permissions: P.KickMembers }, search).ok).toBe(false);
    expect(judgePermissions("Search Guild Members v2", { permissions: P.ManageGuild }, search).ok).toBe(true);
  });
});

describe("judgeToken", () => {
  test("a Bearer token needs the management scope on management routes; bots are not scoped", () => {
    expect(judgeToken("Create Guild Ban", { tokenKind: "bearer", scopes: new Set(["identify"]) })).toMatchObject({
      ok: false,
      reason: "scope",
      missingScopes: [MANAGE_SCOPE],
    });
    expect(judgeToken("Create Guild Ban", { tokenKind: "bearer", scopes: [MANAGE_SCOPE] })).toEqual({ ok: true });
    expect(judgeToken("Create Guild Ban", { tokenKind: "bot" })).toEqual({ ok: true });
    expect(judgeToken("Create Guild Ban", { tokenKind: "anonymous" })).toMatchObject({ ok: false, reason: "token" });
    // Discord's one exception: any user token may list a guild's channels (the Activity does).
    expect(judgeToken("Get Guild Channels", { tokenKind: "bearer", scopes: ["identify"] }).ok).toBe(true);
  });

  test("the user routes need exactly their Discord scope", () => {
    const only = (scope: string) => new Set([scope]);
    expect(judgeToken("Get Current User", { tokenKind: "bearer", scopes: only("identify") }).ok).toBe(true);
    expect(judgeToken("Get Current User", { tokenKind: "bearer", scopes: only("guilds") }).ok).toBe(false);
    expect(judgeToken("Get Current User Guilds", { tokenKind: "bearer", scopes: only("guilds") }).ok).toBe(true);
    expect(judgeToken("Get Current User Guilds", { tokenKind: "bearer", scopes: only(MANAGE_SCOPE) }).ok).toBe(false);
    const member = only("guilds.members.read");
    expect(judgeToken("Get Current User Guild Member", { tokenKind: "bearer", scopes: member }).ok).toBe(true);
    expect(judgeToken("Get Current User Guild Member", { tokenKind: "bot" })).toMatchObject({ reason: "token" });
  });

  test("guilds.join: accepting an invite needs it; Add Guild Member is the bot's whatever the scopes", () => {
    expect(judgeToken("Accept Invite", { tokenKind: "bearer", scopes: ["identify"] })).toMatchObject({
      reason: "scope",
      missingScopes: ["guilds.join"],
    });
    expect(judgeToken("Accept Invite", { tokenKind: "bearer", scopes: ["guilds.join"] }).ok).toBe(true);
    expect(judgeToken("Accept Invite", { tokenKind: "bot" })).toMatchObject({ reason: "token" });
    const everything = ["guilds.join", MANAGE_SCOPE, "identify"];
    expect(judgeToken("Add Guild Member", { tokenKind: "bearer", scopes: everything })).toMatchObject({
      reason: "token",
    });
    expect(judgeToken("Add Guild Member", { tokenKind: "bot" }).ok).toBe(true);
  });

  test("anonymous routes take no token at all, or any", () => {
    expect(judgeToken("Get Guild Widget Image", { tokenKind: "anonymous" }).ok).toBe(true);
    expect(judgeToken("Get Invite", { tokenKind: "anonymous" }).ok).toBe(true);
    expect(judgeToken("Get Invite", { tokenKind: "bearer", scopes: [] }).ok).toBe(true);
  });
});

describe("judgePermissions", () => {
  const judgeWith = (operation: OperationName, permissions: bigint, extra = {}) =>
    judgePermissions(operation, { permissions, ...extra });

  test("every flag of a requirement is needed; messages name what is missing", () => {
    expect(judgeWith("Bulk Guild Ban", P.BanMembers)).toEqual({
      ok: false,
      reason: "permission",
      message: "needs Manage Server",
    });
    expect(judgeWith("Bulk Guild Ban", P.BanMembers | P.ManageGuild)).toEqual({ ok: true });
    expect(judgeWith("Begin Guild Prune", P.KickMembers).ok).toBe(false);
    expect(judgeWith("Get Guild", 0n).ok).toBe(true);
  });

  test("alternatives: one of them is enough", () => {
    expect(judgeWith("Get Guild Invites", P.ViewAuditLog).ok).toBe(true);
    expect(judgeWith("Get Guild Invites", P.ManageGuild).ok).toBe(true);
    expect(judgeWith("Get Guild Invites", P.KickMembers)).toMatchObject({
      ok: false,
      message: "needs Manage Server or View Audit Log",
    });
    expect(judgeWith("Modify Guild Member", 0n, { fields: ["flags"] })).toMatchObject({
      message: "needs Manage Server, Manage Roles, or Kick Members, Ban Members and Timeout Members",
    });
  });

  test("Modify Guild Member judges each field the body sets", () => {
    const fields = (...names: string[]) => ({ fields: names });
    expect(judgeWith("Modify Guild Member", 0n).ok).toBe(true);
    expect(judgeWith("Modify Guild Member", P.ManageNicknames, fields("nick")).ok).toBe(true);
    expect(judgeWith("Modify Guild Member", P.ManageNicknames, fields("nick", "roles"))).toMatchObject({
      ok: false,
      message: "needs Manage Roles",
    });
    expect(judgeWith("Modify Guild Member", P.ModerateMembers, fields("communication_disabled_until")).ok).toBe(true);
    expect(judgeWith("Modify Guild Member", P.MuteMembers, fields("mute", "deaf")).ok).toBe(false);
    expect(judgeWith("Modify Guild Member", P.MoveMembers, fields("channel_id")).ok).toBe(true);
    // flags: MANAGE_GUILD, or MANAGE_ROLES, or all three of MODERATE, KICK and BAN.
    expect(judgeWith("Modify Guild Member", P.ManageRoles, fields("flags")).ok).toBe(true);
    expect(judgeWith("Modify Guild Member", P.ModerateMembers | P.KickMembers, fields("flags")).ok).toBe(false);
    const moderator = P.ModerateMembers | P.KickMembers | P.BanMembers;
    expect(judgeWith("Modify Guild Member", moderator, fields("flags")).ok).toBe(true);
  });

  test("administrators and owners pass; pending members hold nothing; the inviter may manage target users", () => {
    expect(judgeWith("Modify Guild Onboarding", P.Administrator).ok).toBe(true);
    expect(judgeWith("Modify Guild Onboarding", 0n, { isOwner: true }).ok).toBe(true);
    expect(judgeWith("Create Guild Ban", P.BanMembers, { pending: true }).ok).toBe(false);
    expect(judgeWith("Update Target Users", 0n).ok).toBe(false);
    expect(judgeWith("Update Target Users", 0n, { isInviter: true }).ok).toBe(true);
    expect(judgeWith("Create Guild Ban", 0n, { isInviter: true }).ok).toBe(false);
  });
});

describe("judgeHierarchy and judge", () => {
  const context: GuildPermissionContext = {
    guildId: "1",
    ownerId: "100",
    roles: [
      { id: "1", position: 0, permissions: 0n },
      { id: "10", position: 5, permissions: P.BanMembers },
      { id: "20", position: 3, permissions: 0n },
    ],
  };
  const mod = { userId: "200", roleIds: ["20"] };
  const senior = { userId: "300", roleIds: ["10"] };

  test("members and roles at or above the caller are refused; below are allowed", () => {
    expect(judgeHierarchy("Create Guild Ban", { context, self: mod, targetMember: senior })).toMatchObject({
      ok: false,
      reason: "hierarchy",
    });
    expect(judgeHierarchy("Create Guild Ban", { context, self: senior, targetMember: mod }).ok).toBe(true);
    expect(judgeHierarchy("Delete Guild Role", { context, self: mod, targetRole: context.roles[1] }).ok).toBe(false);
    expect(judgeHierarchy("Delete Guild Role", { context, self: senior, targetRole: context.roles[2] }).ok).toBe(true);
    // No hierarchy rule: nothing to judge.
    expect(judgeHierarchy("Modify Guild", { context, self: mod, targetMember: senior }).ok).toBe(true);
  });

  test("judge: token first, then permissions, then hierarchy", () => {
    const subject = {
      tokenKind: "bearer" as const,
      scopes: ["identify"],
      permissions: P.BanMembers,
      context,
      self: mod,
    };
    expect(judge("Create Guild Ban", { ...subject, targetMember: senior })).toMatchObject({ reason: "scope" });
    const scoped = { ...subject, scopes: [MANAGE_SCOPE] };
    expect(judge("Create Guild Ban", { ...scoped, permissions: 0n })).toMatchObject({ reason: "permission" });
    expect(judge("Create Guild Ban", { ...scoped, targetMember: senior })).toMatchObject({ reason: "hierarchy" });
    expect(judge("Create Guild Ban", { ...scoped, targetMember: { userId: "400", roleIds: [] } })).toEqual({
      ok: true,
    });
  });
});

// The dashboard's actions against the built-in API, through the same action client the app uses:
// bot mode (GUILD_API_AUTH=bot, as with Discord itself) enforces the moderator's own permissions and role hierarchy
// with the shared engine before calling, and stamps "name (id): reason" into the audit-log reason; user mode
// leaves the judgement to the API with the moderator's own token. Each attempt yields one audit history entry.
import { describe, expect, it } from "vitest";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import { modifyGuildAction } from "@/lib/dashboard/actions/guilds";
import {
  createGuildRoleAction,
  modifyGuildRoleAction,
  modifyGuildRolePositionsAction,
} from "@/lib/dashboard/actions/roles";
import {
  banMemberAction,
  kickMemberAction,
  setMemberRolesAction,
  setMemberNicknameAction,
  setMemberTimeoutAction,
} from "@/lib/dashboard/actions/members";
import { PermissionFlagsBits, Routes } from "discord-api-types/v10";
import { testServerForFile } from "../harness";
import { actionAs, type DemoUser } from "./harness";
import { expectOperationResponse } from "../openapi";

const server = testServerForFile();

const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: DemoUser,
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition);

async function memberOf(userId: string) {
  return server.api("bot", "GET", `/guilds/${server.world.guildId}/members/${userId}`);
}

async function lastAuditReason(actionType: number): Promise<string | null> {
  const response = await server.api(
    "bot",
    "GET",
    `/guilds/${server.world.guildId}/audit-logs?action_type=${actionType}&limit=1`,
  );
  const body = (await response.json()) as { audit_log_entries: Array<{ reason?: string | null }> };
  return body.audit_log_entries[0]?.reason ?? null;
}

describe("bot mode", () => {
  it("refuses a ban for a helper who lacks Ban Members, before the API is called", async () => {
    const guildId = server.world.guildId;
    const target = server.world.users.member;
    const { run, audit } = as("helper", "bot", banMemberAction.definition);
    const result = await run({
      guildId,
      userId: target,
      delete_message_seconds: 0,
      reason: "testing",
    });
    expect(result).toEqual({ ok: false, error: "You can't do this: needs Ban Members.", fieldErrors: {}, status: 403 });
    // The bot could have banned (it is an administrator): the dashboard stopped it.
    expect((await server.api("bot", "GET", `/guilds/${guildId}/bans/${target}`)).status).toBe(404);
    expect((await memberOf(target)).status).toBe(200);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "Create Guild Ban",
      actor: { id: server.world.users.helper, name: "Helper" },
      // Refused before any snapshot: the member by id (the history page names them from the API).
      target: { type: "member", id: target, name: null },
      status: "error",
      httpStatus: 403,
      error: "Refused by the dashboard: needs Ban Members",
      reason: "testing",
    });
  });

  it("refuses to act on a member whose highest role is not below the moderator's", async () => {
    const { run, audit } = as("helper", "bot", kickMemberAction.definition);
    const result = await run({ guildId: server.world.guildId, userId: server.world.users.mod });
    expect(result).toMatchObject({
      ok: false,
      status: 403,
      error: "You can't do this: member's highest role is above or equal to yours.",
    });
    expect((await memberOf(server.world.users.mod)).status).toBe(200);
    expect(audit[0].status).toBe("error");
  });

  it("lets a helper kick a plain member, with the moderator stamped into the API's audit-log reason", async () => {
    const target = server.world.users.member;
    const { run, audit } = as("helper", "bot", kickMemberAction.definition);
    const result = await run({ guildId: server.world.guildId, userId: target, reason: "spam" });
    // The name is the API's (the member's global name), as the before snapshot read it.
    expect(result).toMatchObject({ ok: true, message: "Kicked Member." });
    expect((await memberOf(target)).status).toBe(404);
    // MEMBER_KICK = 20
    expect(await lastAuditReason(20)).toBe(`Helper (${server.world.users.helper}): spam`);
    expect(audit[0]).toMatchObject({ action: "Remove Guild Member", status: "success", reason: "spam", after: null });
    expect(audit[0].before).toMatchObject({ user: { username: "member" }, roles: [server.world.roles.member] });
  });

  it("stamps the moderator even without a reason, and records before/after of a rename", async () => {
    const guildId = server.world.guildId;
    const { run, audit } = as("mod", "bot", modifyGuildAction.definition);
    const result = await run({ guildId, name: "Guildhall HQ (bot mode)" });
    expect(result.ok).toBe(true);
    if (result.ok) expectOperationResponse("PATCH", "/guilds/{guild_id}", 200, result.data);
    // GUILD_UPDATE = 1
    expect(await lastAuditReason(1)).toBe(`Mod (${server.world.users.mod})`);
    expect(audit[0]).toMatchObject({
      action: "Modify Guild",
      status: "success",
      request: { name: "Guildhall HQ (bot mode)" },
      before: { name: "Guildhall HQ" },
      after: { name: "Guildhall HQ (bot mode)" },
    });
    await run({ guildId, name: "Guildhall HQ" });
  });

  it("refuses Modify Guild to someone without Manage Server, and COMMUNITY changes to non-administrators", async () => {
    const guildId = server.world.guildId;
    const member = as("helper", "bot", modifyGuildAction.definition);
    expect(await member.run({ guildId, name: "Nope" })).toMatchObject({
      ok: false,
      error: "You can't do this: needs Manage Server.",
    });
    const mod = as("mod", "bot", modifyGuildAction.definition);
    const guild = (await (await server.api("bot", "GET", `/guilds/${guildId}`)).json()) as { features: string[] };
    const result = await mod.run({ guildId, features: guild.features.filter((f) => f !== "COMMUNITY") as never });
    expect(result).toMatchObject({ ok: false, error: "You can't do this: needs Administrator." });
    const after = (await (await server.api("bot", "GET", `/guilds/${guildId}`)).json()) as { features: string[] };
    expect(after.features).toContain("COMMUNITY");
  });

  it("applies the role hierarchy and refuses granting permissions the moderator lacks", async () => {
    const guildId = server.world.guildId;
    const edit = as("mod", "bot", modifyGuildRoleAction.definition);
    expect(await edit.run({ guildId, roleId: server.world.roles.admin, name: "Mine now" })).toMatchObject({
      ok: false,
      error: "You can't do this: Admin: role is above yours.",
    });
    const create = as("mod", "bot", createGuildRoleAction.definition);
    const administrator = (1n << 3n).toString();
    const refused = await create.run({
      guildId,
      name: "Sneaky",
      color: 0,
      hoist: false,
      mentionable: false,
      permissions: administrator,
    });
    expect(refused).toMatchObject({ ok: false, status: 403 });
    expect((refused as { error: string }).error).toMatch(
      /you can't grant permissions you don't have \(needs Administrator\)/,
    );
    const roles = (await (await server.api("bot", "GET", `/guilds/${guildId}/roles`)).json()) as Array<{
      name: string;
    }>;
    expect(roles.map((r) => r.name)).not.toContain("Sneaky");

    const assign = as("mod", "bot", setMemberRolesAction.definition);
    const target = server.world.users.helper;
    expect(
      await assign.run({ guildId, userId: target, roles: [server.world.roles.helper, server.world.roles.moderator] }),
    ).toMatchObject({
      ok: false,
      error: "You can't do this: Moderator: role is your highest role.",
    });
  });

  it("times a member out and back in as the moderator's delegate", async () => {
    const guildId = server.world.guildId;
    const target = server.world.users.helper;
    const { run, audit } = as("mod", "bot", setMemberTimeoutAction.definition);
    const until = new Date(Date.now() + 3600_000).toISOString();
    const result = await run({ guildId, userId: target, until, reason: "cool down" });
    expect(result.ok).toBe(true);
    const timed = (await (await memberOf(target)).json()) as { communication_disabled_until: string | null };
    expect(Date.parse(timed.communication_disabled_until!)).toBe(Date.parse(until));
    expect(await run({ guildId, userId: target, until: null })).toMatchObject({
      ok: true,
      message: "Timeout removed.",
    });
    expect(audit.map((e) => e.after)).toEqual([
      { communication_disabled_until: expect.any(String) },
      { communication_disabled_until: null },
    ]);
    expect(await lastAuditReason(24)).toBe(`Mod (${server.world.users.mod})`);
  });

  it("validates before anything else: a timeout beyond 5 years (the dashboard renews Discord's 28 days up to that) never reaches the API", async () => {
    const { run, audit } = as("mod", "bot", setMemberTimeoutAction.definition);
    const result = await run({
      guildId: server.world.guildId,
      userId: server.world.users.helper,
      until: new Date(Date.now() + 6 * 365 * 86_400_000).toISOString(),
    });
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { until: ["A timeout lasts at most 5 years."] },
    });
    expect(audit).toHaveLength(0);
  });
});

describe("bot mode: the bot's own rank", () => {
  // Discord judges the bot: what ranks with or above its highest role (Guildhall Demo; Admin is above it in the demo
  // world) is out of its reach whoever asks, the owner included. The dashboard refuses first, in the bot's words.
  it("refuses the owner a change to a role above the bot's, a move of the bot's own role, and a kick of an admin", async () => {
    const guildId = server.world.guildId;
    const { roles, users } = server.world;
    const rename = as("owner", "bot", modifyGuildRoleAction.definition);
    expect(await rename.run({ guildId, roleId: roles.admin, name: "Mine now" })).toMatchObject({
      ok: false,
      status: 403,
      error: "You can't do this: Admin: role is above the bot's.",
    });
    const move = as("owner", "bot", modifyGuildRolePositionsAction.definition);
    const rolesNow = (await (await server.api("bot", "GET", `/guilds/${guildId}/roles`)).json()) as Array<{
      id: string;
      position: number;
    }>;
    const botRank = rolesNow.find((role) => role.id === roles.bot)!.position;
    expect(await move.run({ guildId, positions: [{ id: roles.bot, position: botRank - 1 }] })).toMatchObject({
      ok: false,
      error: "You can't do this: Guildhall Demo: role is not below the bot's highest role.",
    });
    const kick = as("owner", "bot", kickMemberAction.definition);
    expect(await kick.run({ guildId, userId: users.admin })).toMatchObject({
      ok: false,
      error: "You can't do this: member's highest role is above or equal to the bot's.",
    });
    expect((await memberOf(users.admin)).status).toBe(200);
    // Below the bot, the owner's change goes through.
    expect((await rename.run({ guildId, roleId: roles.helper, name: "Helper" })).ok).toBe(true);
  });

  it("refuses the owner their own nickname (the bot renames them, and nobody acts on the owner)", async () => {
    const { run } = as("owner", "bot", setMemberNicknameAction.definition);
    expect(await run({ guildId: server.world.guildId, userId: server.world.users.owner, nick: "Boss" })).toMatchObject({
      ok: false,
      error: "You can't do this: nobody can act on the server owner.",
    });
  });

  it("refuses granting a permission the bot lacks, when the bot is no administrator", async () => {
    const { guildId, roles } = server.world;
    const { DASHBOARD_BOT_PERMISSIONS } = await import("@/lib/dashboard/bot-permissions");
    const botRole = Routes.guildRole(guildId, roles.bot);
    const before = (await server.rest("owner").get(botRole)) as { permissions: string };
    await server.rest("owner").patch(botRole, { body: { permissions: String(DASHBOARD_BOT_PERMISSIONS) } });
    try {
      const edit = as("owner", "bot", modifyGuildRoleAction.definition);
      const helper = (await server.rest("owner").get(Routes.guildRole(guildId, roles.helper))) as {
        permissions: string;
      };
      expect(
        await edit.run({
          guildId,
          roleId: roles.helper,
          permissions: String(
            BigInt(helper.permissions) | PermissionFlagsBits.ManageWebhooks | PermissionFlagsBits.KickMembers,
          ),
        }),
      ).toMatchObject({
        ok: false,
        error:
          "You can't do this: the bot can't grant permissions it doesn't have (needs Manage Webhooks): give its role those first.",
      });
      // What the bot holds, it grants.
      expect(
        (
          await edit.run({
            guildId,
            roleId: roles.helper,
            permissions: String(BigInt(helper.permissions) | PermissionFlagsBits.KickMembers),
          })
        ).ok,
      ).toBe(true);
      await edit.run({ guildId, roleId: roles.helper, permissions: helper.permissions });
    } finally {
      await server.rest("owner").patch(botRole, { body: { permissions: before.permissions } });
    }
  });

  it("the owner's view disables what the bot cannot do in bot mode, and nothing in user mode", async () => {
    const { guildViewerOf } = await import("./harness");
    // The dashboard's reads go to this file's server, as its bot in bot mode.
    process.env.GUILD_API_URL = `${server.baseUrl}/api`;
    process.env.GUILD_API_BOT_TOKEN = server.botToken;
    const { roleVerdict, memberVerdict } = await import("@/lib/dashboard/data/viewer");
    const { roles, users } = server.world;
    const admin = { roles: [roles.admin], communication_disabled_until: null, user: { id: users.admin } };
    const bot = await guildViewerOf(server, "owner", "bot");
    const role = (id: string) => bot.roles.find((r) => r.id === id)!;
    expect(roleVerdict(bot, role(roles.bot))).toEqual({ ok: false, reason: "role is the bot's highest role" });
    expect(roleVerdict(bot, role(roles.admin))).toEqual({ ok: false, reason: "role is above the bot's" });
    expect(roleVerdict(bot, role(roles.moderator))).toEqual({ ok: true });
    expect(memberVerdict(bot, admin)).toEqual({
      ok: false,
      reason: "member's highest role is above or equal to the bot's",
    });
    // A bot token the API refuses is an error that says so, never a 401 that would send the moderator to sign in.
    process.env.GUILD_API_BOT_TOKEN = "not.a.token";
    const refused = await guildViewerOf(server, "owner", "bot").catch((error: unknown) => error);
    // (readOrThrow sends a 401 of /users/@me, the moderator's own token refused, to sign in.)
    expect(refused).toBeInstanceOf(Error);
    expect((refused as { request?: { path: string } }).request?.path ?? "").not.toMatch(/^\/users\/@me/);
    process.env.GUILD_API_BOT_TOKEN = server.botToken;
    const { readBotMember } = await import("@/lib/dashboard/data/bot-standing");
    const { GuildApiClient } = await import("@/lib/api-client");
    const badBot = new GuildApiClient({ baseUrl: `${server.baseUrl}/api`, token: "not.a.token", authPrefix: "Bot" });
    await expect(readBotMember(badBot, server.world.guildId)).rejects.toThrow(
      "The guild API refused the bot's token (401): set GUILD_API_BOT_TOKEN again and run npm run doctor.",
    );

    const user = await guildViewerOf(server, "owner", "user");
    expect(user.bot).toBeNull();
    expect(roleVerdict(user, role(roles.bot))).toEqual({ ok: true });
    expect(memberVerdict(user, admin)).toEqual({ ok: true });
  });
});

describe("user mode", () => {
  it("leaves the judgement to the API: a helper's ban is refused with 403 and recorded", async () => {
    const { run, audit } = as("helper", "user", banMemberAction.definition);
    const target = server.world.users.outsider;
    const result = await run({ guildId: server.world.guildId, userId: target, delete_message_seconds: 0 });
    expect(result).toMatchObject({ ok: false, status: 403, code: 50013, error: "Missing Permissions" });
    expect(audit[0]).toMatchObject({ status: "error", httpStatus: 403, error: "Missing Permissions" });
  });

  it("sends the moderator's own reason unstamped", async () => {
    const { run } = as("mod", "user", modifyGuildAction.definition);
    expect((await run({ guildId: server.world.guildId, description: "Edited in user mode", reason: "tidy" })).ok).toBe(
      true,
    );
    expect(await lastAuditReason(1)).toBe("tidy");
  });
});

// Finding (bot mode, hierarchy and per-field rules): in bot mode the API judges only the bot, so each action's guard
// must judge the moderator exactly as the API judges the moderator's own token. The guards of Modify Guild Role
// Positions (where a role goes, not only where it is) and of Modify Guild Member's roles, voice and flags (the target's
// rank, the channel a member is moved to) let through what the API refuses; other guards differed from their API
// service too (timeouts of oneself or of an administrator, kicking or banning oneself, managed roles, a moderator in
// membership screening, permissions one lacks in a new private channel's overwrites), and some refused what the API
// allows (renaming oneself with Change Nickname, unchanged role permissions, unknown overwrite bits, roles listed at
// their own rank). Each case runs the same call in user mode and in bot mode: the same outcome, and the guild, read
// back through the API, unchanged by a refusal.
import { PermissionFlagsBits as P, type APIGuildMember, type APIRole } from "discord-api-types/v10";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { GuildApiClient } from "@/lib/api-client";
import type { ActionResult, GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import { sql } from "@/lib/guild-api/store/db";
import { testServerForFile } from "../integration/harness";
import { actionAs, apiClientAs, type DemoUser } from "../integration/dashboard/harness";

const server = testServerForFile();

let roles: typeof import("@/lib/dashboard/actions/roles");
let members: typeof import("@/lib/dashboard/actions/members");
let channelSettings: typeof import("@/lib/dashboard/actions/channel-settings");
let channels: typeof import("@/lib/dashboard/actions/channels");
let onboarding: typeof import("@/lib/dashboard/actions/onboarding");
let onboardingValues: typeof import("@/lib/dashboard/actions/schemas/onboarding").onboardingValues;
/** The API as the owner: setting up and reading back. */
let owner: GuildApiClient;

beforeAll(async () => {
  roles = await import("@/lib/dashboard/actions/roles");
  members = await import("@/lib/dashboard/actions/members");
  channelSettings = await import("@/lib/dashboard/actions/channel-settings");
  channels = await import("@/lib/dashboard/actions/channels");
  onboarding = await import("@/lib/dashboard/actions/onboarding");
  onboardingValues = (await import("@/lib/dashboard/actions/schemas/onboarding")).onboardingValues;
  owner = await apiClientAs(server, "owner");
});

const guildId = () => server.world.guildId;

/** The same call as `who` in user mode (the API judges their own token), then in bot mode (the guard judges them). */
async function inBothModes<S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: DemoUser,
  definition: GuildActionDefinition<S, R>,
  userInput: z.input<S>,
  botInput: z.input<S> = userInput,
): Promise<{ user: ActionResult<R>; bot: ActionResult<R> }> {
  const user = await actionAs(server, who, "user", definition).run(userInput as never);
  const bot = await actionAs(server, who, "bot", definition).run(botInput as never);
  return { user, bot };
}

/**
 * Both modes refused the call with the same HTTP status. A 403 in bot mode must be the dashboard's own (its guard
 * judging the moderator), never left to the API, which judges only the bot there.
 */
function expectSameRefusal(
  { user, bot }: { user: ActionResult<unknown>; bot: ActionResult<unknown> },
  status: number,
): void {
  expect(user, "user mode").toMatchObject({ ok: false, status });
  expect(bot, "bot mode").toMatchObject({ ok: false, status });
  if (status === 403) expect(bot.ok === false && bot.error, "bot mode").toMatch(/^You can't do this: /);
}

const roleOrder = async () =>
  Object.fromEntries((await owner.roles.list(guildId())).map((r: APIRole) => [r.name, r.position]));
/** Puts every role back at its rank in `order` (name → position): the owner may move any role. */
async function restoreRoleOrder(order: Record<string, number>): Promise<void> {
  const positions = (await owner.roles.list(guildId()))
    .filter((r) => r.id !== guildId())
    .map((r) => ({ id: r.id, position: order[r.name] }));
  await owner.roles.setPositions(guildId(), positions);
}
const memberOf = (userId: string): Promise<APIGuildMember> => owner.members.get(guildId(), userId);
/** The member's voice channel, from the store: the built-in API has no Get User Voice State route. */
const voiceChannelOf = async (userId: string) =>
  String(
    await sql.value<bigint>(
      "SELECT channel_id FROM voice_states WHERE guild_id = ? AND user_id = ?",
      BigInt(guildId()),
      BigInt(userId),
    ),
  );
const sorted = (ids: readonly string[]) => [...ids].sort();

/** A member with no roles, none of the named demo users: a target whose standing nobody else's test changes. */
async function plainMember(skip: number): Promise<string> {
  const named = new Set(Object.values(server.world.users));
  const page = await owner.members.list(guildId(), { limit: 200 });
  const plain = page.filter((m) => m.roles.length === 0 && !m.user.bot && !named.has(m.user.id));
  return plain[skip].user.id;
}

describe("Modify Guild Role Positions: where a role goes, not only where it is", () => {
  it("refuses the moderator a move to their own top role's position, in both modes; the order is unchanged", async () => {
    const before = await roleOrder();
    const helper = server.world.roles.helper;
    try {
      const result = await inBothModes("mod", roles.modifyGuildRolePositionsAction.definition, {
        guildId: guildId(),
        positions: [{ id: helper, position: before.Moderator }],
      });
      expectSameRefusal(result, 403);
      expect(await roleOrder()).toEqual(before);
    } finally {
      await restoreRoleOrder(before);
    }
  });

  it("refuses a whole drag when one of its moves lands at the moderator's rank", async () => {
    const before = await roleOrder();
    const { member, regular } = server.world.roles;
    try {
      const result = await inBothModes("mod", roles.modifyGuildRolePositionsAction.definition, {
        guildId: guildId(),
        positions: [
          { id: member, position: before.Regular },
          { id: regular, position: before.Moderator },
        ],
      });
      expectSameRefusal(result, 403);
      expect(await roleOrder()).toEqual(before);
    } finally {
      await restoreRoleOrder(before);
    }
  });

  // Above the bot's own top role the API refuses the bot too: only the guard's verdict is new there.
  it("refuses a move above the moderator's top role", async () => {
    const before = await roleOrder();
    try {
      const result = await inBothModes("mod", roles.modifyGuildRolePositionsAction.definition, {
        guildId: guildId(),
        positions: [{ id: server.world.roles.member, position: before.Moderator + 1 }],
      });
      expectSameRefusal(result, 403);
      expect(await roleOrder()).toEqual(before);
    } finally {
      await restoreRoleOrder(before);
    }
  });

  it("allows what the API allows: a role above the moderator listed where it already is is not a move", async () => {
    const before = await roleOrder();
    const { admin, member } = server.world.roles;
    const result = await inBothModes(
      "mod",
      roles.modifyGuildRolePositionsAction.definition,
      {
        guildId: guildId(),
        positions: [
          { id: admin, position: before.Admin },
          { id: member, position: before.Regular },
        ],
      },
      // Bot mode puts Member back where it was.
      {
        guildId: guildId(),
        positions: [
          { id: admin, position: before.Admin },
          { id: member, position: before.Member },
        ],
      },
    );
    expect(result.user, "user mode").toMatchObject({ ok: true });
    expect(result.bot, "bot mode").toMatchObject({ ok: true });
    expect(await roleOrder()).toEqual(before);
  });
});

describe("Modify Guild Member: the target's rank, and the channel a member is moved to", () => {
  beforeAll(async () => {
    // `member` now ranks with the moderator: out of the moderator's reach.
    await owner.members.addRole(guildId(), server.world.users.member, server.world.roles.moderator);
  });
  afterAll(async () => {
    await owner.members.removeRole(guildId(), server.world.users.member, server.world.roles.moderator);
  });

  it("refuses muting a member of equal rank", async () => {
    const target = server.world.users.member;
    const result = await inBothModes("mod", members.setMemberVoiceAction.definition, {
      guildId: guildId(),
      userId: target,
      mute: true,
    });
    expectSameRefusal(result, 403);
    expect((await memberOf(target)).mute).toBe(false);
  });

  it("refuses adding a role to a member of equal rank, though the role itself is below the moderator", async () => {
    const target = server.world.users.member;
    const before = (await memberOf(target)).roles;
    const result = await inBothModes("mod", members.setMemberRolesAction.definition, {
      guildId: guildId(),
      userId: target,
      roles: [...before, server.world.roles.regular],
    });
    expectSameRefusal(result, 403);
    expect(sorted((await memberOf(target)).roles)).toEqual(sorted(before));
  });

  it("refuses setting the bypass-verification flag of a member of equal rank", async () => {
    const target = server.world.users.member;
    const before = (await memberOf(target)).flags;
    const result = await inBothModes("mod", members.setMemberBypassesVerificationAction.definition, {
      guildId: guildId(),
      userId: target,
      bypassesVerification: true,
    });
    expectSameRefusal(result, 403);
    expect((await memberOf(target)).flags).toBe(before);
  });

  it("refuses a move into a voice channel where the moderator may not connect", async () => {
    const { Gaming: gaming, Lounge: lounge } = server.world.channels;
    const moderator = server.world.roles.moderator;
    await owner.channels.editPermission(gaming, moderator, { type: 0, allow: "0", deny: String(P.Connect) });
    try {
      // The moderator moves themselves (no rank involved): only the channel rule can refuse.
      const self = server.world.users.mod;
      expect(await voiceChannelOf(self)).toBe(lounge);
      const result = await inBothModes("mod", members.setMemberVoiceAction.definition, {
        guildId: guildId(),
        userId: self,
        channel_id: gaming,
      });
      expectSameRefusal(result, 403);
      expect(await voiceChannelOf(self)).toBe(lounge);
    } finally {
      await owner.channels.deletePermission(gaming, moderator);
    }
  });

  it("refuses a moderator still in membership screening (pending members hold no permissions)", async () => {
    // `member` holds the Moderator role here; while pending, they hold nothing.
    const pendingMod = server.world.users.member;
    await sql.run(
      "UPDATE members SET pending = TRUE WHERE guild_id = ? AND user_id = ?",
      BigInt(guildId()),
      BigInt(pendingMod),
    );
    try {
      const target = await plainMember(0);
      const result = await inBothModes("member", members.kickMemberAction.definition, {
        guildId: guildId(),
        userId: target,
      });
      expectSameRefusal(result, 403);
      expect((await memberOf(target)).user.id).toBe(target);
    } finally {
      await sql.run(
        "UPDATE members SET pending = FALSE WHERE guild_id = ? AND user_id = ?",
        BigInt(guildId()),
        BigInt(pendingMod),
      );
    }
  });
});

describe("the other guards, held to their API service", () => {
  it("timeouts: nobody times themselves out", async () => {
    const self = server.world.users.mod;
    const until = new Date(Date.now() + 3_600_000).toISOString();
    try {
      const result = await inBothModes("mod", members.setMemberTimeoutAction.definition, {
        guildId: guildId(),
        userId: self,
        until,
      });
      expectSameRefusal(result, 403);
      expect((await memberOf(self)).communication_disabled_until ?? null).toBeNull();
    } finally {
      await owner.members.edit(guildId(), self, { communication_disabled_until: null });
    }
  });

  // The API refuses the bot here too (the administrator ranks above it), so only the guard's verdict is new.
  it("timeouts: nobody times out an administrator, not even the owner", async () => {
    const admin = server.world.users.admin;
    const until = new Date(Date.now() + 3_600_000).toISOString();
    try {
      const result = await inBothModes("owner", members.setMemberTimeoutAction.definition, {
        guildId: guildId(),
        userId: admin,
        until,
      });
      expectSameRefusal(result, 403);
      expect((await memberOf(admin)).communication_disabled_until ?? null).toBeNull();
    } finally {
      await sql.run(
        "UPDATE members SET communication_disabled_until = NULL WHERE guild_id = ? AND user_id = ?",
        BigInt(guildId()),
        BigInt(admin),
      );
    }
  });

  // The API refuses the bot here too (nobody assigns a managed role), so only the guard's verdict is new.
  it("roles: a managed role is never assigned by hand, even by an administrator above it", async () => {
    const target = await plainMember(1);
    const result = await inBothModes("admin", members.setMemberRolesAction.definition, {
      guildId: guildId(),
      userId: target,
      roles: [server.world.roles.bot],
    });
    expectSameRefusal(result, 403);
    expect((await memberOf(target)).roles).toEqual([]);
  });

  it("nickname: a member renames themselves with Change Nickname alone, as the API allows", async () => {
    const self = server.world.users.helper;
    const result = await inBothModes(
      "helper",
      members.setMemberNicknameAction.definition,
      { guildId: guildId(), userId: self, nick: "Helper (user mode)" },
      { guildId: guildId(), userId: self, nick: "Helper (bot mode)" },
    );
    expect(result.user, "user mode").toMatchObject({ ok: true });
    expect(result.bot, "bot mode").toMatchObject({ ok: true });
    expect((await memberOf(self)).nick).toBe("Helper (bot mode)");
    await owner.members.edit(guildId(), self, { nick: null });
  });

  it("role permissions: only the bits that change are judged (the role keeps one the moderator lacks)", async () => {
    const role = await owner.roles.create(guildId(), { name: "Webhooks", permissions: String(P.ManageWebhooks) });
    try {
      const result = await inBothModes(
        "mod",
        roles.modifyGuildRoleAction.definition,
        { guildId: guildId(), roleId: role.id, name: "Webhooks (user)", permissions: String(P.ManageWebhooks) },
        { guildId: guildId(), roleId: role.id, name: "Webhooks (bot)", permissions: String(P.ManageWebhooks) },
      );
      expect(result.user, "user mode").toMatchObject({ ok: true });
      expect(result.bot, "bot mode").toMatchObject({ ok: true });
      expect(await owner.roles.get(guildId(), role.id)).toMatchObject({
        name: "Webhooks (bot)",
        permissions: String(P.ManageWebhooks),
      });
    } finally {
      await owner.roles.delete(guildId(), role.id);
    }
  });

  it("roles: deleting a managed role is refused as the API refuses it (400 Invalid Role)", async () => {
    const bot = server.world.roles.bot;
    const result = await inBothModes("mod", roles.deleteGuildRoleAction.definition, {
      guildId: guildId(),
      roleId: bot,
    });
    expectSameRefusal(result, 400);
    expect((await owner.roles.get(guildId(), bot)).managed).toBe(true);
  });

  it("onboarding: an option naming a managed role is refused as the API refuses it (400 on the field)", async () => {
    const current = onboardingValues(await owner.guilds.getOnboarding(guildId()));
    const withManaged = structuredClone(current);
    withManaged.prompts[0].options[0].role_ids = [server.world.roles.bot];
    const result = await inBothModes("mod", onboarding.modifyGuildOnboardingAction.definition, {
      guildId: guildId(),
      ...withManaged,
    });
    expectSameRefusal(result, 400);
    expect(onboardingValues(await owner.guilds.getOnboarding(guildId()))).toEqual(current);
  });

  it("overwrites: bits no permission uses are dropped by the API, not counted against the moderator", async () => {
    const general = server.world.channels.general;
    const regular = server.world.roles.regular;
    const allow = String(P.AddReactions | (1n << 62n));
    try {
      const result = await inBothModes("mod", channelSettings.editChannelPermissionAction.definition, {
        guildId: guildId(),
        channelId: general,
        overwrite: { id: regular, type: 0, allow, deny: "0" },
      });
      expect(result.user, "user mode").toMatchObject({ ok: true });
      expect(result.bot, "bot mode").toMatchObject({ ok: true });
      const channel = (await owner.channels.get(general)) as { permission_overwrites?: Array<{ id: string }> };
      expect(channel.permission_overwrites?.find((o) => o.id === regular)).toMatchObject({
        allow: String(P.AddReactions),
      });
    } finally {
      await owner.channels.deletePermission(general, regular);
    }
  });

  it("a new private channel's overwrites: only bits the moderator holds in the server", async () => {
    const everyone = await owner.roles.get(guildId(), guildId());
    // Nobody but the owner and administrators can view channels now, the moderator included.
    await owner.roles.edit(guildId(), guildId(), {
      permissions: String(BigInt(everyone.permissions) & ~P.ViewChannel),
    });
    try {
      const name = "staff-only-bot-mode";
      const result = await inBothModes("mod", channels.createGuildChannelAction.definition, {
        guildId: guildId(),
        name,
        type: 0,
        private: true,
        private_role_ids: [server.world.roles.moderator],
      });
      expectSameRefusal(result, 403);
      expect((await owner.channels.list(guildId())).some((c) => c.name === name)).toBe(false);
    } finally {
      await owner.roles.edit(guildId(), guildId(), { permissions: everyone.permissions });
    }
  });

  // Last: before the fix, bot mode removed these members from the guild.
  it("kick: nobody kicks themselves", async () => {
    const self = server.world.users.helper;
    const result = await inBothModes("helper", members.kickMemberAction.definition, {
      guildId: guildId(),
      userId: self,
    });
    expectSameRefusal(result, 403);
    expect((await memberOf(self)).user.id).toBe(self);
  });

  it("ban: nobody bans themselves", async () => {
    const self = server.world.users.mod;
    const result = await inBothModes("mod", members.banMemberAction.definition, {
      guildId: guildId(),
      userId: self,
      delete_message_seconds: 0,
    });
    expectSameRefusal(result, 403);
    expect((await memberOf(self)).user.id).toBe(self);
  });
});

"use server";

// Server actions of the member panel: every change to one member.
import { PermissionFlagsBits as P, type APIGuildMember } from "discord-api-types/v10";
import type { GuildApiClient } from "@/lib/api-client";
import { guildAction } from "./guild-action";
import { banLengthText, banRequest } from "./ban-length";
import { timeoutStep } from "@/lib/moderation/durations";
import { firstRefusal } from "./moderator";
import {
  BanInputSchema,
  BYPASSES_VERIFICATION,
  KickInputSchema,
  MemberFlagsInputSchema,
  MemberRolesInputSchema,
  NicknameInputSchema,
  TimeoutInputSchema,
  VoiceInputSchema,
} from "./schemas/members";
import { memberUserSnapshot, pick, snapshotUserAliases, snapshotUserName, userSnapshot } from "./snapshots";

type MemberInput = { userId: string };

/** What a timeout until `until` sends (at most Discord's 28 days from now) and files (its real end past that). */
function timeoutRequest(until: string | null): {
  communication_disabled_until: string | null;
  timeout_ends_at?: string;
} {
  if (until === null) return { communication_disabled_until: null };
  const { until: held } = timeoutStep(Date.now(), Date.parse(until));
  return held < Date.parse(until)
    ? { communication_disabled_until: new Date(held).toISOString(), timeout_ends_at: until }
    : { communication_disabled_until: until };
}

/**
 * The member by id, named as the before snapshot (the API) names them, with every name they went by then (username,
 * global name, the nickname before and after) for the history's Target filter.
 */
const memberTarget = (input: MemberInput, { before, result }: { before?: unknown; result?: unknown }) => ({
  type: "member",
  id: input.userId,
  name: snapshotUserName(before),
  aliases: snapshotUserAliases(before, result),
});

const memberView = (member: APIGuildMember, keys: readonly string[]) => pick(member, keys);
const beforeMember =
  (keys: readonly string[]) =>
  async ({ api, guildId, input }: { api: GuildApiClient; guildId: string; input: MemberInput }) => {
    const member = await api.members.get(guildId, input.userId);
    return { user: memberUserSnapshot(member), ...memberView(member, keys) };
  };

/** Someone banned by id need not be a member: Get User names them then (null when even that fails). */
const userOrNull = (api: GuildApiClient, userId: string) => api.users.get(userId).then(userSnapshot, () => null);

/** PATCH /guilds/{guild.id}/members/{user.id}: Modify Guild Member (nick) */
export const setMemberNicknameAction = guildAction({
  action: "Modify Guild Member",
  schema: NicknameInputSchema,
  target: memberTarget,
  // Your own nickname: Change Nickname or Manage Nicknames (and in bot mode, where the bot renames you, the bot must
  // outrank you); anyone else's: Manage Nicknames and the hierarchy.
  authorize: (check, input) =>
    input.userId === check.self.userId
      ? (check.missingAny(P.ChangeNickname, P.ManageNicknames) ?? check.botRefusal("Modify Guild Member", check.self))
      : check.mayActOn("Modify Guild Member", input.userId, ["nick"]),
  request: (input) => ({ nick: input.nick || null }),
  before: beforeMember(["nick"]),
  run: ({ api, guildId, input, reason }) =>
    api.members.edit(guildId, input.userId, { nick: input.nick || null }, { reason }),
  after: (member) => memberView(member, ["nick"]),
  message: (member) => (member.nick ? `Nickname set to ${member.nick}.` : "Nickname cleared."),
});

/** PATCH /guilds/{guild.id}/members/{user.id}: Modify Guild Member (roles) */
export const setMemberRolesAction = guildAction({
  action: "Modify Guild Member",
  schema: MemberRolesInputSchema,
  target: memberTarget,
  authorize: async (check, input) => {
    // The member must be below the moderator (unless it is themselves), and every role added or removed must be
    // below the moderator's highest role and not managed. @everyone is implied: listing it changes nothing.
    const current = (await check.targetMember(input.userId))?.roles ?? [];
    const wanted = new Set(input.roles.filter((id) => id !== check.guildId));
    const changed = [...[...wanted].filter((id) => !current.includes(id)), ...current.filter((id) => !wanted.has(id))];
    return firstRefusal(
      await check.mayActOn("Modify Guild Member", input.userId, ["roles"]),
      ...changed.map((roleId) => check.assignRoleBlock(roleId)),
    );
  },
  request: (input) => ({ roles: input.roles }),
  before: beforeMember(["roles"]),
  run: ({ api, guildId, input, reason }) => api.members.edit(guildId, input.userId, { roles: input.roles }, { reason }),
  after: (member) => memberView(member, ["roles"]),
  message: () => "Roles saved.",
});

/** PATCH /guilds/{guild.id}/members/{user.id}: Modify Guild Member (communication_disabled_until) */
export const setMemberTimeoutAction = guildAction({
  action: "Modify Guild Member",
  schema: TimeoutInputSchema,
  target: memberTarget,
  authorize: (check, input) => check.mayTimeOut(input.userId),
  // Past 28 days the API holds the cap; the history keeps the real end (timeout_ends_at), which the case and its
  // renewals follow (cases/derive.ts, cases/schedule.ts).
  request: (input) => timeoutRequest(input.until),
  before: beforeMember(["communication_disabled_until"]),
  run: ({ api, guildId, input, reason }) =>
    api.members.edit(
      guildId,
      input.userId,
      { communication_disabled_until: timeoutRequest(input.until).communication_disabled_until },
      { reason },
    ),
  after: (member) => memberView(member, ["communication_disabled_until"]),
  message: (member, input) =>
    input.until
      ? `Timed out until ${new Date(input.until).toUTCString()}${
          member.communication_disabled_until &&
          Date.parse(member.communication_disabled_until) < Date.parse(input.until)
            ? " (renewed every 28 days by this dashboard)"
            : ""
        }.`
      : "Timeout removed.",
});

/** PATCH /guilds/{guild.id}/members/{user.id}: Modify Guild Member (mute, deaf, channel_id) */
export const setMemberVoiceAction = guildAction({
  action: "Modify Guild Member",
  schema: VoiceInputSchema,
  target: memberTarget,
  // Each field's permission and the member's rank; a move also needs View Channel and Connect in the new channel.
  authorize: async (check, input) =>
    firstRefusal(
      await check.mayActOn(
        "Modify Guild Member",
        input.userId,
        (["mute", "deaf", "channel_id"] as const).filter((k) => input[k] !== undefined),
      ),
      input.channel_id ? await check.voiceMoveBlock(input.channel_id) : null,
    ),
  request: (input) =>
    Object.fromEntries(
      (["mute", "deaf", "channel_id"] as const).filter((k) => input[k] !== undefined).map((k) => [k, input[k]]),
    ),
  before: beforeMember(["mute", "deaf"]),
  run: ({ api, guildId, input, reason }) => {
    const body = Object.fromEntries(
      (["mute", "deaf", "channel_id"] as const).filter((k) => input[k] !== undefined).map((k) => [k, input[k]]),
    );
    return api.members.edit(guildId, input.userId, body, { reason });
  },
  after: (member) => memberView(member, ["mute", "deaf"]),
  message: (_m, input) =>
    input.channel_id === null
      ? "Disconnected from voice."
      : input.channel_id
        ? "Moved to the other channel."
        : input.mute !== undefined
          ? input.mute
            ? "Server muted."
            : "Unmuted."
          : input.deaf
            ? "Server deafened."
            : "Undeafened.",
});

/** PATCH /guilds/{guild.id}/members/{user.id}: Modify Guild Member (flags: BYPASSES_VERIFICATION, the one editable flag) */
export const setMemberBypassesVerificationAction = guildAction({
  action: "Modify Guild Member",
  schema: MemberFlagsInputSchema,
  target: memberTarget,
  authorize: (check, input) => check.mayActOn("Modify Guild Member", input.userId, ["flags"]),
  request: (input) => ({ bypasses_verification: input.bypassesVerification }),
  before: beforeMember(["flags"]),
  run: async ({ api, guildId, input, reason }) => {
    // Only BYPASSES_VERIFICATION is editable; every other bit is sent back as it is.
    const current = await api.members.get(guildId, input.userId);
    const flags = input.bypassesVerification
      ? current.flags | BYPASSES_VERIFICATION
      : current.flags & ~BYPASSES_VERIFICATION;
    return api.members.edit(guildId, input.userId, { flags }, { reason });
  },
  after: (member) => memberView(member, ["flags"]),
  message: (_m, input) =>
    input.bypassesVerification ? "The member now bypasses verification." : "The member must pass verification.",
});

/** DELETE /guilds/{guild.id}/members/{user.id}: Remove Guild Member (kick) */
export const kickMemberAction = guildAction({
  action: "Remove Guild Member",
  schema: KickInputSchema,
  target: memberTarget,
  authorize: (check, input) => check.mayRemove("Remove Guild Member", input.userId),
  request: () => ({}),
  before: beforeMember(["nick", "roles", "joined_at"]),
  run: ({ api, guildId, input, reason }) => api.members.kick(guildId, input.userId, { reason }),
  after: () => null,
  message: (_r, _input, { before }) => `Kicked ${snapshotUserName(before) ?? "the member"}.`,
});

/** PUT /guilds/{guild.id}/bans/{user.id}: Create Guild Ban */
export const banMemberAction = guildAction({
  action: "Create Guild Ban",
  schema: BanInputSchema,
  target: memberTarget,
  authorize: (check, input) => check.mayRemove("Create Guild Ban", input.userId),
  request: (input) => banRequest(input),
  before: async ({ api, guildId, input }) => {
    const member = await api.members.get(guildId, input.userId).catch(() => null);
    if (member) return { user: memberUserSnapshot(member), banned: false, member: true };
    const user = await userOrNull(api, input.userId);
    return user ? { user, banned: false, member: false } : { banned: false, member: false };
  },
  run: ({ api, guildId, input, reason }) =>
    api.bans.ban(guildId, input.userId, { delete_message_seconds: input.delete_message_seconds }, { reason }),
  after: () => ({ banned: true, member: false }),
  message: (_r, input, { before }) => `Banned ${snapshotUserName(before) ?? "the user"}${banLengthText(input)}.`,
});

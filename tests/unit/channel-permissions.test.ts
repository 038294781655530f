import { describe, expect, test } from "vitest";
import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import {
  channelPermissionGroups,
  channelTypePermissions,
  isPrivateChannel,
  isSyncedWithParent,
  privateChannelOverwrites,
} from "@/lib/discord/channel-permissions";

const GUILD = "1100000000000000000";
const MOD = "1100000000000000020";
const HELPER = "1100000000000000030";

describe("permissions by channel type", () => {
  test("text channels take chat and thread permissions, not voice; voice channels take Connect, not threads", () => {
    const text = channelTypePermissions(ChannelType.GuildText);
    expect(text & P.SendMessages).toBe(P.SendMessages);
    expect(text & P.CreatePrivateThreads).toBe(P.CreatePrivateThreads);
    expect(text & P.Connect).toBe(0n);
    expect(text & P.BanMembers).toBe(0n);
    const voice = channelTypePermissions(ChannelType.GuildVoice);
    expect(voice & P.Connect).toBe(P.Connect);
    expect(voice & P.CreatePublicThreads).toBe(0n);
    expect(channelTypePermissions(ChannelType.GuildAnnouncement) & P.CreatePrivateThreads).toBe(0n);
    expect(channelTypePermissions(ChannelType.GuildStageVoice) & P.RequestToSpeak).toBe(P.RequestToSpeak);
    const category = channelTypePermissions(ChannelType.GuildCategory);
    expect(category & (P.Connect | P.SendMessages | P.RequestToSpeak)).toBe(
      P.Connect | P.SendMessages | P.RequestToSpeak,
    );
  });

  test("groups in Discord's order and words: the channel's general group, Manage Permissions for Manage Roles", () => {
    const groups = channelPermissionGroups(ChannelType.GuildText);
    expect(groups.map((g) => g.label)).toEqual([
      "General Channel Permissions",
      "Membership Permissions",
      "Text Channel Permissions",
      "Apps Permissions",
    ]);
    const general = groups[0].permissions.map((p) => p.label);
    expect(general).toEqual(["View Channel", "Manage Channel", "Manage Permissions", "Manage Webhooks"]);
    expect(channelPermissionGroups(ChannelType.GuildStageVoice).map((g) => g.id)).toContain("stage");
  });
});

describe("private channels and category sync", () => {
  test("private when @everyone's overwrite denies View Channel", () => {
    expect(isPrivateChannel([], GUILD)).toBe(false);
    expect(isPrivateChannel([{ id: GUILD, type: 0, allow: "0", deny: String(P.SendMessages) }], GUILD)).toBe(false);
    expect(isPrivateChannel([{ id: GUILD, type: 0, allow: "0", deny: String(P.ViewChannel) }], GUILD)).toBe(true);
  });

  test("making a channel private for roles keeps its other overwrites; public again drops only the deny", () => {
    const start = [
      { id: GUILD, type: 0 as const, allow: "0", deny: String(P.SendMessages) },
      { id: HELPER, type: 0 as const, allow: String(P.AttachFiles), deny: "0" },
    ];
    const closed = privateChannelOverwrites(start, GUILD, true, [MOD]);
    expect(closed).toEqual([
      { id: GUILD, type: 0, allow: "0", deny: String(P.SendMessages | P.ViewChannel) },
      { id: HELPER, type: 0, allow: String(P.AttachFiles), deny: "0" },
      { id: MOD, type: 0, allow: String(P.ViewChannel), deny: "0" },
    ]);
    expect(isPrivateChannel(closed, GUILD)).toBe(true);
    const open = privateChannelOverwrites(closed, GUILD, false);
    expect(isPrivateChannel(open, GUILD)).toBe(false);
    expect(open[0]).toEqual({ id: GUILD, type: 0, allow: "0", deny: String(P.SendMessages) });
    expect(privateChannelOverwrites([], GUILD, false)).toEqual([]);
  });

  test("synced: the same overwrites as the category, in any order, bitfields compared as numbers", () => {
    const a = { id: GUILD, type: 0 as const, allow: "0", deny: "1024" };
    const b = { id: MOD, type: 0 as const, allow: "1024", deny: "0" };
    expect(isSyncedWithParent([a, b], [b, a])).toBe(true);
    expect(isSyncedWithParent([a], [a, b])).toBe(false);
    expect(isSyncedWithParent([{ ...a, deny: "2048" }, b], [a, b])).toBe(false);
    expect(isSyncedWithParent([], [])).toBe(true);
  });
});

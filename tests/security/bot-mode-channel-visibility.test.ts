// Finding (bot mode, channel visibility): in bot mode (GUILD_API_AUTH=bot) the dashboard reads with the bot's token,
// which sees every channel, so it must itself show a moderator only what the API would answer their own token. The
// channels page listed every active thread the bot could see: `member` with Manage Channels (no access to #mod-chat)
// got the private thread "Ban appeal review" from #mod-chat, which user mode never lists. A channel's settings page
// rendered #mod-chat for them too, where user mode answers 404.
//
// Now both follow List Active Guild Threads and Get Channel (lib/guild-api/services/channels.ts): View Channel in the
// thread's parent (the permission engine, overwrites applied), and for a private thread, Manage Threads there (a
// thread's own members see it too, but the bot cannot tell the dashboard who they are: bot mode errs on hiding).
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { beforeAll, describe, expect, test } from "vitest";
import type { GuildViewer } from "@/lib/dashboard/data/viewer";
import { testServerForFile } from "../integration/harness";
import { guildViewerOf } from "../integration/dashboard/harness";

const server = testServerForFile();

let channels: typeof import("@/lib/dashboard/data/channels");
let channelSettings: typeof import("@/lib/dashboard/data/channel-settings");

const threadNames = async (viewer: GuildViewer) =>
  (await channels.getActiveThreads(viewer)).map((thread) => thread.name).sort();

/** Get Channel as the settings page reads it: the channel's name, or "404" for the not-found page. */
async function channelPage(viewer: GuildViewer, channelId: string): Promise<string> {
  try {
    return (await channelSettings.getChannelDetails(viewer, channelId)).name ?? "";
  } catch (error) {
    if ((error as { digest?: string }).digest === "NEXT_HTTP_ERROR_FALLBACK;404") return "404";
    throw error;
  }
}

let appealThread: string;

beforeAll(async () => {
  process.env.GUILD_API_URL = `${server.baseUrl}/api`;
  process.env.GUILD_API_BOT_TOKEN = server.botToken;
  channels = await import("@/lib/dashboard/data/channels");
  channelSettings = await import("@/lib/dashboard/data/channel-settings");
  const { guildId, users } = server.world;

  // The channels section for `member`: Manage Channels (and Manage Server, Ban Members), but no way into #mod-chat.
  const role = await server.api("owner", "POST", `/guilds/${guildId}/roles`, {
    name: "Server managers",
    permissions: String(P.ManageGuild | P.BanMembers | P.ManageChannels),
  });
  expect(role.status).toBe(200);
  const { id: roleId } = (await role.json()) as { id: string };
  expect((await server.api("owner", "PUT", `/guilds/${guildId}/members/${users.member}/roles/${roleId}`)).status).toBe(
    204,
  );
  const { threads } = (await (await server.api("bot", "GET", `/guilds/${guildId}/threads/active`)).json()) as {
    threads: Array<{ id: string; name: string }>;
  };
  appealThread = threads.find((t) => t.name === "Ban appeal review")!.id;
});

describe("active threads in bot mode are the ones the API lists for the moderator's own token", () => {
  test("member (Manage Channels, no View Channel in #mod-chat): not the private thread from #mod-chat", async () => {
    const inUserMode = await threadNames(await guildViewerOf(server, "member", "user"));
    expect(inUserMode).toHaveLength(3);
    expect(inUserMode).not.toContain("Ban appeal review");
    expect(await threadNames(await guildViewerOf(server, "member", "bot"))).toEqual(inUserMode);
  });

  test("helper (sees #mod-chat, neither in the private thread nor Manage Threads): not it either", async () => {
    const inUserMode = await threadNames(await guildViewerOf(server, "helper", "user"));
    expect(inUserMode).not.toContain("Ban appeal review");
    expect(await threadNames(await guildViewerOf(server, "helper", "bot"))).toEqual(inUserMode);
  });

  test("mod and admin (Manage Threads in #mod-chat): every active thread, in both modes", async () => {
    for (const who of ["mod", "admin"] as const) {
      const inUserMode = await threadNames(await guildViewerOf(server, who, "user"));
      expect(inUserMode).toContain("Ban appeal review");
      expect(inUserMode).toHaveLength(4);
      expect(await threadNames(await guildViewerOf(server, who, "bot"))).toEqual(inUserMode);
    }
  });
});

describe("a channel's settings page in bot mode answers as Get Channel answers the moderator's token", () => {
  test("member: #mod-chat and its thread are the 404 page in both modes; #general opens", async () => {
    const modChat = server.world.channels["mod-chat"];
    const general = server.world.channels.general;
    for (const mode of ["user", "bot"] as const) {
      const member = await guildViewerOf(server, "member", mode);
      expect(await channelPage(member, modChat), mode).toBe("404");
      expect(await channelPage(member, appealThread), mode).toBe("404");
      expect(await channelPage(member, general), mode).toBe("general");
    }
  });

  test("mod: #mod-chat opens in both modes", async () => {
    for (const mode of ["user", "bot"] as const) {
      expect(await channelPage(await guildViewerOf(server, "mod", mode), server.world.channels["mod-chat"]), mode).toBe(
        "mod-chat",
      );
    }
  });
});

// The channel settings page's actions against the built-in API, through the action client the app uses: Modify
// Channel sends only what changed; overwrites one at a time or as a whole list (private, Sync now); bot mode holds the
// moderator to "cannot grant what you lack" in the channel; Delete Channel only after the typed name matches.
import { beforeAll, describe, expect, it } from "vitest";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import {
  deleteChannelAction,
  editChannelPermissionAction,
  modifyChannelAction,
  replaceChannelOverwritesAction,
} from "@/lib/dashboard/actions/channel-settings";
import { createGuildChannelAction } from "@/lib/dashboard/actions/channels";
import { privateChannelOverwrites } from "@/lib/discord/channel-permissions";
import { testServerForFile } from "../harness";
import { actionAs, type DemoUser } from "./harness";

const server = testServerForFile();
let guildId: string;
beforeAll(() => {
  guildId = server.world.guildId;
});

const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: DemoUser,
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition);

interface Channel {
  id: string;
  name: string;
  topic: string | null;
  nsfw: boolean;
  rate_limit_per_user: number;
  permission_overwrites: Array<{ id: string; type: number; allow: string; deny: string }>;
}
const read = async (id: string, who = "bot") =>
  (await server.api(who, "GET", `/channels/${id}`)).json() as Promise<Channel>;
async function create(name: string, extra: Record<string, unknown> = {}): Promise<Channel> {
  const response = await server.api("owner", "POST", `/guilds/${guildId}/channels`, { name, ...extra });
  return (await response.json()) as Channel;
}

describe("Modify Channel from the Overview tab", () => {
  it("sends only the changed fields; the history records them before and after", async () => {
    const channel = await create("overview-tab", { topic: "before", nsfw: true });
    const requests: Array<{ method: string; body: unknown }> = [];
    const recording: typeof fetch = async (input, init) => {
      if (init?.method === "PATCH") requests.push({ method: init.method, body: JSON.parse(String(init.body)) });
      return fetch(input, init);
    };
    const { run, audit } = actionAs(server, "mod", "user", modifyChannelAction.definition, { fetch: recording });
    const result = await run({
      guildId,
      channelId: channel.id,
      channelType: 0,
      changes: { topic: "after", rate_limit_per_user: 30 },
      reason: "tidy",
    });
    expect(result).toMatchObject({ ok: true });
    expect(requests).toEqual([{ method: "PATCH", body: { topic: "after", rate_limit_per_user: 30 } }]);
    expect(await read(channel.id)).toMatchObject({ topic: "after", rate_limit_per_user: 30, nsfw: true });
    expect(audit[0]).toMatchObject({
      action: "Modify Channel",
      status: "success",
      before: { topic: "before", rate_limit_per_user: 0 },
      after: { topic: "after", rate_limit_per_user: 30 },
    });
  });

  it("refuses an empty change and a text topic over 1024 before calling the API", async () => {
    const channel = await create("limits-tab");
    const { run } = as("mod", "user", modifyChannelAction.definition);
    expect(await run({ guildId, channelId: channel.id, channelType: 0, changes: {} })).toMatchObject({ ok: false });
    const long = await run({ guildId, channelId: channel.id, channelType: 0, changes: { topic: "x".repeat(1025) } });
    expect(long).toMatchObject({ ok: false, fieldErrors: { "changes.topic": ["At most 1024 characters."] } });
    expect((await read(channel.id)).topic).toBeNull();
  });
});

describe("the Permissions tab", () => {
  it("private for Moderator in one request: member loses the channel, mod keeps it", async () => {
    const channel = await create("private-tab");
    const { run } = as("mod", "user", replaceChannelOverwritesAction.definition);
    const overwrites = privateChannelOverwrites([], guildId, true, [server.world.roles.moderator]);
    expect(await run({ guildId, channelId: channel.id, purpose: "private", overwrites })).toMatchObject({ ok: true });
    expect((await server.api("member", "GET", `/channels/${channel.id}`)).status).toBe(403);
    expect((await server.api("mod", "GET", `/channels/${channel.id}`)).status).toBe(200);
  });

  it("bot mode: the moderator may not allow what they lack in the channel; the API is not called", async () => {
    const channel = await create("grant-tab");
    const { run, audit } = as("mod", "bot", editChannelPermissionAction.definition);
    const result = await run({
      guildId,
      channelId: channel.id,
      overwrite: { id: server.world.roles.helper, type: 0, allow: String(P.ManageWebhooks), deny: "0" },
    });
    expect(result).toMatchObject({ ok: false, status: 403 });
    expect(audit[0]).toMatchObject({ status: "error", httpStatus: 403 });
    expect((await read(channel.id)).permission_overwrites).toEqual([]);
    const allowed = await run({
      guildId,
      channelId: channel.id,
      overwrite: { id: server.world.roles.helper, type: 0, allow: String(P.AttachFiles), deny: "0" },
    });
    expect(allowed).toMatchObject({ ok: true });
    expect((await read(channel.id)).permission_overwrites).toEqual([
      { id: server.world.roles.helper, type: 0, allow: String(P.AttachFiles), deny: "0" },
    ]);
  });

  it("bot mode: bits the moderator lacks that an overwrite already holds don't block changing the others", async () => {
    const channel = await create("kept-bits-tab");
    // The owner allows Manage Webhooks (which moderators lack) to Helper.
    await server.api("owner", "PUT", `/channels/${channel.id}/permissions/${server.world.roles.helper}`, {
      type: 0,
      allow: String(P.ManageWebhooks),
    });
    const { run } = as("mod", "bot", editChannelPermissionAction.definition);
    const overwrite = (allow: bigint) => ({
      id: server.world.roles.helper,
      type: 0 as const,
      allow: String(allow),
      deny: "0",
    });
    expect(
      await run({ guildId, channelId: channel.id, overwrite: overwrite(P.ManageWebhooks | P.AttachFiles) }),
    ).toMatchObject({ ok: true });
    // Taking Manage Webhooks away changes a bit the moderator lacks: refused, as the API would.
    expect(await run({ guildId, channelId: channel.id, overwrite: overwrite(P.AttachFiles) })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect((await read(channel.id)).permission_overwrites[0].allow).toBe(String(P.ManageWebhooks | P.AttachFiles));
  });
});

describe("the Delete tab", () => {
  it("deletes only when the typed name matches", async () => {
    const channel = await create("delete-tab");
    const { run } = as("mod", "user", deleteChannelAction.definition);
    expect(await run({ guildId, channelId: channel.id, confirmName: "delete-tabs" })).toMatchObject({
      ok: false,
      fieldErrors: { confirmName: ["Doesn't match the channel's name."] },
    });
    expect((await server.api("bot", "GET", `/channels/${channel.id}`)).status).toBe(200);
    expect(await run({ guildId, channelId: channel.id, confirmName: "delete-tab" })).toMatchObject({ ok: true });
    expect((await server.api("bot", "GET", `/channels/${channel.id}`)).status).toBe(404);
  });
});

describe("the create dialog", () => {
  it("a private channel is created with its overwrites: never visible to @everyone", async () => {
    const { run } = as("mod", "user", createGuildChannelAction.definition);
    const result = await run({
      guildId,
      type: 0,
      name: "Born Private",
      private: true,
      private_role_ids: [server.world.roles.moderator],
    });
    expect(result).toMatchObject({ ok: true, data: { name: "born-private" } });
    const id = (result as { data: { id: string } }).data.id;
    expect((await server.api("member", "GET", `/channels/${id}`)).status).toBe(403);
    expect((await read(id)).permission_overwrites).toEqual([
      { id: guildId, type: 0, allow: "0", deny: String(P.ViewChannel) },
      { id: server.world.roles.moderator, type: 0, allow: String(P.ViewChannel), deny: "0" },
    ]);
  });
});

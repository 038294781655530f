// What the dashboard's channel settings, permission editor and order editors rely on, through @discordjs/rest as a
// bot author would call it, against the OpenAPI oracle: names as Discord stores them, a channel made private and
// synced with its category (events, audit entries, and what members can then see), "cannot grant what you lack",
// deleting a category, and moving a managed role (the owner and anyone above it may; nobody below it).
import { beforeAll, describe, expect, test } from "vitest";
import { DiscordAPIError } from "@discordjs/rest";
import { PermissionFlagsBits as P, Routes, type APIGuildChannel, type APIRole } from "discord-api-types/v10";
import { testServerForFile } from "../harness";
import { eventsSince, lastEventId } from "./read-back";
import { expectOperationResponse } from "../openapi";

const server = testServerForFile();
let hq: string;
beforeAll(() => {
  hq = server.world.guildId;
});

type Channel = APIGuildChannel & {
  permission_overwrites: Array<{ id: string; type: number; allow: string; deny: string }>;
};
const rest = (as: string) => server.rest(as);
const create = async (body: Record<string, unknown>, as = "mod") =>
  (await rest(as).post(Routes.guildChannels(hq), { body })) as Channel;
const get = async (id: string, as = "mod") => (await rest(as).get(Routes.channel(id))) as Channel;
const refusal = async (promise: Promise<unknown>) => {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DiscordAPIError) return { status: error.status, code: error.code };
    throw error;
  }
  throw new Error("expected the API to refuse");
};
async function audit(actionType: number, targetId: string) {
  const log = (await rest("owner").get(Routes.guildAuditLog(hq), {
    query: new URLSearchParams({ action_type: String(actionType), limit: "100" }),
  })) as { audit_log_entries: Array<{ target_id: string; user_id: string; reason?: string; options?: unknown }> };
  return log.audit_log_entries.filter((entry) => entry.target_id === targetId);
}

describe("names as Discord stores them", () => {
  test("text, announcement, forum and media names are lowercased, dashed and collapsed; voice and categories keep theirs", async () => {
    const cases: Array<[number, string, string]> = [
      [0, "Hello World", "hello-world"],
      [5, "Big - News", "big-news"],
      [15, "Ask  Here", "ask-here"],
      [16, "Fan Art", "fan-art"],
      [2, "Quiet Room", "Quiet Room"],
      [4, "Team Zone", "Team Zone"],
    ];
    for (const [type, name, stored] of cases) {
      const channel = await create({ name, type });
      expectOperationResponse("POST", "/guilds/{guild_id}/channels", 201, channel);
      expect(channel.name).toBe(stored);
    }
  });
});

describe("a private channel, and syncing with the category", () => {
  test("deny View Channel to @everyone, allow Moderator: members lose it, moderators keep it; events and audit entries", async () => {
    const channel = await create({ name: "secret-plans", parent_id: server.world.channels.Community });
    expect(await get(channel.id, "member")).toMatchObject({ id: channel.id });
    const after = await lastEventId();
    // Moderator first: a moderator who sees the channel only through @everyone would lock itself out otherwise.
    await rest("mod").put(Routes.channelPermission(channel.id, server.world.roles.moderator), {
      body: { type: 0, allow: String(P.ViewChannel), deny: "0" },
      reason: "private",
    });
    await rest("mod").put(Routes.channelPermission(channel.id, hq), {
      body: { type: 0, allow: "0", deny: String(P.ViewChannel) },
      reason: "private",
    });
    expect(await refusal(get(channel.id, "member"))).toEqual({ status: 403, code: 50001 });
    const read = await get(channel.id, "mod");
    expectOperationResponse("GET", "/channels/{channel_id}", 200, read);
    expect(read.permission_overwrites).toEqual([
      { id: server.world.roles.moderator, type: 0, allow: String(P.ViewChannel), deny: "0" },
      { id: hq, type: 0, allow: "0", deny: String(P.ViewChannel) },
    ]);
    const fired = await eventsSince(after);
    expect(fired.map((e) => e.type)).toEqual(["CHANNEL_UPDATE", "CHANNEL_UPDATE"]);
    expect(fired[1].d).toEqual(read);
    const created = await audit(13, channel.id); // CHANNEL_OVERWRITE_CREATE
    expect(created).toHaveLength(2);
    expect(created.every((e) => e.reason === "private" && e.user_id === server.world.users.mod)).toBe(true);
  });

  test("one Modify Channel with the whole list makes a channel private at once; denying @everyone alone locks a moderator out", async () => {
    const channel = await create({ name: "at-once" });
    await rest("mod").patch(Routes.channel(channel.id), {
      body: {
        permission_overwrites: [
          { id: hq, type: 0, deny: String(P.ViewChannel) },
          { id: server.world.roles.moderator, type: 0, allow: String(P.ViewChannel) },
        ],
      },
    });
    expect(await refusal(get(channel.id, "member"))).toEqual({ status: 403, code: 50001 });
    expect(await get(channel.id, "mod")).toMatchObject({ id: channel.id });
    const other = await create({ name: "lock-out" });
    await rest("mod").put(Routes.channelPermission(other.id, hq), {
      body: { type: 0, allow: "0", deny: String(P.ViewChannel) },
    });
    expect(await refusal(get(other.id, "mod"))).toEqual({ status: 403, code: 50001 });
  });

  test("Sync now: the category's overwrites replace the channel's (Modify Channel), one audit entry per change", async () => {
    const staff = server.world.channels.Staff;
    const category = await get(staff);
    const channel = await create({ name: "out-of-sync", parent_id: staff });
    // Created without overwrites, so it is out of sync with Staff (which hides itself from @everyone).
    expect(channel.permission_overwrites).toEqual([]);
    const after = await lastEventId();
    const synced = (await rest("mod").patch(Routes.channel(channel.id), {
      body: { permission_overwrites: category.permission_overwrites },
      reason: "sync",
    })) as Channel;
    expectOperationResponse("PATCH", "/channels/{channel_id}", 200, synced);
    expect(synced.permission_overwrites).toEqual(category.permission_overwrites);
    expect(await eventsSince(after)).toEqual([{ type: "CHANNEL_UPDATE", d: synced }]);
    expect(await audit(13, channel.id)).toHaveLength(category.permission_overwrites.length);
    expect(await refusal(get(channel.id, "member"))).toEqual({ status: 403, code: 50001 });
  });

  test("cannot grant what you lack: the moderator may not allow Administrator-only bits; nothing changes", async () => {
    const channel = await create({ name: "no-escalation" });
    // Moderators hold neither Manage Webhooks nor Administrator; the API judges only the bits that change.
    expect((BigInt(await moderatorPermissions()) & P.ManageWebhooks) === 0n).toBe(true);
    const after = await lastEventId();
    expect(
      await refusal(
        rest("mod").put(Routes.channelPermission(channel.id, server.world.roles.helper), {
          body: { type: 0, allow: String(P.ManageWebhooks), deny: "0" },
        }),
      ),
    ).toEqual({ status: 403, code: 50013 });
    expect(
      await refusal(
        rest("mod").patch(Routes.channel(channel.id), {
          body: {
            permission_overwrites: [{ id: server.world.roles.helper, type: 0, allow: String(P.ManageWebhooks) }],
          },
        }),
      ),
    ).toEqual({ status: 403, code: 50013 });
    expect((await get(channel.id)).permission_overwrites).toEqual([]);
    expect(await eventsSince(after)).toEqual([]);
    // Helper lacks Manage Roles altogether.
    expect(
      await refusal(
        rest("helper").put(Routes.channelPermission(channel.id, hq), { body: { type: 0, allow: "0", deny: "0" } }),
      ),
    ).toEqual({ status: 403, code: 50013 });
    // The owner may grant anything.
    await rest("owner").put(Routes.channelPermission(channel.id, server.world.roles.helper), {
      body: { type: 0, allow: String(P.ManageWebhooks), deny: "0" },
    });
    expect((await get(channel.id)).permission_overwrites).toHaveLength(1);
  });

  test("topic and slowmode change alone (only the fields sent), with the reason in the audit log", async () => {
    const channel = await create({ name: "tidy-me", topic: "old", nsfw: true });
    const edited = (await rest("mod").patch(Routes.channel(channel.id), {
      body: { topic: "new topic", rate_limit_per_user: 30 },
      reason: "settings",
    })) as Channel & { topic: string; rate_limit_per_user: number; nsfw: boolean };
    expect(edited).toMatchObject({ topic: "new topic", rate_limit_per_user: 30, nsfw: true, name: "tidy-me" });
    const [entry] = await audit(11, channel.id); // CHANNEL_UPDATE
    expect(entry).toMatchObject({ reason: "settings", user_id: server.world.users.mod });
  });
});

describe("deleting a category", () => {
  test("its channels stay, without a parent", async () => {
    const category = await create({ name: "Short Lived", type: 4 });
    const child = await create({ name: "orphan", parent_id: category.id });
    const deleted = (await rest("mod").delete(Routes.channel(category.id), { reason: "cleanup" })) as Channel;
    expectOperationResponse("DELETE", "/channels/{channel_id}", 200, deleted);
    expect(await get(child.id)).toMatchObject({ id: child.id, parent_id: null });
    expect(await refusal(get(category.id))).toEqual({ status: 404, code: 10003 });
  });
});

describe("moving a managed role", () => {
  const roles = async () => (await rest("owner").get(Routes.guildRoles(hq))) as APIRole[];
  const rank = async (name: string) => (await roles()).find((r) => r.name === name)!.position;

  test("the owner moves the bot's role; an administrator above it moves it back; a moderator below it may not", async () => {
    const bot = server.world.roles.bot;
    expect((await roles()).find((r) => r.id === bot)).toMatchObject({ managed: true, position: 5 });
    const moved = (await rest("owner").patch(Routes.guildRoles(hq), { body: [{ id: bot, position: 3 }] })) as APIRole[];
    expectOperationResponse("PATCH", "/guilds/{guild_id}/roles", 200, moved);
    expect(await rank("Guildhall Demo")).toBe(3);
    expect(await rank("Moderator")).toBe(5);
    // The moderator is now above the bot's role: Discord lets it move the role, within its own.
    await rest("mod").patch(Routes.guildRoles(hq), { body: [{ id: bot, position: 2 }] });
    expect(await rank("Guildhall Demo")).toBe(2);
    await rest("admin").patch(Routes.guildRoles(hq), { body: [{ id: bot, position: 5 }] });
    expect(await rank("Guildhall Demo")).toBe(5);
    expect(await refusal(rest("mod").patch(Routes.guildRoles(hq), { body: [{ id: bot, position: 1 }] }))).toEqual({
      status: 403,
      code: 50013,
    });
    expect(await rank("Guildhall Demo")).toBe(5);
  });
});

async function moderatorPermissions(): Promise<string> {
  return ((await rest("owner").get(Routes.guildRole(hq, server.world.roles.moderator))) as APIRole).permissions;
}

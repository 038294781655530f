// discord.js 14 against a harness server, pointed at Guildhall by `rest.api` only: a Client with its REST managers
// and structures, the bot token set on client.rest, no gateway. Every guild-management operation the managers offer,
// each confirmed by a second read (a forced fetch, or raw HTTP where discord.js would answer from its cache).
import {
  AutoModerationActionType,
  AutoModerationRuleEventType,
  AutoModerationRuleTriggerType,
  ChannelType,
  Client,
  GuildScheduledEventEntityType,
  GuildScheduledEventPrivacyLevel,
  GuildScheduledEventStatus,
  ClientUser,
  GatewayIntentBits,
  OverwriteType,
  PermissionFlagsBits,
  Routes,
  type CategoryChannel,
  type Guild,
  type GuildScheduledEvent,
  type TextChannel,
} from "discord.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../integration/harness";
import { silentMp3, solidPng } from "@/lib/seed/media";

let server: TestServer;
let client: Client;
let guild: Guild;
const made: { text?: TextChannel; category?: CategoryChannel; roleId?: string; inviteCode?: string } = {};

/** Raw JSON read as the bot, independent of discord.js's cache. */
async function read<T>(route: string): Promise<T> {
  const response = await server.api("bot", "GET", route);
  expect(response.status, route).toBe(200);
  return (await response.json()) as T;
}

/** Seeded members without roles, which the bot (an administrator) outranks. */
async function plainMemberIds(): Promise<string[]> {
  const members = await read<Array<{ user: { id: string; username: string }; roles: string[] }>>(
    `/guilds/${guild.id}/members?limit=1000`,
  );
  return members.filter((m) => m.user.username.endsWith("_fox") && m.roles.length === 0).map((m) => m.user.id);
}

beforeAll(async () => {
  server = await startTestServer();
  client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
    rest: { api: `${server.baseUrl}/api`, retries: 0 },
  });
  client.rest.setToken(server.botToken);
  // What the gateway's READY would set: some managers compare ids with client.user (members.edit, members.me).
  const self = await client.rest.get(Routes.user());
  client.user = Reflect.construct(ClientUser, [client, self]) as ClientUser;
});
afterAll(async () => {
  await client?.destroy();
  await server?.close();
});

describe("discord.js 14 against Guildhall, by base URL only", () => {
  it("client.guilds.fetch", async () => {
    guild = await client.guilds.fetch({ guild: server.world.guildId, withCounts: true });
    expect(guild.name).toBe("Guildhall HQ");
    expect(guild.roles.cache.get(server.world.roles.bot)?.managed).toBe(true);
    expect(guild.approximateMemberCount).toBeGreaterThan(100);
  });

  it("guild.edit", async () => {
    const general = server.world.channels.general;
    await guild.edit({ name: "Guildhall HQ (js)", systemChannel: general, afkTimeout: 900, reason: "js check" });
    const again = await read<{ name: string; system_channel_id: string; afk_timeout: number }>(`/guilds/${guild.id}`);
    expect(again).toMatchObject({ name: "Guildhall HQ (js)", system_channel_id: general, afk_timeout: 900 });
    await guild.edit({ name: "Guildhall HQ" });
  });

  it("guild.channels.fetch: every channel, the media channel included", async () => {
    const channels = await guild.channels.fetch();
    const raw = await read<Array<{ id: string; type: number }>>(`/guilds/${guild.id}/channels`);
    expect([...channels.keys()].sort()).toEqual(raw.map((c) => c.id).sort());
    expect(channels.get(server.world.channels.art)?.type).toBe(ChannelType.GuildMedia);
  });

  it("guild.channels.create: text, voice, category, forum, stage, announcement, media", async () => {
    made.category = await guild.channels.create({ name: "JS Category", type: ChannelType.GuildCategory });
    made.text = await guild.channels.create({
      name: "JS Check",
      type: ChannelType.GuildText,
      topic: "made by discord.js",
      parent: made.category,
      permissionOverwrites: [{ id: server.world.roles.member, deny: [PermissionFlagsBits.SendMessages] }],
    });
    const types = [
      ChannelType.GuildVoice,
      ChannelType.GuildForum,
      ChannelType.GuildStageVoice,
      ChannelType.GuildAnnouncement,
      ChannelType.GuildMedia,
    ] as const;
    const others = await Promise.all(
      types.map((type) => guild.channels.create({ name: `JS ${type}`, type, parent: made.category })),
    );
    const again = await client.channels.fetch(made.text.id, { force: true });
    expect(again).toMatchObject({ name: "js-check", topic: "made by discord.js", parentId: made.category.id });
    expect((again as TextChannel).permissionOverwrites.cache.get(server.world.roles.member)?.deny.toArray()).toEqual([
      "SendMessages",
    ]);
    const raw = await read<Array<{ id: string; type: number; parent_id: string | null }>>(
      `/guilds/${guild.id}/channels`,
    );
    for (const channel of others) expect(raw.find((c) => c.id === channel.id)?.parent_id).toBe(made.category.id);
    expect(others.map((c) => c.type)).toEqual([2, 15, 13, 5, 16]);
  });

  it("guild.channels.edit and channel.edit", async () => {
    await guild.channels.edit(made.text!, { name: "JS Renamed", topic: "edited", nsfw: true, rateLimitPerUser: 30 });
    const again = await read<Record<string, unknown>>(`/channels/${made.text!.id}`);
    expect(again).toMatchObject({ name: "js-renamed", topic: "edited", nsfw: true, rate_limit_per_user: 30 });
    await made.text!.edit({ parent: null, lockPermissions: false });
    expect((await read<{ parent_id: string | null }>(`/channels/${made.text!.id}`)).parent_id).toBeNull();
  });

  it("guild.channels.setPosition and setPositions", async () => {
    await guild.channels.setPositions([{ channel: made.text!, position: 0, parent: made.category!.id }]);
    const again = await read<{ position: number; parent_id: string }>(`/channels/${made.text!.id}`);
    expect(again).toMatchObject({ position: 0, parent_id: made.category!.id });
    // setPosition reorders discord.js's cached siblings; without the gateway, refresh the moved channel first.
    await client.channels.fetch(made.text!.id, { force: true });
    await guild.channels.setPosition(made.text!, 1, { relative: false });
    expect((await read<{ position: number }>(`/channels/${made.text!.id}`)).position).toBe(1);
  });

  it("channel.permissionOverwrites.edit, create and delete", async () => {
    const overwrites = made.text!.permissionOverwrites;
    await overwrites.edit(server.world.roles.helper, { ViewChannel: false }, { type: OverwriteType.Role });
    await overwrites.create(await client.users.fetch(server.world.users.member), { AddReactions: true });
    let raw = await read<{ permission_overwrites: Array<{ id: string; type: number; allow: string; deny: string }> }>(
      `/channels/${made.text!.id}`,
    );
    expect(raw.permission_overwrites).toEqual(
      expect.arrayContaining([
        { id: server.world.roles.helper, type: 0, allow: "0", deny: String(PermissionFlagsBits.ViewChannel) },
        { id: server.world.users.member, type: 1, allow: String(PermissionFlagsBits.AddReactions), deny: "0" },
      ]),
    );
    await overwrites.delete(server.world.users.member);
    raw = await read(`/channels/${made.text!.id}`);
    expect(raw.permission_overwrites.map((o) => o.id)).not.toContain(server.world.users.member);
  });

  it("guild.invites.create, fetch (guild and channel), and delete", async () => {
    const invite = await guild.invites.create(made.text!, { maxAge: 3600, maxUses: 3, reason: "js" });
    made.inviteCode = invite.code;
    expect((await guild.invites.fetch()).has(invite.code)).toBe(true);
    expect((await guild.invites.fetch({ channelId: made.text!.id })).map((i) => i.code)).toEqual([invite.code]);
    const fetched = await client.fetchInvite(invite.code);
    expect(fetched.guild?.id).toBe(guild.id);
    await guild.invites.delete(invite.code, "js");
    expect((await server.api("bot", "GET", `/invites/${invite.code}`)).status).toBe(404);
  });

  it("guild.channels.delete: a category's children lose their parent", async () => {
    const children = (await read<Array<{ id: string; parent_id: string | null }>>(`/guilds/${guild.id}/channels`))
      .filter((c) => c.parent_id === made.category!.id)
      .map((c) => c.id);
    expect(children.length).toBeGreaterThan(0);
    await guild.channels.delete(made.category!, "js cleanup");
    expect((await server.api("bot", "GET", `/channels/${made.category!.id}`)).status).toBe(404);
    const raw = await read<Array<{ id: string; parent_id: string | null }>>(`/guilds/${guild.id}/channels`);
    for (const id of children) expect(raw.find((c) => c.id === id)?.parent_id).toBeNull();
    for (const id of children) await guild.channels.delete(id);
    const left = await read<Array<{ id: string }>>(`/guilds/${guild.id}/channels`);
    expect(left.filter((c) => children.includes(c.id))).toEqual([]);
  });

  it("guild.members.list (REST; members.fetch() without ids needs the gateway) and members.fetch(id)", async () => {
    const listed = await guild.members.list({ limit: 1000 });
    const counted = await client.guilds.fetch({ guild: guild.id, withCounts: true, force: true });
    expect(listed.size).toBe(counted.approximateMemberCount);
    const member = await guild.members.fetch({ user: server.world.users.member, force: true });
    expect(member.user.username).toBe("member");
  });

  it("guild.members.edit: nick, roles, timeout", async () => {
    const { member: memberId } = server.world.users;
    const { member, regular } = server.world.roles;
    await guild.members.edit(memberId, { nick: "JS Nick", roles: [member, regular], reason: "js" });
    let raw = await read<{ nick: string | null; roles: string[]; communication_disabled_until: string | null }>(
      `/guilds/${guild.id}/members/${memberId}`,
    );
    expect(raw.nick).toBe("JS Nick");
    expect(raw.roles.sort()).toEqual([member, regular].sort());
    const fetched = await guild.members.fetch({ user: memberId, force: true });
    await fetched.timeout(10 * 60_000, "js");
    raw = await read(`/guilds/${guild.id}/members/${memberId}`);
    expect(Date.parse(raw.communication_disabled_until!)).toBeGreaterThan(Date.now());
    await fetched.timeout(null);
    await guild.members.edit(memberId, { nick: null, roles: [member] });
    raw = await read(`/guilds/${guild.id}/members/${memberId}`);
    expect(raw).toMatchObject({ nick: null, roles: [member], communication_disabled_until: null });
  });

  it("guild.members.addRole and removeRole", async () => {
    const { helper } = server.world.users;
    await guild.members.addRole({ user: helper, role: server.world.roles.regular, reason: "js" });
    expect((await read<{ roles: string[] }>(`/guilds/${guild.id}/members/${helper}`)).roles).toContain(
      server.world.roles.regular,
    );
    await guild.members.removeRole({ user: helper, role: server.world.roles.regular });
    expect((await read<{ roles: string[] }>(`/guilds/${guild.id}/members/${helper}`)).roles).not.toContain(
      server.world.roles.regular,
    );
  });

  it("guild.members.kick", async () => {
    const [victim] = await plainMemberIds();
    await guild.members.kick(victim, "js");
    expect((await server.api("bot", "GET", `/guilds/${guild.id}/members/${victim}`)).status).toBe(404);
  });

  it("guild.bans.create, fetch (one and all), remove; guild.members.ban and unban", async () => {
    const [first, second] = await plainMemberIds();
    await guild.bans.create(first, { reason: "js ban", deleteMessageSeconds: 0 });
    await guild.members.ban(second, { reason: "js ban 2" });
    expect((await guild.bans.fetch({ user: first, force: true })).reason).toBe("js ban");
    const all = await guild.bans.fetch({ limit: 1000 });
    expect(all.has(first) && all.has(second)).toBe(true);
    await guild.bans.remove(first, "js");
    await guild.members.unban(second);
    for (const id of [first, second])
      expect((await server.api("bot", "GET", `/guilds/${guild.id}/bans/${id}`)).status).toBe(404);
  });

  it("guild.bans.bulkCreate", async () => {
    const victims = (await plainMemberIds()).slice(0, 3);
    const result = await guild.bans.bulkCreate(victims, { deleteMessageSeconds: 60, reason: "js bulk" });
    expect([...result.bannedUsers].sort()).toEqual([...victims].sort());
    expect(result.failedUsers).toEqual([]);
    const bans = await read<Array<{ user: { id: string } }>>(`/guilds/${guild.id}/bans`);
    expect(victims.every((id) => bans.some((b) => b.user.id === id))).toBe(true);
  });

  it("bulk ban by raw HTTP: banned and failed users", async () => {
    const victims = (await plainMemberIds()).slice(0, 2);
    const response = await server.api("bot", "POST", `/guilds/${guild.id}/bulk-ban`, {
      user_ids: [...victims, server.world.users.owner],
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { banned_users: string[]; failed_users: string[] };
    expect(body.banned_users.sort()).toEqual([...victims].sort());
    expect(body.failed_users).toEqual([server.world.users.owner]);
    for (const id of victims)
      expect((await server.api("bot", "GET", `/guilds/${guild.id}/bans/${id}`)).status).toBe(200);
  });

  it("guild.members.prune: dry run, then prune", async () => {
    const estimate = await guild.members.prune({ days: 30, dry: true });
    const raw = await read<{ pruned: number }>(`/guilds/${guild.id}/prune?days=30`);
    expect(estimate).toBe(raw.pruned);
    expect(await guild.members.prune({ days: 30, reason: "js" })).toBe(estimate);
    expect((await read<{ pruned: number }>(`/guilds/${guild.id}/prune?days=30`)).pruned).toBe(0);
    expect(await guild.members.prune({ days: 30, count: false })).toBeNull();
  });

  it("guild.roles.create, edit, setPosition(s), fetch, delete", async () => {
    const role = await guild.roles.create({
      name: "JS Role",
      color: 0x3366ff,
      hoist: true,
      permissions: [PermissionFlagsBits.ManageMessages],
      reason: "js",
    });
    made.roleId = role.id;
    await guild.roles.edit(role, { name: "JS Role 2", mentionable: true });
    let raw = await read<Array<{ id: string; name: string; position: number; mentionable: boolean }>>(
      `/guilds/${guild.id}/roles`,
    );
    expect(raw.find((r) => r.id === role.id)).toMatchObject({ name: "JS Role 2", mentionable: true });
    await guild.roles.setPositions([{ role: role.id, position: 2 }]);
    raw = await read(`/guilds/${guild.id}/roles`);
    expect(raw.find((r) => r.id === role.id)?.position).toBe(2);
    await guild.roles.setPosition(role.id, 3);
    raw = await read(`/guilds/${guild.id}/roles`);
    expect(raw.find((r) => r.id === role.id)?.position).toBe(3);
    expect((await guild.roles.fetch(role.id, { force: true }))?.name).toBe("JS Role 2");
    await guild.roles.delete(role.id, "js");
    raw = await read(`/guilds/${guild.id}/roles`);
    expect(raw.some((r) => r.id === role.id)).toBe(false);
  });

  it("guild.fetchIntegrations", async () => {
    const integrations = await guild.fetchIntegrations();
    const bot = integrations.find((i) => i.type === "discord");
    expect(bot?.application?.id).toBe(server.world.applicationId);
    expect(integrations.size).toBe((await read<unknown[]>(`/guilds/${guild.id}/integrations`)).length);
  });

  it("guild.fetchVanityData, and the vanity code as an invite", async () => {
    const vanity = await guild.fetchVanityData();
    expect(vanity.code).toBe("guildhall");
    const invite = await client.fetchInvite(vanity.code!);
    expect(invite.guild?.id).toBe(guild.id);
    expect(invite.channelId).toBe(server.world.channels.rules);
  });

  it("guild.setWidgetSettings, fetchWidgetSettings, fetchWidget", async () => {
    await guild.setWidgetSettings({ enabled: true, channel: server.world.channels.general }, "js");
    const settings = await guild.fetchWidgetSettings();
    expect(settings).toMatchObject({ enabled: true, channel: { id: server.world.channels.general } });
    const widget = await guild.fetchWidget();
    expect(widget.name).toBe("Guildhall HQ");
    expect(widget.instantInvite).toMatch(/\/invite\//);
  });

  it("guild.fetchWelcomeScreen and editWelcomeScreen", async () => {
    const rules = server.world.channels.rules;
    await guild.editWelcomeScreen({
      enabled: true,
      description: "Welcome, says discord.js",
      welcomeChannels: [{ channel: rules, description: "Read the rules", emoji: "📜" }],
    });
    const screen = await guild.fetchWelcomeScreen();
    expect(screen.description).toBe("Welcome, says discord.js");
    expect([...screen.welcomeChannels.keys()]).toEqual([rules]);
  });

  it("guild.autoModerationRules: create, fetch, edit, setKeywordFilter, setEnabled, delete", async () => {
    const rule = await guild.autoModerationRules.create({
      name: "JS words",
      eventType: AutoModerationRuleEventType.MessageSend,
      triggerType: AutoModerationRuleTriggerType.Keyword,
      triggerMetadata: { keywordFilter: ["cat*"], regexPatterns: ["d[o0]g"], allowList: ["catalog"] },
      actions: [
        { type: AutoModerationActionType.BlockMessage, metadata: { customMessage: "Not here." } },
        { type: AutoModerationActionType.SendAlertMessage, metadata: { channel: server.world.channels.general } },
      ],
      exemptRoles: [server.world.roles.helper],
      enabled: true,
      reason: "js automod",
    });
    expect(rule.triggerMetadata.keywordFilter).toEqual(["cat*"]);
    expect(rule.actions.map((action) => action.type)).toEqual([1, 2]);
    expect(rule.actions[1].metadata.channelId).toBe(server.world.channels.general);
    expect([...rule.exemptRoles.keys()]).toEqual([server.world.roles.helper]);

    const fetched = await guild.autoModerationRules.fetch({ autoModerationRule: rule.id, force: true });
    expect(fetched.name).toBe("JS words");
    await fetched.setKeywordFilter(["cat*", "*mouse"]);
    await fetched.setEnabled(false);
    await guild.autoModerationRules.edit(rule.id, { name: "JS words, edited" });
    const all = await guild.autoModerationRules.fetch({ cache: false });
    const again = all.get(rule.id)!;
    expect(again).toMatchObject({ name: "JS words, edited", enabled: false });
    expect(again.triggerMetadata.keywordFilter).toEqual(["cat*", "*mouse"]);
    expect(again.triggerMetadata.regexPatterns).toEqual(["d[o0]g"]);

    const refused = await guild.autoModerationRules
      .create({
        name: "JS bad regex",
        eventType: AutoModerationRuleEventType.MessageSend,
        triggerType: AutoModerationRuleTriggerType.Keyword,
        triggerMetadata: { regexPatterns: ["(a)\\1"] },
        actions: [{ type: AutoModerationActionType.BlockMessage }],
      })
      .catch((error: unknown) => error as { code: number; message: string });
    expect(refused).toMatchObject({ code: 50035 });
    expect((refused as { message: string }).message).toContain("AUTO_MODERATION_INVALID_REGEX");

    await guild.autoModerationRules.delete(rule.id, "js cleanup");
    expect((await read<unknown[]>(`/guilds/${guild.id}/auto-moderation/rules`)).length).toBe(0);
  });
  it("guild.emojis: create (several formats), fetch, edit, fetchAuthor, delete", async () => {
    const emoji = await guild.emojis.create({ attachment: solidPng(64, 64), name: "js_emoji", reason: "js emoji" });
    expect(emoji).toMatchObject({ name: "js_emoji", animated: false });
    const animated = await guild.emojis.create({ attachment: solidPng(32, 32, 1, { frames: 2 }), name: "js_blink" });
    expect(animated.animated).toBe(true);
    const fetched = await guild.emojis.fetch(emoji.id, { force: true });
    expect(fetched.name).toBe("js_emoji");
    await guild.emojis.edit(emoji.id, { name: "js_renamed", roles: [server.world.roles.regular] });
    const all = await guild.emojis.fetch(undefined, { force: true });
    expect(all.get(emoji.id)?.name).toBe("js_renamed");
    expect([...all.get(emoji.id)!.roles.cache.keys()]).toEqual([server.world.roles.regular]);
    // fetchAuthor needs the bot's member (discord.js checks its permissions first).
    await guild.members.fetchMe();
    expect((await guild.emojis.fetchAuthor(emoji.id)).id).toBe(server.world.botUserId);
    const refused = await guild.emojis
      .create({ attachment: Buffer.from("not an image"), name: "js_bad" })
      .catch((error: unknown) => error as { code?: number; message: string });
    expect(refused).toBeInstanceOf(Error);
    for (const id of [emoji.id, animated.id]) await guild.emojis.delete(id, "js cleanup");
    const names = (await read<Array<{ name: string }>>(`/guilds/${guild.id}/emojis`)).map((e) => e.name);
    expect(names).not.toContain("js_renamed");
  });

  it("guild.stickers: create (multipart), fetch, edit, fetchUser, delete", async () => {
    const sticker = await guild.stickers.create({
      file: { attachment: solidPng(320, 320), name: "js.png" },
      name: "JS Sticker",
      tags: "wave",
      description: "made by discord.js",
      reason: "js sticker",
    });
    expect(sticker).toMatchObject({ name: "JS Sticker", tags: "wave", format: 1, guildId: guild.id });
    const fetched = await guild.stickers.fetch(sticker.id, { force: true });
    expect(fetched.description).toBe("made by discord.js");
    await guild.stickers.edit(sticker.id, { name: "JS Sticker 2", description: "edited" });
    const all = await guild.stickers.fetch(undefined, { force: true });
    expect(all.get(sticker.id)).toMatchObject({ name: "JS Sticker 2", description: "edited" });
    expect((await guild.stickers.fetchUser(sticker))?.id).toBe(server.world.botUserId);
    await guild.stickers.delete(sticker.id, "js cleanup");
    const raw = await read<Array<{ id: string }>>(`/guilds/${guild.id}/stickers`);
    expect(raw.map((s) => s.id)).not.toContain(sticker.id);
  });

  it("guild.soundboardSounds: create, fetch, edit, delete", async () => {
    const sound = await guild.soundboardSounds.create({
      file: silentMp3(40),
      contentType: "audio/mpeg",
      name: "js sound",
      volume: 0.4,
      emojiName: "🔔",
    });
    expect(sound).toMatchObject({ name: "js sound", volume: 0.4, guildId: guild.id });
    expect(sound.emoji?.name).toBe("🔔");
    const fetched = await guild.soundboardSounds.fetch({ soundboardSound: sound.soundId, force: true });
    expect(fetched.name).toBe("js sound");
    await guild.soundboardSounds.edit(sound.soundId, { name: "js sound 2", volume: 1 });
    const all = await guild.soundboardSounds.fetch();
    expect(all.get(sound.soundId)).toMatchObject({ name: "js sound 2", volume: 1 });
    await guild.soundboardSounds.delete(sound.soundId);
    const raw = await read<{ items: Array<{ sound_id: string }> }>(`/guilds/${guild.id}/soundboard-sounds`);
    expect(raw.items.map((s) => s.sound_id)).not.toContain(sound.soundId);
  });

  it("guild.scheduledEvents: create, fetch, edit, setStatus, fetchSubscribers, delete", async () => {
    const start = new Date(Date.now() + 48 * 3_600_000);
    const event = await guild.scheduledEvents.create({
      name: "JS meetup",
      scheduledStartTime: start,
      scheduledEndTime: new Date(start.getTime() + 3_600_000),
      privacyLevel: GuildScheduledEventPrivacyLevel.GuildOnly,
      entityType: GuildScheduledEventEntityType.External,
      entityMetadata: { location: "The library" },
      description: "Made by discord.js",
      reason: "js event",
    });
    expect(event).toMatchObject({ name: "JS meetup", status: GuildScheduledEventStatus.Scheduled, channelId: null });
    expect(event.entityMetadata?.location).toBe("The library");
    expect(event.scheduledStartTimestamp).toBe(start.getTime());

    const onStage = await guild.scheduledEvents.create({
      name: "JS stage",
      scheduledStartTime: start,
      privacyLevel: GuildScheduledEventPrivacyLevel.GuildOnly,
      entityType: GuildScheduledEventEntityType.StageInstance,
      channel: server.world.channels["Town Hall"],
    });
    expect(onStage.channelId).toBe(server.world.channels["Town Hall"]);

    const fetched = await guild.scheduledEvents.fetch({
      guildScheduledEvent: event.id,
      force: true,
      withUserCount: true,
    });
    expect(fetched.userCount).toBe(0);
    const all = await guild.scheduledEvents.fetch({ cache: false, withUserCount: true });
    expect(all.get(event.id)?.name).toBe("JS meetup");
    expect(all.find((e) => e.name === "Monthly Town Hall")?.userCount).toBe(23);

    const edited = await guild.scheduledEvents.edit(event.id, { name: "JS meetup, edited" });
    expect(edited.name).toBe("JS meetup, edited");
    // Interest comes from a member's own token (Guildhall's PUT …/users/@me).
    const marked = await server.api("member", "PUT", `/guilds/${guild.id}/scheduled-events/${event.id}/users/@me`);
    expect(marked.status).toBe(204);
    const subscribers = await edited.fetchSubscribers({ withMember: true });
    expect([...subscribers.keys()]).toEqual([server.world.users.member]);
    expect(subscribers.first()?.member?.id).toBe(server.world.users.member);

    const scheduled = edited as unknown as GuildScheduledEvent<GuildScheduledEventStatus.Scheduled>;
    const active = (await scheduled.setStatus(
      GuildScheduledEventStatus.Active,
    )) as GuildScheduledEvent<GuildScheduledEventStatus.Active>;
    expect(active.status).toBe(GuildScheduledEventStatus.Active);
    const completed = await active.setStatus(GuildScheduledEventStatus.Completed);
    expect(completed.status).toBe(GuildScheduledEventStatus.Completed);
    const refused = await completed.setName("Too late").catch((error: unknown) => error as { code: number });
    expect(refused).toMatchObject({ code: 180000 });

    await guild.scheduledEvents.delete(event.id);
    await onStage.delete();
    const left = await read<Array<{ id: string }>>(`/guilds/${guild.id}/scheduled-events`);
    expect(left.map((e) => e.id)).not.toContain(event.id);
    expect(left.map((e) => e.id)).not.toContain(onStage.id);
  });
});

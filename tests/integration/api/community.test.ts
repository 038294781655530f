// Welcome screen, onboarding, incident actions and membership screening: fields, limits, permissions, events, audit.
import { describe, expect, test } from "vitest";
import { DiscordAPIError } from "@discordjs/rest";
import { Routes, type APIGuildWelcomeScreen } from "discord-api-types/v10";
import { auditSince, eventsSince, fail, lastAuditId, lastEventId } from "./read-back";
import { testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse } from "../openapi";

const server = testServerForFile();

const guild = () => server.world.guildId;
const channel = (name: string) => server.world.channels[name];
const features = async () =>
  JSON.parse(
    ((await sql.get("SELECT features FROM guilds WHERE id = ?", BigInt(guild()))) as { features: string }).features,
  ) as string[];
const setFeatures = async (list: string[]) =>
  await sql.run("UPDATE guilds SET features = ? WHERE id = ?", JSON.stringify(list), BigInt(guild()));
/** The `_errors` at a path of a 50035 error. */
function fieldErrors(
  error: DiscordAPIError | null,
  ...path: Array<string | number>
): Array<{ code: string; message: string }> {
  expect(error, "expected the request to fail").toBeInstanceOf(DiscordAPIError);
  expect(error!.code).toBe(50035);
  let node = (error!.rawError as { errors?: unknown }).errors as Record<string, unknown> | undefined;
  for (const key of path) node = node?.[String(key)] as Record<string, unknown> | undefined;
  return (node?._errors as Array<{ code: string; message: string }> | undefined) ?? [];
}
const emojiId = async (name: string) =>
  String(
    ((await sql.get("SELECT id FROM emojis WHERE guild_id = ? AND name = ?", BigInt(guild()), name)) as { id: bigint })
      .id,
  );

describe("Welcome screen", () => {
  type WelcomeScreen = APIGuildWelcomeScreen;
  const get = (as: string) => server.rest(as).get(Routes.guildWelcomeScreen(guild())) as Promise<WelcomeScreen>;
  const modify = (as: string, body: Record<string, unknown>, reason?: string) =>
    server.rest(as).patch(Routes.guildWelcomeScreen(guild()), { body, reason }) as Promise<WelcomeScreen>;
  const entry = (name: string, extra: Record<string, unknown> = {}) => ({
    channel_id: channel(name),
    description: `Visit ${name}`,
    emoji_name: "👋",
    ...extra,
  });

  test("any member reads the enabled welcome screen", async () => {
    const screen = await get("member");
    expectOperationResponse("GET", "/guilds/{guild_id}/welcome-screen", 200, screen);
    expect(screen.description).toMatch(/^Welcome to Guildhall HQ/);
    expect(screen.welcome_channels.map((c) => c.channel_id)).toEqual([
      channel("rules"),
      channel("general"),
      channel("help"),
    ]);
    expect(await fail(get("outsider"))).toMatchObject({ status: 403, code: 50001 });
  });

  test("Manage Server modifies it: five channels at most, descriptions, custom and unicode emojis; GUILD_UPDATE audit entry; no event while enabled stays", async () => {
    const since = await lastEventId();
    const audit = await lastAuditId();
    const five = [
      entry("rules"),
      entry("general", { emoji_id: await emojiId("party_blob"), emoji_name: "whatever" }),
      entry("help", { emoji_name: null }),
      entry("memes"),
      entry("Lounge"),
    ];
    const screen = await modify("mod", { description: "d".repeat(140), welcome_channels: five }, "refresh");
    expectOperationResponse("PATCH", "/guilds/{guild_id}/welcome-screen", 200, screen);
    expect(screen.description).toBe("d".repeat(140));
    expect(screen.welcome_channels).toHaveLength(5);
    // A custom emoji's name comes from the emoji, whatever the request said.
    expect(screen.welcome_channels[1]).toEqual({
      channel_id: channel("general"),
      description: "Visit general",
      emoji_id: await emojiId("party_blob"),
      emoji_name: "party_blob",
    });
    expect(screen.welcome_channels[2]).toMatchObject({ emoji_id: null, emoji_name: null });
    expect(await get("member")).toEqual(screen);
    expect(await eventsSince(since)).toEqual([]);
    const entries = await auditSince(guild(), audit);
    expect(entries).toMatchObject([{ action_type: 1n, user_id: BigInt(server.world.users.mod), reason: "refresh" }]);
    expect(
      JSON.parse(entries[0].changes!)
        .map((c: { key: string }) => c.key)
        .sort(),
    ).toEqual(["description", "welcome_channels"]);

    const six = await fail(modify("mod", { welcome_channels: [...five, entry("introductions")] }));
    expect(fieldErrors(six, "welcome_channels").map((e) => e.code)).toEqual(["BASE_TYPE_MAX_LENGTH"]);
    expect(
      fieldErrors(await fail(modify("mod", { description: "d".repeat(141) })), "description").map((e) => e.code),
    ).toEqual(["BASE_TYPE_MAX_LENGTH"]);
    expect(
      fieldErrors(
        await fail(modify("mod", { welcome_channels: [entry("rules", { description: "" })] })),
        "welcome_channels",
        0,
        "description",
      ),
    ).toHaveLength(1);
    expect(
      fieldErrors(
        await fail(modify("mod", { welcome_channels: [entry("rules", { description: "x".repeat(51) })] })),
        "welcome_channels",
        0,
        "description",
      ),
    ).toHaveLength(1);
    const refused = await fail(
      modify("mod", {
        welcome_channels: [
          entry("rules", { emoji_id: "123456789" }),
          { channel_id: "123456789", description: "nowhere" },
          entry("Information"),
          entry("help", { emoji_name: "smile" }),
        ],
      }),
    );
    expect(fieldErrors(refused, "welcome_channels", 0, "emoji_id").map((e) => e.code)).toEqual(["EMOJI_INVALID"]);
    expect(fieldErrors(refused, "welcome_channels", 1, "channel_id").map((e) => e.code)).toEqual(["CHANNEL_INVALID"]);
    expect(fieldErrors(refused, "welcome_channels", 2, "channel_id").map((e) => e.code)).toEqual(["CHANNEL_INVALID"]);
    expect(fieldErrors(refused, "welcome_channels", 3, "emoji_name").map((e) => e.code)).toEqual(["EMOJI_INVALID"]);
    expect(await get("member")).toEqual(screen);
  });

  test("disabling drops WELCOME_SCREEN_ENABLED (GUILD_UPDATE); then only Manage Server may read it; enabling needs COMMUNITY", async () => {
    const since = await lastEventId();
    await modify("mod", { enabled: false });
    expect(await features()).not.toContain("WELCOME_SCREEN_ENABLED");
    const fired = await eventsSince(since);
    expect(fired.map((e) => e.type)).toEqual(["GUILD_UPDATE"]);
    expect(fired[0].d).toMatchObject({ id: guild(), features: expect.not.arrayContaining(["WELCOME_SCREEN_ENABLED"]) });
    expect(await fail(get("member"))).toMatchObject({ status: 403, code: 50013 });
    expect(await get("mod")).toMatchObject({ welcome_channels: expect.any(Array) });
    // The invite's guild no longer carries it.
    expect(
      ((await server.rest("member").get(Routes.invite("hqwelcome"))) as { guild: Record<string, unknown> }).guild,
    ).not.toHaveProperty("welcome_screen");

    const community = await features();
    await setFeatures(community.filter((f) => f !== "COMMUNITY"));
    expect(fieldErrors(await fail(modify("mod", { enabled: true })), "enabled").map((e) => e.code)).toEqual([
      "GUILD_FEATURE_REQUIRED",
    ]);
    await setFeatures(community);
    const again = await lastEventId();
    await modify("mod", { enabled: true });
    expect(await features()).toContain("WELCOME_SCREEN_ENABLED");
    expect((await eventsSince(again)).map((e) => e.type)).toEqual(["GUILD_UPDATE"]);
    expect((await get("member")).welcome_channels).toHaveLength(5);
  });

  test("helper and member may not modify (50013), outsiders 50001", async () => {
    for (const who of ["helper", "member"])
      expect(await fail(modify(who, { description: "x" }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(modify("outsider", { description: "x" }))).toMatchObject({ status: 403, code: 50001 });
  });
});

describe("Onboarding", () => {
  type Option = {
    id: string;
    title: string;
    description: string;
    emoji: { id: string | null; name: string | null; animated: boolean };
    role_ids: string[];
    channel_ids: string[];
  };
  type Onboarding = {
    guild_id: string;
    enabled: boolean;
    mode: number;
    default_channel_ids: string[];
    prompts: Array<{ id: string; title: string; options: Option[]; in_onboarding: boolean }>;
  };
  const get = (as = "member") => server.rest(as).get(Routes.guildOnboarding(guild())) as Promise<Onboarding>;
  const put = (as: string, body: Record<string, unknown>, reason?: string) =>
    server.rest(as).put(Routes.guildOnboarding(guild()), { body, reason }) as Promise<Onboarding>;
  const ids = (...names: string[]) => names.map(channel);

  test("any member reads it; options carry an emoji object", async () => {
    const onboarding = await get();
    expectOperationResponse("GET", "/guilds/{guild_id}/onboarding", 200, onboarding);
    expect(onboarding).toMatchObject({
      guild_id: guild(),
      enabled: false,
      mode: 0,
      default_channel_ids: ids("rules", "announcements", "general", "help"),
    });
    expect(onboarding.prompts[0].options[0]).toMatchObject({
      title: "Chatting",
      emoji: { id: null, name: "💬", animated: false },
      channel_ids: ids("off-topic", "memes"),
    });
    expect(await fail(get("outsider"))).toMatchObject({ status: 403, code: 50001 });
  });

  test("enabling with too few channels is refused, naming each rule and the shortfall", async () => {
    const error = await fail(put("mod", { enabled: true }));
    expect(fieldErrors(error, "default_channel_ids").map((e) => e.message)).toEqual([
      "Onboarding requires at least 7 default channels (has 4: add 3 more)",
      "Onboarding requires at least 5 default channels where @everyone can send messages (has 2: add 3 more)",
    ]);
    // Seven channels, but rules and announcements are read-only and mod-chat is hidden from @everyone: 4 writable.
    const seven = await fail(
      put("mod", {
        enabled: true,
        default_channel_ids: ids("rules", "announcements", "mod-chat", "general", "help", "welcome", "memes"),
      }),
    );
    expect(fieldErrors(seven, "default_channel_ids").map((e) => e.message)).toEqual([
      "Onboarding requires at least 5 default channels where @everyone can send messages (has 4: add 1 more)",
    ]);
    expect(await get()).toMatchObject({
      enabled: false,
      default_channel_ids: ids("rules", "announcements", "general", "help"),
    });
  });

  test("enabled with 7 default channels, 5 writable; prompts replaced with kept and generated ids; ONBOARDING_UPDATE audit", async () => {
    const before = await get();
    const keptPrompt = before.prompts[0];
    const audit = await lastAuditId();
    const since = await lastEventId();
    const onboarding = await put(
      "mod",
      {
        enabled: true,
        default_channel_ids: ids("rules", "announcements", "general", "help", "welcome", "memes", "off-topic"),
        prompts: [
          {
            ...keptPrompt,
            options: [
              {
                id: keptPrompt.options[0].id,
                title: "Chatting",
                channel_ids: ids("off-topic"),
                emoji_id: await emojiId("party_blob"),
              },
            ],
          },
          {
            id: "1",
            title: "Pick a role",
            single_select: true,
            required: false,
            in_onboarding: true,
            type: 1,
            options: [
              { title: "Regular", role_ids: [server.world.roles.regular], emoji_name: "⭐", description: "Be regular" },
            ],
          },
        ],
      },
      "launch onboarding",
    );
    expectOperationResponse("PUT", "/guilds/{guild_id}/onboarding", 200, onboarding);
    expect(onboarding).toMatchObject({ enabled: true, mode: 0 });
    expect(onboarding.default_channel_ids).toHaveLength(7);
    expect(onboarding.prompts[0].id).toBe(keptPrompt.id);
    expect(onboarding.prompts[0].options[0]).toMatchObject({
      id: keptPrompt.options[0].id,
      emoji: { id: await emojiId("party_blob"), name: "party_blob", animated: true },
    });
    const generated = onboarding.prompts[1];
    expect(generated.id).not.toBe("1");
    expect(generated.id).toMatch(/^[0-9]{17,20}$/);
    expect(generated.options[0]).toMatchObject({
      title: "Regular",
      description: "Be regular",
      role_ids: [server.world.roles.regular],
      emoji: { id: null, name: "⭐", animated: false },
    });
    expect(generated.options[0].id).toMatch(/^[0-9]{17,20}$/);
    expect(await get()).toEqual(onboarding);
    expect(await auditSince(guild(), audit)).toMatchObject([
      { action_type: 167n, user_id: BigInt(server.world.users.mod), reason: "launch onboarding" },
    ]);
    // Discord documents no gateway event for onboarding.
    expect(await eventsSince(since)).toEqual([]);

    // While enabled, a change that breaks the constraint is refused.
    const shrink = await fail(put("mod", { default_channel_ids: ids("general", "help") }));
    expect(fieldErrors(shrink, "default_channel_ids")[0].message).toBe(
      "Onboarding requires at least 7 default channels (has 2: add 5 more)",
    );
  });

  test("advanced mode counts the channels of the onboarding questions", async () => {
    const prompt = (channels: string[], inOnboarding = true) => ({
      id: "2",
      title: "Interests",
      in_onboarding: inOnboarding,
      options: [{ title: "Stuff", channel_ids: channels }],
    });
    const defaults = ids("rules", "announcements", "general", "help");
    const plain = await fail(
      put("mod", {
        mode: 0,
        default_channel_ids: defaults,
        prompts: [prompt(ids("memes", "off-topic", "introductions"))],
      }),
    );
    expect(fieldErrors(plain, "default_channel_ids")).toHaveLength(2);
    const advanced = await put("mod", {
      mode: 1,
      default_channel_ids: defaults,
      prompts: [prompt(ids("memes", "off-topic", "introductions"))],
    });
    expect(advanced).toMatchObject({ mode: 1, enabled: true, default_channel_ids: defaults });
    // Questions outside onboarding (Channels and Roles tab only) do not count.
    const hidden = await fail(
      put("mod", {
        mode: 1,
        default_channel_ids: defaults,
        prompts: [prompt(ids("memes", "off-topic", "introductions"), false)],
      }),
    );
    expect(fieldErrors(hidden, "default_channel_ids")[0].message).toBe(
      "Onboarding requires at least 7 default channels (counting the channels of onboarding questions) (has 4: add 3 more)",
    );
    // Disabled, anything goes.
    expect(await put("mod", { enabled: false, mode: 0, default_channel_ids: [] })).toMatchObject({
      enabled: false,
      default_channel_ids: [],
    });
  });

  test("channels, roles and emojis must be the guild's; prompt and option limits", async () => {
    const { everyone, bot, moderator } = server.world.roles;
    const option = (extra: Record<string, unknown>) => ({ title: "Option", ...extra });
    const refused = await fail(
      put("mod", {
        default_channel_ids: ["123456789"],
        prompts: [
          {
            id: "1",
            title: "Q",
            options: [
              option({ channel_ids: [channel("Information")] }),
              option({ role_ids: [everyone] }),
              option({ role_ids: [bot] }),
              option({ emoji_id: "42" }),
              option({ emoji_name: "hello" }),
            ],
          },
        ],
      }),
    );
    expect(fieldErrors(refused, "default_channel_ids", 0).map((e) => e.code)).toEqual(["CHANNEL_INVALID"]);
    expect(fieldErrors(refused, "prompts", 0, "options", 0, "channel_ids", 0).map((e) => e.code)).toEqual([
      "CHANNEL_INVALID",
    ]);
    expect(fieldErrors(refused, "prompts", 0, "options", 1, "role_ids", 0).map((e) => e.code)).toEqual([
      "UNKNOWN_ROLE",
    ]);
    expect(fieldErrors(refused, "prompts", 0, "options", 2, "role_ids", 0).map((e) => e.code)).toEqual([
      "ROLE_MANAGED",
    ]);
    expect(fieldErrors(refused, "prompts", 0, "options", 3, "emoji_id").map((e) => e.code)).toEqual(["EMOJI_INVALID"]);
    expect(fieldErrors(refused, "prompts", 0, "options", 4, "emoji_name").map((e) => e.code)).toEqual([
      "EMOJI_INVALID",
    ]);
    // A role at or above the caller's highest: 403.
    expect(
      await fail(put("mod", { prompts: [{ id: "1", title: "Q", options: [option({ role_ids: [moderator] })] }] })),
    ).toMatchObject({ status: 403, code: 50013 });

    const prompts = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ id: String(i + 1), title: `Q${i}`, options: [option({})] }));
    expect(await put("mod", { prompts: prompts(15) })).toMatchObject({ prompts: expect.any(Array) });
    expect(fieldErrors(await fail(put("mod", { prompts: prompts(16) })), "prompts").map((e) => e.code)).toEqual([
      "BASE_TYPE_MAX_LENGTH",
    ]);
    const options = (n: number) => [
      { id: "1", title: "Q", options: Array.from({ length: n }, (_, i) => option({ title: `O${i}` })) },
    ];
    expect((await put("mod", { prompts: options(50) })).prompts[0].options).toHaveLength(50);
    expect(
      fieldErrors(await fail(put("mod", { prompts: options(51) })), "prompts", 0, "options").map((e) => e.code),
    ).toEqual(["BASE_TYPE_MAX_LENGTH"]);
    expect(
      fieldErrors(await fail(put("mod", { prompts: options(0) })), "prompts", 0, "options").map((e) => e.code),
    ).toEqual(["BASE_TYPE_MIN_LENGTH"]);
    expect(fieldErrors(await fail(put("mod", { mode: 2 })), "mode").map((e) => e.code)).toEqual(["BASE_TYPE_CHOICES"]);
  });

  test("needs Manage Server and Manage Roles: helper and member 50013, outsider 50001", async () => {
    for (const who of ["helper", "member"])
      expect(await fail(put(who, { enabled: false }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(put("outsider", { enabled: false }))).toMatchObject({ status: 403, code: 50001 });
  });
});

describe("Incident actions", () => {
  type Incidents = {
    invites_disabled_until: string | null;
    dms_disabled_until: string | null;
    dm_spam_detected_at: string | null;
    raid_detected_at: string | null;
  };
  const put = (as: string, body: Record<string, unknown>) =>
    server.rest(as).put(Routes.guildIncidentActions(guild()), { body }) as Promise<Incidents>;
  const at = (ms: number) => new Date(Date.now() + ms).toISOString();
  const DAY = 24 * 3600_000;

  test("pausing invites for 24 h (the edge) refuses invites; DMs too; GUILD_UPDATE with incidents_data; null lifts", async () => {
    const since = await lastEventId();
    const until = at(DAY);
    const result = await put("mod", { invites_disabled_until: until, dms_disabled_until: at(3600_000) });
    expectOperationResponse("PUT", "/guilds/{guild_id}/incident-actions", 200, result);
    expect(result).toMatchObject({ invites_disabled_until: until, dm_spam_detected_at: null, raid_detected_at: null });
    const fired = await eventsSince(since);
    expect(fired.map((e) => e.type)).toEqual(["GUILD_UPDATE"]);
    expect(fired[0].d).toMatchObject({ id: guild(), incidents_data: { invites_disabled_until: until } });
    const paused = await fail(
      server.rest("member").post(Routes.channelInvites(channel("general")), { body: { unique: true } }),
    );
    expect(paused).toMatchObject({ status: 400 });
    expect(paused?.message).toMatch(/paused/);

    // An absent field keeps its action; null lifts it; a past time lifts it too.
    const dmsOnly = await put("mod", { dms_disabled_until: null });
    expect(dmsOnly).toMatchObject({ invites_disabled_until: until, dms_disabled_until: null });
    expect(await put("mod", { invites_disabled_until: at(-60_000) })).toMatchObject({ invites_disabled_until: null });
    expect(
      await server.rest("member").post(Routes.channelInvites(channel("general")), { body: { unique: true } }),
    ).toMatchObject({ code: expect.any(String) });
    // Nothing changed: no event.
    const quiet = await lastEventId();
    await put("mod", { invites_disabled_until: null });
    expect(await eventsSince(quiet)).toEqual([]);
  });

  test("more than 24 hours ahead is refused; bad timestamps are refused", async () => {
    const tooFar = await fail(
      put("mod", {
        invites_disabled_until: at(24 * 3600_000 + 60_000),
        dms_disabled_until: at(24 * 3600_000 + 60_000),
      }),
    );
    expect(fieldErrors(tooFar, "invites_disabled_until").map((e) => e.code)).toEqual(["INCIDENT_ACTION_TOO_FAR"]);
    expect(fieldErrors(tooFar, "dms_disabled_until").map((e) => e.code)).toEqual(["INCIDENT_ACTION_TOO_FAR"]);
    expect(
      fieldErrors(await fail(put("mod", { invites_disabled_until: "tomorrow" })), "invites_disabled_until").map(
        (e) => e.code,
      ),
    ).toEqual(["DATE_TIME_INVALID"]);
    expect(await put("mod", {})).toMatchObject({ invites_disabled_until: null, dms_disabled_until: null });
  });

  test("needs Manage Server: helper and member 50013, outsider 50001", async () => {
    for (const who of ["helper", "member"])
      expect(await fail(put(who, { invites_disabled_until: null }))).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(put("outsider", { invites_disabled_until: null }))).toMatchObject({ status: 403, code: 50001 });
  });
});

describe("Membership screening", () => {
  test("with MEMBER_VERIFICATION_GATE_ENABLED a joining user is pending and cannot act until screening completes", async () => {
    const id = 6_500_000_000n;
    await sql.run(
      "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, 'newcomer', '0', FALSE, 0)",
      id,
    );
    const before = await features();
    await setFeatures([...before, "MEMBER_VERIFICATION_GATE_ENABLED"]);
    const since = await lastEventId();
    const joined = (await server.rest("newcomer").post(Routes.invite("hqwelcome"))) as { new_member: boolean };
    expect(joined.new_member).toBe(true);
    const added = await eventsSince(since);
    expect(added.map((e) => e.type)).toEqual(["GUILD_MEMBER_ADD"]);
    expect(added[0].d).toMatchObject({ guild_id: guild(), user: { id: String(id) }, pending: true });

    // Pending: may read, may not act.
    expect(await server.rest("newcomer").get(Routes.guildOnboarding(guild()))).toMatchObject({ guild_id: guild() });
    expect(
      await fail(server.rest("newcomer").post(Routes.channelInvites(channel("general")), { body: {} })),
    ).toMatchObject({ status: 403, code: 50013 });

    const screened = (await server.rest("newcomer").put(`/guilds/${guild()}/requests/@me`)) as Record<string, unknown>;
    expect(screened).toMatchObject({ pending: false, user: { id: String(id) } });
    expectOperationResponse("GET", "/guilds/{guild_id}/members/{user_id}", 200, screened);
    const updated = (await eventsSince(since)).slice(1);
    expect(updated.map((e) => e.type)).toEqual(["GUILD_MEMBER_UPDATE"]);
    expect(updated[0].d).toMatchObject({ guild_id: guild(), user: { id: String(id) }, pending: false });
    expect(await server.rest("newcomer").post(Routes.channelInvites(channel("general")), { body: {} })).toMatchObject({
      inviter: { id: String(id) },
    });

    // Not pending any more: 400, nothing fired; outsiders 50001.
    const again = await lastEventId();
    expect(await fail(server.rest("newcomer").put(`/guilds/${guild()}/requests/@me`))).toMatchObject({ status: 400 });
    expect(await eventsSince(again)).toEqual([]);
    expect(await fail(server.rest("outsider").put(`/guilds/${guild()}/requests/@me`))).toMatchObject({
      status: 403,
      code: 50001,
    });

    // Without the gate, joining members are not pending.
    await setFeatures(before);
    await sql.run(
      "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, 'latecomer', '0', FALSE, 0)",
      id + 1n,
    );
    const late = await lastEventId();
    await server.rest("latecomer").post(Routes.invite("hqwelcome"));
    expect((await eventsSince(late))[0].d).toMatchObject({ pending: false });
  });
});

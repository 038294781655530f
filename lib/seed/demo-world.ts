// The demo world: an application with its bot (the dashboard's sign-in), the sample Activity's own application, six
// people with documented passwords, and a community
// guild ("Guildhall HQ") with a role hierarchy, every channel type, members with voice states and presences,
// bans, invites, integrations, a welcome screen and onboarding. Ids are deterministic so docs and tests can
// name them; secrets are random per install and written to .data/demo-app.json (git-ignored).
import { createHash } from "node:crypto";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { Db } from "@/lib/guild-api/store/db";
import { hashPassword, hashSecret, newBotToken, randomToken } from "@/lib/guild-api/tokens";
import { DiscordSnowflake } from "@sapphire/snowflake";
import { newSnowflake } from "@/lib/discord/snowflake";
import { readDemoSecrets, writeDemoSecrets } from "./demo-secrets";
import { silentMp3, solidPng } from "./media";

const DAY = 86_400_000;
// Demo ids are snowflakes from a fixed clock, so they are the same on every install.
const DEMO_EPOCH_MS = Date.UTC(2024, 0, 1);
let idCounter = 0;
export function demoId(n: number): bigint {
  return DiscordSnowflake.generate({
    timestamp: BigInt(DEMO_EPOCH_MS + n * 1000),
    increment: 0n,
    processId: 0n,
    workerId: 0n,
  });
}
const nextId = () => demoId(++idCounter);

export const DEMO_PASSWORD = "guildhall";
export const DEMO_USERNAMES = ["owner", "admin", "mod", "helper", "member", "outsider"] as const;
/** The public origin the demo application's redirect URIs are registered for (PUBLIC_URL, default localhost:3000). */
export const demoPublicUrl = () => (process.env.PUBLIC_URL ?? "http://localhost:3000").replace(/\/$/, "");
export const demoRedirectUri = () => `${demoPublicUrl()}/api/auth/callback/guildhall`;
/** Where the invite landing page's Join comes back to after signing in (app/(dashboard)/join/callback). */
export const demoInviteJoinRedirectUri = () => `${demoPublicUrl()}/join/callback`;
/** Where a ban appeal's sign-in comes back (issue #32: lib/dashboard/appeals/sign-in.ts). */
export const demoAppealRedirectUri = () => `${demoPublicUrl()}/appeal/callback`;
export const DEMO_APPLICATION_NAME = "Guildhall Demo";
export const DEMO_ACTIVITY_APPLICATION_NAME = "Guildhall Activity";
/**
 * Where the Activity's code may be delivered by web_message: the local host simulator's origin (an origin the SDK
 * accepts, tests/e2e/activity-host). Only the Activity's application registers it, never the dashboard's.
 */
export const DEMO_ACTIVITY_HOST_ORIGIN = "http://localhost:3333";
export const DEMO_GUILD_NAME = "Guildhall HQ";

export const EVERYONE_PERMISSIONS =
  P.CreateInstantInvite |
  P.AddReactions |
  P.Stream |
  P.ViewChannel |
  P.SendMessages |
  P.EmbedLinks |
  P.AttachFiles |
  P.ReadMessageHistory |
  P.MentionEveryone |
  P.UseExternalEmojis |
  P.Connect |
  P.Speak |
  P.UseVAD |
  P.ChangeNickname |
  P.UseApplicationCommands |
  P.RequestToSpeak |
  P.CreatePublicThreads |
  P.CreatePrivateThreads |
  P.UseExternalStickers |
  P.SendMessagesInThreads |
  P.UseEmbeddedActivities |
  P.SendVoiceMessages |
  P.SendPolls |
  P.UseExternalApps;

export const MODERATOR_PERMISSIONS =
  P.ManageGuild |
  P.ManageEvents |
  P.ManageChannels |
  P.ManageRoles |
  P.KickMembers |
  P.BanMembers |
  P.ModerateMembers |
  P.ManageNicknames |
  P.MuteMembers |
  P.DeafenMembers |
  P.MoveMembers |
  P.ViewAuditLog |
  P.ManageMessages |
  P.ManageThreads |
  P.ManageGuildExpressions;

const FIRST = [
  "ada",
  "bo",
  "cy",
  "dee",
  "eli",
  "fay",
  "gus",
  "hal",
  "ivy",
  "jo",
  "kai",
  "lu",
  "max",
  "nia",
  "oz",
  "pip",
  "quinn",
  "rex",
  "sol",
  "tam",
  "uma",
  "vic",
  "wren",
  "xan",
  "yara",
  "zed",
];
const SECOND = [
  "fox",
  "owl",
  "elk",
  "yak",
  "eel",
  "ram",
  "cod",
  "bee",
  "ant",
  "jay",
  "koi",
  "emu",
  "gnu",
  "hen",
  "pug",
];

export interface DemoWorld {
  applicationId: bigint;
  /** The sample Activity's own OAuth2 application (no bot; PKCE required). */
  activityApplicationId: bigint;
  activityClientSecret: string;
  botUserId: bigint;
  guildId: bigint;
  sideGuildId: bigint;
  users: Record<(typeof DEMO_USERNAMES)[number], bigint>;
  roles: { admin: bigint; bot: bigint; moderator: bigint; helper: bigint; regular: bigint; member: bigint };
  clientSecret: string;
  botToken: string;
}

type Row = Record<string, unknown>;

function insert(db: Db, table: string, row: Row): void {
  const keys = Object.keys(row);
  db.prepare(`INSERT INTO ${table} (${keys.join(", ")}) VALUES (${keys.map(() => "?").join(", ")})`).run(
    ...keys.map((k) => normalize(row[k])),
  );
}

function normalize(value: unknown): unknown {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (value !== null && typeof value === "object" && !(value instanceof Buffer)) return JSON.stringify(value);
  return value;
}

/** A tiny deterministic PRNG so the demo world is the same on every install. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function isDatabaseSeeded(db: Db): boolean {
  return Boolean(db.prepare("SELECT 1 FROM applications LIMIT 1").get());
}

export function seedDemoWorld(db: Db, now = Date.now()): DemoWorld {
  idCounter = 0;
  const random = rng(42);
  const world = db.transaction(() => {
    // People
    const users = {} as DemoWorld["users"];
    for (const username of DEMO_USERNAMES) {
      const id = nextId();
      users[username] = id;
      insert(db, "users", {
        id,
        username,
        global_name: username[0].toUpperCase() + username.slice(1),
        discriminator: "0",
        avatar: null,
        bot: false,
        // Each person gets their own salt: one shared hash would let a cracked password unlock every account.
        password_hash: hashPassword(DEMO_PASSWORD),
        created_at: now - 400 * DAY,
      });
    }

    // The application, its bot user and bot token
    const applicationId = nextId();
    const botUserId = nextId();
    const clientSecret = randomToken(24);
    const botToken = newBotToken(botUserId);
    insert(db, "users", {
      id: botUserId,
      username: "guildhall-demo",
      global_name: "Guildhall Demo",
      discriminator: "0",
      bot: true,
      created_at: now - 300 * DAY,
    });
    insert(db, "applications", {
      id: applicationId,
      name: DEMO_APPLICATION_NAME,
      description: "The demo application behind Guildhall's sign-in and bot.",
      owner_id: users.owner,
      bot_user_id: botUserId,
      bot_token_hash: hashSecret(botToken),
      client_secret_hash: hashSecret(clientSecret),
      // GATEWAY_GUILD_MEMBERS: the demo bot may list members.
      flags: 1 << 14,
      // The dashboard's sign-in and the invite page's Join, plus a placeholder. Not the host simulator's origin: the
      // sample Activity has its own application (below), and codes of this one are for the dashboard alone.
      redirect_uris: [
        demoRedirectUri(),
        demoInviteJoinRedirectUri(),
        demoAppealRedirectUri(),
        "https://127.0.0.1/placeholder",
      ],
      url_mappings: [{ prefix: "/", target: new URL(demoPublicUrl()).host }],
      activities_enabled: true,
      integration_types: [0, 1],
      created_at: now - 300 * DAY,
    });
    insert(db, "application_commands", {
      id: nextId(),
      application_id: applicationId,
      type: 4,
      name: "launch",
      description: "Launch Guildhall Demo",
      handler: 2,
      integration_types: [0, 1],
      contexts: [0, 1, 2],
      version: nextId(),
    });

    // Generated people (about 160 members, plus a pool of banned users)
    const generated: bigint[] = [];
    for (let i = 0; i < 200; i++) {
      const id = nextId();
      const name = `${FIRST[i % FIRST.length]}_${SECOND[Math.floor(i / FIRST.length) % SECOND.length]}${i >= FIRST.length * SECOND.length ? i : ""}`;
      insert(db, "users", {
        id,
        username: name,
        global_name: null,
        discriminator: "0",
        bot: false,
        created_at: now - Math.floor(random() * 900) * DAY,
      });
      generated.push(id);
    }

    // Guildhall HQ
    const guildId = nextId();
    const r = {
      admin: nextId(),
      bot: nextId(),
      moderator: nextId(),
      helper: nextId(),
      regular: nextId(),
      member: nextId(),
    };
    const ch = {
      info: nextId(),
      rules: nextId(),
      announcements: nextId(),
      welcome: nextId(),
      community: nextId(),
      general: nextId(),
      offTopic: nextId(),
      ideas: nextId(),
      art: nextId(),
      introductions: nextId(),
      memes: nextId(),
      help: nextId(),
      voice: nextId(),
      lounge: nextId(),
      gaming: nextId(),
      townHall: nextId(),
      afk: nextId(),
      staff: nextId(),
      modChat: nextId(),
      modLog: nextId(),
    };
    insert(db, "guilds", {
      id: guildId,
      name: DEMO_GUILD_NAME,
      description: "Home of the Guildhall demo community.",
      owner_id: users.owner,
      afk_channel_id: ch.afk,
      afk_timeout: 300,
      widget_enabled: true,
      widget_channel_id: ch.general,
      verification_level: 1,
      default_message_notifications: 1,
      explicit_content_filter: 2,
      features: [
        "COMMUNITY",
        "NEWS",
        "WELCOME_SCREEN_ENABLED",
        "INVITE_SPLASH",
        "BANNER",
        "ROLE_ICONS",
        "VANITY_URL",
        "ANIMATED_ICON",
        "PREVIEW_ENABLED",
      ],
      mfa_level: 0,
      system_channel_id: ch.welcome,
      system_channel_flags: 0,
      rules_channel_id: ch.rules,
      public_updates_channel_id: ch.modChat,
      safety_alerts_channel_id: ch.modChat,
      vanity_url_code: "guildhall",
      vanity_url_uses: 37,
      premium_tier: 2,
      premium_subscription_count: 9,
      preferred_locale: "en-US",
      nsfw_level: 0,
      premium_progress_bar_enabled: true,
      welcome_description: "Welcome to Guildhall HQ! Start with the rules, then say hi.",
      welcome_channels: [
        { channel_id: String(ch.rules), description: "Read the rules", emoji_id: null, emoji_name: "📜" },
        { channel_id: String(ch.general), description: "Say hello", emoji_id: null, emoji_name: "👋" },
        { channel_id: String(ch.help), description: "Ask for help", emoji_id: null, emoji_name: "❓" },
      ],
      created_at: now - 380 * DAY,
    });
    const roles: Array<[bigint, string, bigint, number, number, boolean, boolean, string | null]> = [
      [guildId, "@everyone", EVERYONE_PERMISSIONS, 0, 0, false, false, null],
      [r.member, "Member", 0n, 1, 0x99aab5, false, true, null],
      [r.regular, "Regular", 0n, 2, 0x1abc9c, true, true, null],
      [r.helper, "Helper", P.KickMembers | P.ViewAuditLog, 3, 0x3498db, true, true, null],
      [r.moderator, "Moderator", MODERATOR_PERMISSIONS, 4, 0xe67e22, true, true, null],
      [
        r.bot,
        DEMO_APPLICATION_NAME,
        P.Administrator,
        5,
        0,
        false,
        false,
        JSON.stringify({ bot_id: String(botUserId) }),
      ],
      [r.admin, "Admin", P.Administrator, 6, 0xe74c3c, true, false, null],
    ];
    for (const [id, name, permissions, position, color, hoist, mentionable, tags] of roles) {
      insert(db, "roles", {
        id,
        guild_id: guildId,
        name,
        permissions,
        position,
        color,
        hoist,
        mentionable,
        managed: tags !== null,
        tags,
      });
    }
    db.prepare("UPDATE roles SET unicode_emoji = '🛡️' WHERE id = ?").run(r.moderator);

    const staffOverwrites = [
      { id: String(guildId), type: 0, allow: "0", deny: String(P.ViewChannel) },
      { id: String(r.moderator), type: 0, allow: String(P.ViewChannel), deny: "0" },
      { id: String(r.helper), type: 0, allow: String(P.ViewChannel), deny: "0" },
    ];
    const readOnly = [{ id: String(guildId), type: 0, allow: "0", deny: String(P.SendMessages) }];
    const channels: Row[] = [
      { id: ch.info, type: 4, name: "Information", position: 0 },
      {
        id: ch.rules,
        type: 0,
        name: "rules",
        position: 0,
        parent_id: ch.info,
        topic: "Be kind. No spam.",
        permission_overwrites: readOnly,
      },
      {
        id: ch.announcements,
        type: 5,
        name: "announcements",
        position: 1,
        parent_id: ch.info,
        topic: "News from the team",
        permission_overwrites: readOnly,
      },
      { id: ch.welcome, type: 0, name: "welcome", position: 2, parent_id: ch.info },
      { id: ch.community, type: 4, name: "Community", position: 1 },
      {
        id: ch.general,
        type: 0,
        name: "general",
        position: 0,
        parent_id: ch.community,
        topic: "Anything goes (within the rules)",
        rate_limit_per_user: 0,
      },
      { id: ch.offTopic, type: 0, name: "off-topic", position: 1, parent_id: ch.community, rate_limit_per_user: 5 },
      { id: ch.introductions, type: 0, name: "introductions", position: 2, parent_id: ch.community },
      { id: ch.memes, type: 0, name: "memes", position: 3, parent_id: ch.community, nsfw: false },
      { id: ch.help, type: 0, name: "help", position: 4, parent_id: ch.community },
      {
        id: ch.ideas,
        type: 15,
        name: "ideas",
        position: 5,
        parent_id: ch.community,
        topic: "Suggest features",
        default_forum_layout: 1,
        default_sort_order: 0,
        available_tags: [
          { id: String(nextId()), name: "feature", moderated: false, emoji_id: null, emoji_name: "✨" },
          { id: String(nextId()), name: "bug", moderated: false, emoji_id: null, emoji_name: "🐛" },
        ],
        default_reaction_emoji: { emoji_id: null, emoji_name: "👍" },
      },
      {
        id: ch.art,
        type: 16,
        name: "art",
        position: 6,
        parent_id: ch.community,
        topic: "Show your work",
        available_tags: [],
        default_sort_order: 0,
      },
      { id: ch.voice, type: 4, name: "Voice", position: 2 },
      {
        id: ch.lounge,
        type: 2,
        name: "Lounge",
        position: 0,
        parent_id: ch.voice,
        bitrate: 64000,
        user_limit: 0,
        video_quality_mode: 1,
      },
      {
        id: ch.gaming,
        type: 2,
        name: "Gaming",
        position: 1,
        parent_id: ch.voice,
        bitrate: 96000,
        user_limit: 10,
        video_quality_mode: 1,
      },
      { id: ch.townHall, type: 13, name: "Town Hall", position: 2, parent_id: ch.voice, bitrate: 64000, user_limit: 0 },
      { id: ch.afk, type: 2, name: "AFK", position: 3, parent_id: ch.voice, bitrate: 8000, user_limit: 0 },
      { id: ch.staff, type: 4, name: "Staff", position: 3, permission_overwrites: staffOverwrites },
      {
        id: ch.modChat,
        type: 0,
        name: "mod-chat",
        position: 0,
        parent_id: ch.staff,
        permission_overwrites: staffOverwrites,
      },
      {
        id: ch.modLog,
        type: 0,
        name: "mod-log",
        position: 1,
        parent_id: ch.staff,
        permission_overwrites: staffOverwrites,
      },
    ];
    for (const channel of channels)
      insert(db, "channels", { guild_id: guildId, permission_overwrites: [], ...channel });

    // Active threads (public, private, announcement, forum post) and one archived thread.
    const threads: Row[] = [
      { type: 11, name: "Welcome party planning", parent_id: ch.general, owner_id: users.mod, archived: false },
      { type: 11, name: "Favourite keyboard?", parent_id: ch.offTopic, owner_id: generated[3], archived: false },
      { type: 12, name: "Ban appeal review", parent_id: ch.modChat, owner_id: users.admin, archived: false },
      { type: 11, name: "Dark mode for the widget", parent_id: ch.ideas, owner_id: generated[5], archived: false },
      { type: 11, name: "Old event recap", parent_id: ch.general, owner_id: users.mod, archived: true },
    ];
    for (const thread of threads) {
      const id = nextId();
      const archived = thread.archived as boolean;
      insert(db, "channels", {
        id,
        guild_id: guildId,
        position: 0,
        permission_overwrites: [],
        ...thread,
        rate_limit_per_user: 0,
        message_count: 12,
        member_count: 2,
        flags: 0,
        thread_metadata: {
          archived,
          auto_archive_duration: 1440,
          archive_timestamp: new Date(now - (archived ? 30 : 1) * DAY).toISOString(),
          locked: false,
          ...(thread.type === 12 ? { invitable: true } : {}),
          create_timestamp: new Date(now - 40 * DAY).toISOString(),
        },
      });
      insert(db, "thread_members", {
        thread_id: id,
        user_id: thread.owner_id,
        join_timestamp: now - 40 * DAY,
        flags: 0,
      });
      if (thread.owner_id !== users.mod)
        insert(db, "thread_members", { thread_id: id, user_id: users.mod, join_timestamp: now - 20 * DAY, flags: 0 });
    }

    // Members: the six people (but outsider), the bot, and 160 generated members.
    const memberRows: Array<{
      userId: bigint;
      username: string;
      roles: bigint[];
      nick?: string;
      lastActiveDaysAgo: number;
      status: string;
      joinedDaysAgo: number;
    }> = [
      { userId: users.owner, username: "owner", roles: [], lastActiveDaysAgo: 0, status: "online", joinedDaysAgo: 380 },
      {
        userId: users.admin,
        username: "admin",
        roles: [r.admin],
        nick: "Admin Alice",
        lastActiveDaysAgo: 0,
        status: "online",
        joinedDaysAgo: 370,
      },
      {
        userId: users.mod,
        username: "mod",
        roles: [r.moderator, r.regular],
        nick: "Mod Max",
        lastActiveDaysAgo: 0,
        status: "idle",
        joinedDaysAgo: 300,
      },
      {
        userId: users.helper,
        username: "helper",
        roles: [r.helper],
        lastActiveDaysAgo: 1,
        status: "dnd",
        joinedDaysAgo: 200,
      },
      {
        userId: users.member,
        username: "member",
        roles: [r.member],
        lastActiveDaysAgo: 2,
        status: "online",
        joinedDaysAgo: 100,
      },
      {
        userId: botUserId,
        username: "guildhall-demo",
        roles: [r.bot],
        lastActiveDaysAgo: 0,
        status: "online",
        joinedDaysAgo: 300,
      },
    ];
    const statuses = ["online", "online", "idle", "dnd", "offline", "offline", "offline"];
    for (let i = 0; i < 160; i++) {
      const roll = random();
      const roleSet = roll < 0.45 ? [] : roll < 0.8 ? [r.member] : roll < 0.95 ? [r.member, r.regular] : [r.regular];
      const username = db.prepare("SELECT username FROM users WHERE id = ?").get(generated[i]) as { username: string };
      memberRows.push({
        userId: generated[i],
        username: username.username,
        roles: roleSet,
        nick: random() < 0.2 ? `${username.username.split("_")[0]}ster` : undefined,
        // Activity: most members were seen recently, a long tail is inactive (what prune is for).
        lastActiveDaysAgo: Math.floor(random() < 0.6 ? random() * 7 : random() * 120),
        status: statuses[Math.floor(random() * statuses.length)],
        joinedDaysAgo: 3 + Math.floor(random() * 360),
      });
    }
    for (const m of memberRows) {
      insert(db, "members", {
        guild_id: guildId,
        user_id: m.userId,
        nick: m.nick ?? null,
        nick_key: m.nick?.toLowerCase() ?? null,
        username_key: m.username.toLowerCase(),
        joined_at: now - m.joinedDaysAgo * DAY,
        last_active_at: now - m.lastActiveDaysAgo * DAY - Math.floor(random() * DAY),
        role_count: m.roles.length,
        status: m.status,
        flags: 0,
        pending: false,
        premium_since: m.userId === users.mod ? now - 90 * DAY : null,
      });
      for (const roleId of m.roles)
        insert(db, "member_roles", { guild_id: guildId, user_id: m.userId, role_id: roleId });
    }
    db.prepare("UPDATE guilds SET member_count = ? WHERE id = ?").run(memberRows.length, guildId);

    // Voice: some people in the Lounge and Gaming, one on stage.
    const inVoice: Array<[bigint, bigint, boolean]> = [
      [users.mod, ch.lounge, false],
      [generated[0], ch.lounge, false],
      [generated[1], ch.lounge, true],
      [generated[2], ch.lounge, false],
      [generated[4], ch.gaming, false],
      [generated[6], ch.gaming, false],
      [users.member, ch.townHall, true],
    ];
    for (const [userId, channelId, selfMute] of inVoice) {
      insert(db, "voice_states", {
        guild_id: guildId,
        user_id: userId,
        channel_id: channelId,
        session_id: randomToken(16),
        self_mute: selfMute,
        self_deaf: false,
        suppress: channelId === ch.townHall,
      });
    }

    // Bans: generated people who are not members.
    const banReasons = ["Spam", "Raid account", "Harassment", null, "Scam links", "Ban evasion"];
    for (let i = 170; i < 195; i++) {
      insert(db, "bans", {
        guild_id: guildId,
        user_id: generated[i],
        reason: banReasons[i % banReasons.length],
        created_at: now - (i - 160) * DAY,
      });
    }

    // Invites
    const invites: Row[] = [
      {
        code: "hqwelcome",
        channel_id: ch.general,
        inviter_id: users.mod,
        max_age: 0,
        max_uses: 0,
        uses: 128,
        created_at: now - 60 * DAY,
        expires_at: null,
      },
      {
        code: "movienight",
        channel_id: ch.lounge,
        inviter_id: users.admin,
        max_age: 604800,
        max_uses: 50,
        uses: 7,
        created_at: now - 2 * DAY,
        expires_at: now + 5 * DAY,
      },
      {
        code: "tempguest",
        channel_id: ch.general,
        inviter_id: users.helper,
        max_age: 86400,
        max_uses: 5,
        uses: 1,
        temporary: true,
        created_at: now - 3600_000,
        expires_at: now + 23 * 3600_000,
      },
    ];
    for (const invite of invites)
      insert(db, "invites", { guild_id: guildId, type: 0, flags: 0, role_ids: [], ...invite });

    // Integrations: the demo application's bot, and a streaming-platform integration.
    insert(db, "integrations", {
      id: nextId(),
      guild_id: guildId,
      name: DEMO_APPLICATION_NAME,
      type: "discord",
      enabled: true,
      user_id: users.owner,
      account_id: String(botUserId),
      account_name: DEMO_APPLICATION_NAME,
      application_id: applicationId,
      scopes: ["bot", "applications.commands"],
      created_at: now - 300 * DAY,
    });
    insert(db, "integrations", {
      id: nextId(),
      guild_id: guildId,
      name: "guildhall_live",
      type: "twitch",
      enabled: true,
      syncing: false,
      role_id: r.regular,
      enable_emoticons: true,
      expire_behavior: 0,
      expire_grace_period: 7,
      user_id: users.admin,
      account_id: "4815162342",
      account_name: "guildhall_live",
      synced_at: now - 2 * DAY,
      subscriber_count: 42,
      revoked: false,
      scopes: [],
      created_at: now - 100 * DAY,
    });

    // Expressions, with real files (lib/seed/media.ts) kept as the API keeps uploads: in images, under their ids.
    const expressionFile = (kind: string, ownerId: bigint, contentType: string, data: Buffer, animated = false) =>
      insert(db, "images", {
        kind,
        owner_id: ownerId,
        hash: (animated ? "a_" : "") + createHash("md5").update(data).digest("hex"),
        content_type: contentType,
        data,
      });
    const emojiIds: bigint[] = [];
    for (const [name, animated, colour] of [
      ["guildhall", false, 0x5865f2ff],
      ["party_blob", true, 0xfee75cff],
      ["ban_hammer", false, 0xed4245ff],
    ] as const) {
      const id = nextId();
      emojiIds.push(id);
      insert(db, "emojis", {
        id,
        guild_id: guildId,
        name,
        roles: [],
        user_id: users.admin,
        require_colons: true,
        managed: false,
        animated,
        available: true,
      });
      expressionFile("emojis", id, "image/png", solidPng(128, 128, colour, { frames: animated ? 2 : 1 }), animated);
    }
    for (const [name, description, tags, frames] of [
      ["Wave", "Hello there", "wave", 1],
      ["Party", "Time to celebrate", "tada", 2],
    ] as const) {
      const id = nextId();
      insert(db, "stickers", {
        id,
        guild_id: guildId,
        name,
        description,
        tags,
        format_type: frames > 1 ? 2 : 1,
        available: true,
        user_id: users.admin,
      });
      expressionFile("stickers", id, "image/png", solidPng(320, 320, 0x57f287ff, { frames }), frames > 1);
    }
    for (const [name, emoji, frames, volume] of [
      ["airhorn", { emoji_name: "📯" }, 40, 1],
      ["applause", { emoji_name: "👏" }, 120, 0.8],
      ["party", { emoji_id: emojiIds[1] }, 80, 0.5],
    ] as const) {
      const id = nextId();
      insert(db, "soundboard_sounds", {
        id,
        guild_id: guildId,
        name,
        volume,
        emoji_id: "emoji_id" in emoji ? emoji.emoji_id : null,
        emoji_name: "emoji_name" in emoji ? emoji.emoji_name : null,
        user_id: users.admin,
        available: true,
      });
      expressionFile("soundboard-sounds", id, "audio/mpeg", silentMp3(frames));
    }
    // Scheduled events: a stage Q&A, a weekly voice game night and an external meetup, with interested members, and
    // one finished. invites.test.ts reads the town hall through an invite.
    const events: Row[] = [
      {
        id: nextId(),
        channel_id: ch.townHall,
        name: "Monthly Town Hall",
        description: "Q&A with the team",
        scheduled_start_time: now + 6 * DAY,
        scheduled_end_time: now + 6 * DAY + 3600_000,
        status: 1,
        entity_type: 1,
        interested: 23,
      },
      {
        id: nextId(),
        channel_id: ch.gaming,
        name: "Game Night",
        description: "Bring a friend; we pick the game at the start.",
        scheduled_start_time: now + 2 * DAY,
        scheduled_end_time: now + 2 * DAY + 3 * 3600_000,
        status: 1,
        entity_type: 2,
        recurrence_rule: {
          start: new Date(now + 2 * DAY).toISOString(),
          end: null,
          frequency: 2,
          interval: 1,
          by_weekday: [(new Date(now + 2 * DAY).getUTCDay() + 6) % 7],
          by_n_weekday: null,
          by_month: null,
          by_month_day: null,
          by_year_day: null,
          count: null,
        },
        interested: 8,
      },
      {
        id: nextId(),
        channel_id: null,
        name: "Community Meetup",
        description: "Coffee and stickers, downtown.",
        scheduled_start_time: now + 13 * DAY,
        scheduled_end_time: now + 13 * DAY + 4 * 3600_000,
        status: 1,
        entity_type: 3,
        entity_metadata: { location: "Café Lumen, 12 Harbour Street" },
        interested: 5,
      },
      {
        id: nextId(),
        channel_id: ch.townHall,
        name: "Launch Party",
        description: "We shipped!",
        scheduled_start_time: now - 9 * DAY,
        scheduled_end_time: now - 9 * DAY + 2 * 3600_000,
        status: 3,
        entity_type: 1,
        interested: 12,
      },
    ];
    for (const { interested, ...event } of events) {
      insert(db, "guild_scheduled_events", {
        ...event,
        guild_id: guildId,
        creator_id: users.admin,
        privacy_level: 2,
        user_count: interested,
      });
      for (const userId of generated.slice(0, interested as number))
        insert(db, "guild_scheduled_event_users", { event_id: event.id, user_id: userId, guild_id: guildId });
    }

    // Onboarding: prompts configured, not yet enabled.
    insert(db, "guild_onboarding", {
      guild_id: guildId,
      enabled: false,
      mode: 0,
      default_channel_ids: [String(ch.rules), String(ch.announcements), String(ch.general), String(ch.help)],
      prompts: [
        {
          id: String(nextId()),
          type: 0,
          title: "What brings you here?",
          single_select: false,
          required: false,
          in_onboarding: true,
          options: [
            {
              id: String(nextId()),
              title: "Chatting",
              description: "Hang out",
              channel_ids: [String(ch.offTopic), String(ch.memes)],
              role_ids: [],
              emoji_id: null,
              emoji_name: "💬",
              emoji_animated: false,
            },
            {
              id: String(nextId()),
              title: "Getting help",
              description: null,
              channel_ids: [String(ch.help)],
              role_ids: [],
              emoji_id: null,
              emoji_name: "🛟",
              emoji_animated: false,
            },
          ],
        },
      ],
    });

    // A second guild owned by admin, where mod is a plain member.
    const sideGuildId = nextId();
    const sideGeneral = nextId();
    insert(db, "guilds", {
      id: sideGuildId,
      name: "Side Project",
      owner_id: users.admin,
      features: [],
      afk_timeout: 300,
      verification_level: 0,
      member_count: 3,
      created_at: now - 50 * DAY,
    });
    insert(db, "roles", {
      id: sideGuildId,
      guild_id: sideGuildId,
      name: "@everyone",
      permissions: EVERYONE_PERMISSIONS,
      position: 0,
    });
    insert(db, "channels", {
      id: sideGeneral,
      guild_id: sideGuildId,
      type: 0,
      name: "general",
      position: 0,
      permission_overwrites: [],
    });
    for (const [userId, username] of [
      [users.admin, "admin"],
      [users.mod, "mod"],
      [users.member, "member"],
    ] as const) {
      insert(db, "members", {
        guild_id: sideGuildId,
        user_id: userId,
        username_key: username,
        joined_at: now - 40 * DAY,
        last_active_at: now - DAY,
        role_count: 0,
        status: "online",
      });
    }

    // Last, so the ids above stay what they were before the Activity had an application of its own.
    const activity = insertActivityApplication(db, nextId(), users.owner, now);
    return {
      applicationId,
      activityApplicationId: activity.applicationId,
      activityClientSecret: activity.clientSecret,
      botUserId,
      guildId,
      sideGuildId,
      users,
      roles: r,
      clientSecret,
      botToken,
    };
  })();
  writeDemoSecrets({
    applicationId: String(world.applicationId),
    clientSecret: world.clientSecret,
    botToken: world.botToken,
    guildId: String(world.guildId),
    activityApplicationId: String(world.activityApplicationId),
    activityClientSecret: world.activityClientSecret,
  });
  return world;
}

/**
 * The sample Activity's own OAuth2 application (issue 29, finding 5): a client apart from the dashboard's, so a code
 * the Activity's backend redeems can carry only what a user granted to the Activity. No bot; PKCE required, since
 * its code travels through the browser; the host simulator's origin may receive codes by web_message, and a
 * placeholder redirect URI is registered as Discord requires (setup rule 1). Its entry point command launches it.
 */
function insertActivityApplication(
  db: Db,
  applicationId: bigint,
  ownerId: bigint,
  now: number,
  commandIds: { command: bigint; version: bigint } = { command: nextId(), version: nextId() },
): { applicationId: bigint; clientSecret: string } {
  const clientSecret = randomToken(24);
  insert(db, "applications", {
    id: applicationId,
    name: DEMO_ACTIVITY_APPLICATION_NAME,
    description: "The sample Activity (/activity): its own OAuth2 client, apart from the dashboard's sign-in.",
    owner_id: ownerId,
    client_secret_hash: hashSecret(clientSecret),
    redirect_uris: ["https://127.0.0.1/placeholder", `${DEMO_ACTIVITY_HOST_ORIGIN}/`],
    url_mappings: [{ prefix: "/", target: new URL(demoPublicUrl()).host }],
    activities_enabled: true,
    integration_types: [0, 1],
    require_pkce: true,
    created_at: now - 300 * DAY,
  });
  insert(db, "application_commands", {
    id: commandIds.command,
    application_id: applicationId,
    type: 4,
    name: "launch",
    description: `Launch ${DEMO_ACTIVITY_APPLICATION_NAME}`,
    handler: 2,
    integration_types: [0, 1],
    contexts: [0, 1, 2],
    version: commandIds.version,
  });
  return { applicationId, clientSecret };
}

/**
 * A database seeded before the Activity had its own application (SQLite, `npm start` on an existing .data/): adds
 * it, with new ids, and its secret to the demo secrets. Returns its id, or null when there is nothing to do.
 */
export function addActivityApplication(db: Db, now = Date.now()): bigint | null {
  const secrets = readDemoSecrets();
  if (!secrets || secrets.activityApplicationId) return null;
  const named = db.prepare("SELECT 1 FROM applications WHERE name = ?").get(DEMO_ACTIVITY_APPLICATION_NAME);
  const owner = db.prepare("SELECT id FROM users WHERE username = 'owner'").get() as
    { id: bigint | number } | undefined;
  if (named || !owner) return null;
  const fresh = () => newSnowflake();
  const activity = db.transaction(() =>
    insertActivityApplication(db, fresh(), BigInt(owner.id), now, { command: fresh(), version: fresh() }),
  )();
  writeDemoSecrets({
    ...secrets,
    activityApplicationId: String(activity.applicationId),
    activityClientSecret: activity.clientSecret,
  });
  return activity.applicationId;
}

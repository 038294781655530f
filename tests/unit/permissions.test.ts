import { PermissionFlagsBits } from "discord-api-types/v10";
import { describe, expect, test } from "vitest";
import {
  ALL_PERMISSIONS,
  DANGEROUS_PERMISSIONS,
  PERMISSION_GROUPS,
  PermissionFlags as P,
  TIMEOUT_ALLOWED_PERMISSIONS,
  canActOnMember,
  canManageRole,
  compareRolePositions,
  computeBasePermissions,
  computeChannelPermissions,
  describeMissing,
  hasPermission,
  highestRole,
  isTimedOut,
  missingPermissions,
  parsePermissions,
  permissionLabel,
  permissionsFor,
  serializePermissions,
  type GuildPermissionContext,
  type PermissionMember,
  type PermissionOverwrite,
} from "@/lib/discord/permissions";

// A guild shaped like the demo world, with snowflake-sized ids (beyond 2^53, where Number comparison breaks).
const GUILD = "1100000000000000000";
const OWNER = "1000000000000000001";
const ROLE = {
  everyone: GUILD,
  admin: "1100000000000000010",
  moderator: "1100000000000000020",
  helper: "1100000000000000030",
  regular: "1100000000000000040",
  // Two roles at the same position whose ids differ only past 2^53: Number() would call them equal.
  tieOlder: "1234567890123456789",
  tieNewer: "1234567890123456790",
} as const;

const EVERYONE_PERMS = P.ViewChannel | P.SendMessages | P.ReadMessageHistory | P.AddReactions | P.Connect | P.Speak;

const ctx: GuildPermissionContext = {
  guildId: GUILD,
  ownerId: OWNER,
  roles: [
    { id: ROLE.everyone, position: 0, permissions: EVERYONE_PERMS },
    { id: ROLE.admin, position: 6, permissions: P.Administrator },
    {
      id: ROLE.moderator,
      position: 4,
      permissions: P.KickMembers | P.BanMembers | P.ModerateMembers | P.ManageMessages,
    },
    { id: ROLE.helper, position: 3, permissions: P.KickMembers | P.ViewAuditLog },
    { id: ROLE.regular, position: 2, permissions: P.EmbedLinks | P.AttachFiles },
    { id: ROLE.tieNewer, position: 1, permissions: 0n },
    { id: ROLE.tieOlder, position: 1, permissions: 0n },
  ],
};

const member = (
  userId: string,
  roleIds: string[] = [],
  communicationDisabledUntil: PermissionMember["communicationDisabledUntil"] = null,
): PermissionMember => ({
  userId,
  roleIds,
  communicationDisabledUntil,
});

const owner = member(OWNER);
const admin = member("2", [ROLE.admin]);
const mod = member("3", [ROLE.moderator, ROLE.regular]);
const helper = member("4", [ROLE.helper]);
const regular = member("5", [ROLE.regular]);
const plain = member("6");

const NOW = Date.UTC(2025, 0, 15, 12, 0, 0);
const FUTURE = NOW + 60_000;
const PAST = NOW - 60_000;

const roleOverwrite = (id: string, allow: bigint, deny: bigint): PermissionOverwrite => ({ id, type: 0, allow, deny });
const memberOverwrite = (id: string, allow: bigint, deny: bigint): PermissionOverwrite => ({
  id,
  type: 1,
  allow,
  deny,
});

describe("flags", () => {
  test("PermissionFlags is discord-api-types' PermissionFlagsBits", () => {
    expect(P).toBe(PermissionFlagsBits);
  });

  test.each([
    ["CreateInstantInvite", 1n << 0n],
    ["Administrator", 1n << 3n],
    ["ManageGuild", 1n << 5n],
    ["UseApplicationCommands", 1n << 31n],
    ["RequestToSpeak", 1n << 32n],
    ["ModerateMembers", 1n << 40n],
    ["SendPolls", 1n << 49n],
  ] as const)("%s is bit %s", (name, bit) => {
    expect(P[name]).toBe(bit);
  });

  test("ALL_PERMISSIONS is the OR of every flag and includes bits above 2^32", () => {
    for (const flag of Object.values(PermissionFlagsBits)) expect(ALL_PERMISSIONS & flag).toBe(flag);
    expect(ALL_PERMISSIONS & P.ModerateMembers).toBe(1n << 40n);
    expect(ALL_PERMISSIONS & ~Object.values(PermissionFlagsBits).reduce((a, b) => a | b, 0n)).toBe(0n);
  });

  test.each(["0", "8", "4294967295", "4294967296", "1099511627776", String(ALL_PERMISSIONS), "9223372036854775807"])(
    "parse/serialize round-trips %s exactly",
    (str) => {
      expect(serializePermissions(parsePermissions(str))).toBe(str);
    },
  );

  test("values ≥ 2^32 keep their high bits through parse", () => {
    const bits = parsePermissions(String(P.ModerateMembers | P.BanMembers));
    expect(bits & P.ModerateMembers).toBe(P.ModerateMembers);
    expect(bits & P.BanMembers).toBe(P.BanMembers);
  });

  test.each(["", " 8", "8 ", "-1", "1.5", "0x10", "1e3", "abc", "8n"])("parsePermissions rejects %j", (str) => {
    expect(() => parsePermissions(str)).toThrow(TypeError);
  });

  test("parsePermissions rejects non-strings", () => {
    expect(() => parsePermissions(8 as unknown as string)).toThrow(TypeError);
  });

  test("serializePermissions rejects negative bitfields", () => {
    expect(() => serializePermissions(-1n)).toThrow(RangeError);
  });
});

describe("labels and groups", () => {
  test.each([
    [P.BanMembers, "Ban Members"],
    [P.KickMembers, "Kick Members"],
    [P.ManageGuild, "Manage Server"],
    [P.ModerateMembers, "Timeout Members"],
    [P.ViewChannel, "View Channels"],
    [P.ManageGuildExpressions, "Manage Expressions"],
    [P.CreateInstantInvite, "Create Invite"],
    [P.Stream, "Video"],
    [P.UseVAD, "Use Voice Activity"],
    [P.MentionEveryone, "Mention @everyone, @here, and All Roles"],
    [P.Administrator, "Administrator"],
  ])("permissionLabel(%s) is %j", (flag, label) => {
    expect(permissionLabel(flag)).toBe(label);
  });

  test("unknown bits get a readable fallback label", () => {
    expect(permissionLabel(1n << 60n)).toBe("Unknown Permission (1 << 60)");
  });

  test("every Discord flag is in exactly one group, with a label", () => {
    const grouped = PERMISSION_GROUPS.flatMap((group) => group.permissions.map((info) => info.flag));
    const distinct = new Set(Object.values(PermissionFlagsBits));
    expect(grouped).toHaveLength(distinct.size);
    expect(new Set(grouped)).toEqual(distinct);
    for (const group of PERMISSION_GROUPS) for (const info of group.permissions) expect(info.label).not.toBe("");
  });

  test("groups follow Discord's role editor", () => {
    expect(PERMISSION_GROUPS.map((group) => group.id)).toEqual([
      "general",
      "membership",
      "text",
      "voice",
      "apps",
      "stage",
      "events",
      "advanced",
    ]);
    const groupOf = (flag: bigint) =>
      PERMISSION_GROUPS.find((group) => group.permissions.some((info) => info.flag === flag))?.id;
    expect(groupOf(P.ManageGuild)).toBe("general");
    expect(groupOf(P.BanMembers)).toBe("membership");
    expect(groupOf(P.ModerateMembers)).toBe("membership");
    expect(groupOf(P.SendMessages)).toBe("text");
    expect(groupOf(P.Connect)).toBe("voice");
    expect(groupOf(P.UseApplicationCommands)).toBe("apps");
    expect(groupOf(P.RequestToSpeak)).toBe("stage");
    expect(groupOf(P.ManageEvents)).toBe("events");
    expect(groupOf(P.Administrator)).toBe("advanced");
  });

  test("dangerous marks the elevated permissions and only those", () => {
    const dangerous = [
      P.Administrator,
      P.ManageGuild,
      P.ManageRoles,
      P.ManageChannels,
      P.KickMembers,
      P.BanMembers,
      P.ManageWebhooks,
      P.ManageMessages,
      P.ManageGuildExpressions,
      P.ModerateMembers,
      P.ManageThreads,
      P.ManageEvents,
      P.MentionEveryone,
    ];
    for (const flag of dangerous) expect(DANGEROUS_PERMISSIONS & flag, permissionLabel(flag)).toBe(flag);
    for (const flag of [P.ViewChannel, P.SendMessages, P.Connect, P.CreateInstantInvite, P.ChangeNickname]) {
      expect(DANGEROUS_PERMISSIONS & flag, permissionLabel(flag)).toBe(0n);
    }
  });
});

describe("hasPermission, missingPermissions, describeMissing", () => {
  test.each([
    [P.BanMembers, P.BanMembers, true],
    [P.KickMembers, P.BanMembers, false],
    [P.Administrator, P.BanMembers, true],
    [P.Administrator, P.ModerateMembers, true],
    [P.ModerateMembers, P.ModerateMembers, true],
    // The low 32 bits of 1<<40 are 0: a 32-bit check would wrongly pass this.
    [P.ViewChannel, P.ModerateMembers, false],
    [P.KickMembers | P.BanMembers, P.KickMembers | P.BanMembers, true],
    [P.KickMembers, P.KickMembers | P.BanMembers, false],
    [0n, 0n, true],
  ])("hasPermission(%s, %s) is %s", (perms, flag, expected) => {
    expect(hasPermission(perms, flag)).toBe(expected);
  });

  test("missingPermissions lists single flags in editor order", () => {
    expect(missingPermissions(P.BanMembers, P.KickMembers | P.BanMembers | P.ManageGuild)).toEqual([
      P.ManageGuild,
      P.KickMembers,
    ]);
    expect(missingPermissions(P.Administrator, P.KickMembers | P.ManageGuild)).toEqual([]);
    expect(missingPermissions(0n, P.ModerateMembers)).toEqual([P.ModerateMembers]);
  });

  test.each([
    [0n, P.BanMembers, "needs Ban Members"],
    [0n, P.KickMembers | P.ManageGuild, "needs Manage Server and Kick Members"],
    [0n, P.ModerateMembers | P.BanMembers | P.ManageRoles, "needs Manage Roles, Ban Members and Timeout Members"],
    [P.KickMembers, P.KickMembers | P.ManageGuild, "needs Manage Server"],
    [P.BanMembers, P.BanMembers, null],
    [P.Administrator, P.BanMembers | P.ManageGuild, null],
    [0n, 0n, null],
  ])("describeMissing(%s, %s) is %j", (perms, required, expected) => {
    expect(describeMissing(perms, required)).toBe(expected);
  });
});

describe("computeBasePermissions", () => {
  test.each([
    ["the owner, without roles, gets everything", owner, ALL_PERMISSIONS],
    ["ADMINISTRATOR gets everything", admin, ALL_PERMISSIONS],
    ["@everyone only", plain, EVERYONE_PERMS],
    [
      "@everyone OR every role",
      mod,
      EVERYONE_PERMS |
        P.KickMembers |
        P.BanMembers |
        P.ModerateMembers |
        P.ManageMessages |
        P.EmbedLinks |
        P.AttachFiles,
    ],
    ["unknown role ids are ignored", member("7", ["999", ROLE.regular]), EVERYONE_PERMS | P.EmbedLinks | P.AttachFiles],
    ["listing @everyone among roles is harmless", member("8", [ROLE.everyone]), EVERYONE_PERMS],
  ])("%s", (_name, who, expected) => {
    expect(computeBasePermissions(ctx, who, NOW)).toBe(expected);
  });

  test("ADMINISTRATOR on @everyone makes everyone an administrator", () => {
    const open: GuildPermissionContext = { ...ctx, roles: [{ id: GUILD, position: 0, permissions: P.Administrator }] };
    expect(computeBasePermissions(open, plain, NOW)).toBe(ALL_PERMISSIONS);
  });

  test("a context without an @everyone role still computes from member roles", () => {
    const partial: GuildPermissionContext = { ...ctx, roles: ctx.roles.filter((role) => role.id !== GUILD) };
    expect(computeBasePermissions(partial, helper, NOW)).toBe(P.KickMembers | P.ViewAuditLog);
  });

  test("permissionsFor without overwrites is the base", () => {
    expect(permissionsFor(ctx, helper, undefined, NOW)).toBe(computeBasePermissions(ctx, helper, NOW));
  });
});

describe("computeChannelPermissions", () => {
  test.each<[string, PermissionMember, PermissionOverwrite[], bigint]>([
    ["no overwrites: the base", regular, [], EVERYONE_PERMS | P.EmbedLinks | P.AttachFiles],
    ["@everyone deny removes", plain, [roleOverwrite(GUILD, 0n, P.SendMessages)], EVERYONE_PERMS & ~P.SendMessages],
    ["@everyone allow adds", plain, [roleOverwrite(GUILD, P.AttachFiles, 0n)], EVERYONE_PERMS | P.AttachFiles],
    [
      "a role allow beats the @everyone deny",
      regular,
      [roleOverwrite(GUILD, 0n, P.SendMessages), roleOverwrite(ROLE.regular, P.SendMessages, 0n)],
      EVERYONE_PERMS | P.EmbedLinks | P.AttachFiles,
    ],
    [
      "a role deny beats the @everyone allow",
      regular,
      [roleOverwrite(GUILD, P.SendTTSMessages, 0n), roleOverwrite(ROLE.regular, 0n, P.SendTTSMessages)],
      EVERYONE_PERMS | P.EmbedLinks | P.AttachFiles,
    ],
    [
      "one role denies, another allows: allow wins whatever the order",
      mod,
      [roleOverwrite(ROLE.moderator, P.MentionEveryone, 0n), roleOverwrite(ROLE.regular, 0n, P.MentionEveryone)],
      computeBasePermissions(ctx, mod, NOW) | P.MentionEveryone,
    ],
    [
      "the same, overwrites listed the other way round",
      mod,
      [roleOverwrite(ROLE.regular, 0n, P.MentionEveryone), roleOverwrite(ROLE.moderator, P.MentionEveryone, 0n)],
      computeBasePermissions(ctx, mod, NOW) | P.MentionEveryone,
    ],
    [
      "a member deny beats a role allow",
      regular,
      [
        roleOverwrite(ROLE.regular, P.SendTTSMessages, 0n),
        memberOverwrite(regular.userId, 0n, P.SendTTSMessages | P.SendMessages),
      ],
      (EVERYONE_PERMS | P.EmbedLinks | P.AttachFiles) & ~P.SendMessages,
    ],
    [
      "a member allow beats a role deny",
      regular,
      [roleOverwrite(ROLE.regular, 0n, P.SendMessages), memberOverwrite(regular.userId, P.SendMessages, 0n)],
      EVERYONE_PERMS | P.EmbedLinks | P.AttachFiles,
    ],
    [
      "overwrites for roles the member lacks and for other members do not apply",
      regular,
      [roleOverwrite(ROLE.helper, 0n, P.SendMessages), memberOverwrite("42", 0n, P.ViewChannel)],
      EVERYONE_PERMS | P.EmbedLinks | P.AttachFiles,
    ],
    [
      "a member overwrite whose id equals a role id is still a member overwrite",
      regular,
      [memberOverwrite(ROLE.regular, 0n, P.ViewChannel)],
      EVERYONE_PERMS | P.EmbedLinks | P.AttachFiles,
    ],
    [
      "private channel: @everyone loses VIEW_CHANNEL, a role gets it back",
      helper,
      [roleOverwrite(GUILD, 0n, P.ViewChannel), roleOverwrite(ROLE.helper, P.ViewChannel, 0n)],
      EVERYONE_PERMS | P.KickMembers | P.ViewAuditLog,
    ],
    [
      "bits above 2^32 survive overwrites",
      plain,
      [roleOverwrite(GUILD, P.ModerateMembers | P.SendPolls, 0n)],
      EVERYONE_PERMS | P.ModerateMembers | P.SendPolls,
    ],
    [
      "an overwrite cannot grant ADMINISTRATOR",
      plain,
      [memberOverwrite(plain.userId, P.Administrator, 0n)],
      EVERYONE_PERMS,
    ],
    [
      "the owner ignores overwrites",
      owner,
      [roleOverwrite(GUILD, 0n, P.ViewChannel), memberOverwrite(OWNER, 0n, ALL_PERMISSIONS)],
      ALL_PERMISSIONS,
    ],
    [
      "ADMINISTRATOR ignores overwrites",
      admin,
      [roleOverwrite(ROLE.admin, 0n, P.ViewChannel), memberOverwrite(admin.userId, 0n, P.SendMessages)],
      ALL_PERMISSIONS,
    ],
  ])("%s", (_name, who, overwrites, expected) => {
    expect(computeChannelPermissions(ctx, who, overwrites, NOW)).toBe(expected);
  });

  test("permissionsFor with overwrites is the channel computation", () => {
    const overwrites = [roleOverwrite(GUILD, 0n, P.SendMessages)];
    expect(permissionsFor(ctx, plain, overwrites, NOW)).toBe(EVERYONE_PERMS & ~P.SendMessages);
  });
});

describe("timeouts", () => {
  const timedOut = member("9", [ROLE.moderator], FUTURE);

  test.each<[string, PermissionMember["communicationDisabledUntil"], boolean]>([
    ["no timeout", null, false],
    ["undefined", undefined, false],
    ["ms in the future", FUTURE, true],
    ["ms in the past", PAST, false],
    ["ending exactly now", NOW, false],
    ["ISO string in the future", new Date(FUTURE).toISOString(), true],
    ["ISO string in the past", new Date(PAST).toISOString(), false],
    ["numeric string", String(FUTURE), true],
    ["Date in the future", new Date(FUTURE), true],
    ["unparseable string", "soon", false],
  ])("isTimedOut: %s", (_name, until, expected) => {
    expect(isTimedOut(member("9", [], until), NOW)).toBe(expected);
  });

  test("now may be a Date", () => {
    expect(isTimedOut(timedOut, new Date(NOW))).toBe(true);
    expect(isTimedOut(timedOut, new Date(FUTURE + 1))).toBe(false);
  });

  test("a timed-out member keeps only VIEW_CHANNEL and READ_MESSAGE_HISTORY of their base", () => {
    expect(computeBasePermissions(ctx, timedOut, NOW)).toBe(P.ViewChannel | P.ReadMessageHistory);
    expect(TIMEOUT_ALLOWED_PERMISSIONS).toBe(P.ViewChannel | P.ReadMessageHistory);
  });

  test("a timeout that has ended strips nothing", () => {
    expect(computeBasePermissions(ctx, timedOut, FUTURE + 1)).toBe(
      computeBasePermissions(ctx, member("9", [ROLE.moderator]), NOW),
    );
  });

  test("a timeout cannot grant what the member lacked", () => {
    const noHistory: GuildPermissionContext = {
      ...ctx,
      roles: [{ id: GUILD, position: 0, permissions: P.ViewChannel | P.SendMessages }],
    };
    expect(computeBasePermissions(noHistory, member("9", [], FUTURE), NOW)).toBe(P.ViewChannel);
  });

  test("in a channel, overwrites cannot lift a timeout", () => {
    const overwrites = [memberOverwrite(timedOut.userId, P.SendMessages | P.ManageMessages, 0n)];
    expect(computeChannelPermissions(ctx, timedOut, overwrites, NOW)).toBe(P.ViewChannel | P.ReadMessageHistory);
  });

  test("in a channel, overwrites still deny a timed-out member: no VIEW_CHANNEL, only READ_MESSAGE_HISTORY left", () => {
    const overwrites = [roleOverwrite(GUILD, 0n, P.ViewChannel)];
    expect(computeChannelPermissions(ctx, timedOut, overwrites, NOW)).toBe(P.ReadMessageHistory);
  });

  test("owner and administrators are exempt", () => {
    expect(computeBasePermissions(ctx, member(OWNER, [], FUTURE), NOW)).toBe(ALL_PERMISSIONS);
    expect(computeBasePermissions(ctx, member("2", [ROLE.admin], FUTURE), NOW)).toBe(ALL_PERMISSIONS);
    expect(computeChannelPermissions(ctx, member("2", [ROLE.admin], FUTURE), [], NOW)).toBe(ALL_PERMISSIONS);
  });
});

describe("role hierarchy", () => {
  const role = (id: string) => {
    const found = ctx.roles.find((r) => r.id === id);
    if (!found) throw new Error(`no role ${id}`);
    return found;
  };

  test.each([
    ["higher position is above", role(ROLE.moderator), role(ROLE.helper), 1],
    ["lower position is below", role(ROLE.helper), role(ROLE.moderator), -1],
    ["same role", role(ROLE.helper), role(ROLE.helper), 0],
    ["equal position: the lower id is above", role(ROLE.tieOlder), role(ROLE.tieNewer), 1],
    ["equal position: the higher id is below", role(ROLE.tieNewer), role(ROLE.tieOlder), -1],
  ])("compareRolePositions: %s", (_name, a, b, sign) => {
    expect(Math.sign(compareRolePositions(a, b))).toBe(sign);
  });

  test.each([
    ["no roles: @everyone", [], ROLE.everyone],
    ["the highest of several", [ROLE.regular, ROLE.moderator], ROLE.moderator],
    ["unknown ids ignored", ["999", ROLE.helper], ROLE.helper],
    ["tie broken by id", [ROLE.tieNewer, ROLE.tieOlder], ROLE.tieOlder],
  ])("highestRole: %s", (_name, roleIds, expected) => {
    expect(highestRole(ctx, roleIds).id).toBe(expected);
  });

  test.each<[string, PermissionMember, string, { ok: true } | { ok: false; reason: string }]>([
    ["below the actor's highest role", mod, ROLE.helper, { ok: true }],
    ["the actor's own highest role", mod, ROLE.moderator, { ok: false, reason: "role is your highest role" }],
    ["above the actor's highest role", helper, ROLE.moderator, { ok: false, reason: "role is above yours" }],
    [
      "ADMINISTRATOR does not bypass the hierarchy",
      admin,
      ROLE.admin,
      { ok: false, reason: "role is your highest role" },
    ],
    ["administrators manage lower roles", admin, ROLE.moderator, { ok: true }],
    ["the owner manages any role", owner, ROLE.admin, { ok: true }],
    ["equal position, older role is above the newer", member("10", [ROLE.tieOlder]), ROLE.tieNewer, { ok: true }],
    [
      "equal position, newer role cannot manage the older",
      member("10", [ROLE.tieNewer]),
      ROLE.tieOlder,
      { ok: false, reason: "role is above yours" },
    ],
    [
      "a member with no roles cannot manage @everyone",
      plain,
      ROLE.everyone,
      { ok: false, reason: "role is your highest role" },
    ],
  ])("canManageRole: %s", (_name, actor, roleId, expected) => {
    expect(canManageRole(ctx, actor, role(roleId))).toEqual(expected);
  });

  const ABOVE = { ok: false, reason: "member's highest role is above or equal to yours" };
  const OWNER_TARGET = { ok: false, reason: "nobody can act on the server owner" };
  test.each<[string, PermissionMember, PermissionMember, { ok: true } | { ok: false; reason: string }]>([
    ["higher acts on lower", mod, helper, { ok: true }],
    ["lower cannot act on higher", helper, mod, ABOVE],
    ["equal highest role cannot act", member("11", [ROLE.helper]), helper, ABOVE],
    ["cannot act on oneself", helper, helper, ABOVE],
    ["a member with no roles cannot act on another", plain, member("12"), ABOVE],
    ["any role acts on a member with none", regular, plain, { ok: true }],
    [
      "equal position: older role acts on newer",
      member("10", [ROLE.tieOlder]),
      member("13", [ROLE.tieNewer]),
      { ok: true },
    ],
    [
      "equal position: newer role cannot act on older",
      member("13", [ROLE.tieNewer]),
      member("10", [ROLE.tieOlder]),
      ABOVE,
    ],
    ["ADMINISTRATOR does not bypass the hierarchy", admin, member("14", [ROLE.admin]), ABOVE],
    ["the owner acts on administrators", owner, admin, { ok: true }],
    ["nobody acts on the owner: admin", admin, owner, OWNER_TARGET],
    ["nobody acts on the owner: not even the owner", owner, owner, OWNER_TARGET],
  ])("canActOnMember: %s", (_name, actor, target, expected) => {
    expect(canActOnMember(ctx, actor, target)).toEqual(expected);
  });
});

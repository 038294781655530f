// Who may do what, once: for every operation of the guild API (named as Discord names it), the token kinds that may
// call it, the OAuth2 scopes a user's Bearer token needs, the permission flags and the role-hierarchy rule. One judge
// reads it for the built-in API (in the write transaction), the dashboard's bot-mode guards and the pages' disabled
// states. The same file says who receives each gateway dispatch (read by the gateway's audience) and who may see
// each section of the dashboard (read by the sidebar, the pages and the live stream). Pure: no database, no I/O (the
// dashboard imports it; it never imports lib/guild-api).
import { GatewayIntentBits as Intent, PermissionFlagsBits as P } from "discord-api-types/v10";
import {
  canActOnMember,
  canManageRole,
  describeMissing,
  hasPermission,
  type GuildPermissionContext,
  type PermissionMember,
  type RolePosition,
} from "./permissions";

/** How a request authenticates: an application's bot, a user's OAuth2 access token, or nothing at all. */
export type TokenKind = "bot" | "bearer" | "anonymous";

/**
 * Guildhall's own scope: a user's Bearer token may manage a guild with that user's permissions (the dashboard's way
 * in). Discord offers nothing like it: there, every management endpoint takes a bot token only.
 */
export const MANAGE_SCOPE = "guildhall.manage";

/** What the scope grants, in the consent page's words. */
export const MANAGE_SCOPE_DESCRIPTION = "Manage your servers with your permissions";

/**
 * Alternatives: the caller needs every flag of at least one entry. `[]` needs nothing; `[A | B]` needs A and B;
 * `[A, B]` needs A or B.
 */
export type PermissionRequirement = readonly bigint[];

export type HierarchyRule = "none" | "target-member-below-caller" | "role-below-caller";

export interface OperationPolicy {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The route under /api/v10, for people reading the table. */
  path: string;
  tokens: readonly TokenKind[];
  /** Every one of these is needed by a Bearer token (bots are not scoped). */
  scopes: readonly string[];
  permissions: PermissionRequirement;
  hierarchy: HierarchyRule;
  /** Extra requirements when the body sets a field (Modify Guild Member's nick → MANAGE_NICKNAMES, …). */
  fields?: Readonly<Record<string, PermissionRequirement>>;
  /** Judged with the caller's permissions in the operation's channel (overwrites applied), not the guild's. */
  inChannel?: boolean;
  /** The invite's creator passes without the permissions (target users). */
  inviterMay?: boolean;
  /** Why the operation is Guildhall's own: Discord has no such route (DISCORD_STRICT=1 leaves it unrouted). */
  extension?: string;
  /** Discord's requirement, where Guildhall's is more lenient (what DISCORD_STRICT=1 asks). */
  discordPermissions?: PermissionRequirement;
}

const NONE: PermissionRequirement = [];
const all = (...flags: bigint[]): PermissionRequirement => [flags.reduce((bits, flag) => bits | flag, 0n)];
const anyOf = (...masks: bigint[]): PermissionRequirement => masks;

const MANAGE: readonly TokenKind[] = ["bot", "bearer"];
const manage = (
  method: OperationPolicy["method"],
  path: string,
  permissions: PermissionRequirement,
  extra: Partial<Omit<OperationPolicy, "method" | "path" | "permissions">> = {},
): OperationPolicy => ({
  method,
  path,
  tokens: MANAGE,
  scopes: [MANAGE_SCOPE],
  permissions,
  hierarchy: "none",
  ...extra,
});

const userOnly = (method: OperationPolicy["method"], path: string, scope: string | null): OperationPolicy => ({
  method,
  path,
  tokens: ["bot", "bearer"],
  scopes: scope ? [scope] : [],
  permissions: NONE,
  hierarchy: "none",
});

const anonymous = (method: OperationPolicy["method"], path: string): OperationPolicy => ({
  method,
  path,
  tokens: ["anonymous", "bot", "bearer"],
  scopes: [],
  permissions: NONE,
  hierarchy: "none",
});

/** Modify Guild Member's per-field permissions (the spec's table). */
const MEMBER_FIELDS: Readonly<Record<string, PermissionRequirement>> = {
  nick: all(P.ManageNicknames),
  roles: all(P.ManageRoles),
  mute: all(P.MuteMembers),
  deaf: all(P.DeafenMembers),
  channel_id: all(P.MoveMembers),
  communication_disabled_until: all(P.ModerateMembers),
  flags: anyOf(P.ManageGuild, P.ManageRoles, P.ModerateMembers | P.KickMembers | P.BanMembers),
};

/** Create Expressions or Manage Expressions. */
const EXPRESSIONS = anyOf(P.CreateGuildExpressions, P.ManageGuildExpressions);
const INTEREST_EXTENSION =
  "Discord's client marks interest in an event through a user-only route that OAuth2 tokens and bots may not call";

export const POLICIES = {
  // ── Users and OAuth2 ─────────────────────────────────────────────────────────────────────────────────────────
  "Get Current User": userOnly("GET", "/users/@me", "identify"),
  "Get Current User Guilds": userOnly("GET", "/users/@me/guilds", "guilds"),
  "Get Current User Guild Member": {
    ...userOnly("GET", "/users/@me/guilds/{guild.id}/member", "guilds.members.read"),
    tokens: ["bearer"],
  },
  "Get Current Authorization Information": userOnly("GET", "/oauth2/@me", null),
  // Names for ids: bots, and the dashboard with a moderator's token (a Guildhall extension for Bearer tokens).
  "Get User": manage("GET", "/users/{user.id}", NONE),
  "List Voice Regions": userOnly("GET", "/voice/regions", null),
  "Token Exchange": { ...anonymous("POST", "/oauth2/token"), tokens: ["anonymous"] },
  "Token Revocation": { ...anonymous("POST", "/oauth2/token/revoke"), tokens: ["anonymous"] },

  // ── Applications (the application behind the token; its owner for Bearer tokens) ────────────────────────────
  "Get Current Application": manage("GET", "/applications/@me", NONE),
  // What discord.py's login() reads first (Discord: a bot token's application).
  "Get Current Bot Application Information": manage("GET", "/oauth2/applications/@me", NONE),
  "Edit Current Application": manage("PATCH", "/applications/@me", NONE),
  "Get Global Application Commands": manage("GET", "/applications/{application.id}/commands", NONE),

  // ── Guild ────────────────────────────────────────────────────────────────────────────────────────────────────
  "Get Guild": manage("GET", "/guilds/{guild.id}", NONE),
  "Get Guild Preview": manage("GET", "/guilds/{guild.id}/preview", NONE),
  "Modify Guild": manage("PATCH", "/guilds/{guild.id}", all(P.ManageGuild), {
    // Adding or removing COMMUNITY needs ADMINISTRATOR (judged by the service, which knows the guild's features).
    fields: { features: all(P.ManageGuild) },
  }),
  "Get Guild Audit Log": manage("GET", "/guilds/{guild.id}/audit-logs", all(P.ViewAuditLog)),
  "List Guild Events": manage("GET", "/guilds/{guild.id}/events", all(P.ManageGuild), {
    extension: "the outbox of the guild's gateway dispatches, for readers without a gateway connection",
  }),

  // ── Channels ─────────────────────────────────────────────────────────────────────────────────────────────────
  // Discord's OpenAPI lets any user token (no scope) list a guild's channels: Activities read them so.
  "Get Guild Channels": { ...manage("GET", "/guilds/{guild.id}/channels", NONE), scopes: [] },
  "Create Guild Channel": manage("POST", "/guilds/{guild.id}/channels", all(P.ManageChannels)),
  "Modify Guild Channel Positions": manage("PATCH", "/guilds/{guild.id}/channels", all(P.ManageChannels)),
  "List Active Guild Threads": manage("GET", "/guilds/{guild.id}/threads/active", NONE),
  // One channel, judged with the caller's permissions in it. A thread is modified or closed by its owner or with
  // MANAGE_THREADS in its parent instead (judged by the service, which knows the thread).
  "Get Channel": manage("GET", "/channels/{channel.id}", all(P.ViewChannel), { inChannel: true }),
  "Modify Channel": manage("PATCH", "/channels/{channel.id}", all(P.ManageChannels), {
    inChannel: true,
    fields: { permission_overwrites: all(P.ManageRoles) },
  }),
  "Delete/Close Channel": manage("DELETE", "/channels/{channel.id}", all(P.ManageChannels), { inChannel: true }),
  "Get Channel Invites": manage("GET", "/channels/{channel.id}/invites", all(P.ManageChannels), { inChannel: true }),
  "Edit Channel Permissions": manage("PUT", "/channels/{channel.id}/permissions/{overwrite.id}", all(P.ManageRoles), {
    inChannel: true,
  }),
  "Delete Channel Permission": manage(
    "DELETE",
    "/channels/{channel.id}/permissions/{overwrite.id}",
    all(P.ManageRoles),
    { inChannel: true },
  ),

  // ── Roles ────────────────────────────────────────────────────────────────────────────────────────────────────
  "Get Guild Roles": manage("GET", "/guilds/{guild.id}/roles", NONE),
  "Get Guild Role": manage("GET", "/guilds/{guild.id}/roles/{role.id}", NONE),
  "Get Guild Role Member Counts": manage("GET", "/guilds/{guild.id}/roles/member-counts", NONE),
  "Create Guild Role": manage("POST", "/guilds/{guild.id}/roles", all(P.ManageRoles)),
  "Modify Guild Role Positions": manage("PATCH", "/guilds/{guild.id}/roles", all(P.ManageRoles), {
    hierarchy: "role-below-caller",
  }),
  "Modify Guild Role": manage("PATCH", "/guilds/{guild.id}/roles/{role.id}", all(P.ManageRoles), {
    hierarchy: "role-below-caller",
  }),
  "Delete Guild Role": manage("DELETE", "/guilds/{guild.id}/roles/{role.id}", all(P.ManageRoles), {
    hierarchy: "role-below-caller",
  }),

  // ── Members ──────────────────────────────────────────────────────────────────────────────────────────────────
  "List Guild Members": manage("GET", "/guilds/{guild.id}/members", NONE),
  "Search Guild Members": manage("GET", "/guilds/{guild.id}/members/search", NONE),
  // Discord asks for MANAGE_GUILD; Guildhall also lets those who act on members search them
  // (docs/api-and-compatibility.md).
  "Search Guild Members v2": manage(
    "POST",
    "/guilds/{guild.id}/members-search",
    anyOf(P.ManageGuild, P.KickMembers, P.BanMembers, P.ModerateMembers),
    { discordPermissions: all(P.ManageGuild) },
  ),
  "Get Guild Member": manage("GET", "/guilds/{guild.id}/members/{user.id}", NONE),
  // A bot only; the user comes as an OAuth2 token with guilds.join in the body (judged by the service).
  "Add Guild Member": {
    ...manage("PUT", "/guilds/{guild.id}/members/{user.id}", all(P.CreateInstantInvite)),
    tokens: ["bot"],
    scopes: [],
    fields: {
      nick: all(P.ManageNicknames),
      roles: all(P.ManageRoles),
      mute: all(P.MuteMembers),
      deaf: all(P.DeafenMembers),
    },
  },
  "Modify Guild Member": manage("PATCH", "/guilds/{guild.id}/members/{user.id}", NONE, {
    hierarchy: "target-member-below-caller",
    fields: MEMBER_FIELDS,
  }),
  "Modify Current Member": manage("PATCH", "/guilds/{guild.id}/members/@me", NONE, {
    fields: { nick: all(P.ChangeNickname) },
  }),
  "Modify Current User Nick": manage("PATCH", "/guilds/{guild.id}/members/@me/nick", all(P.ChangeNickname)),
  "Add Guild Member Role": manage("PUT", "/guilds/{guild.id}/members/{user.id}/roles/{role.id}", all(P.ManageRoles), {
    hierarchy: "role-below-caller",
  }),
  "Remove Guild Member Role": manage(
    "DELETE",
    "/guilds/{guild.id}/members/{user.id}/roles/{role.id}",
    all(P.ManageRoles),
    { hierarchy: "role-below-caller" },
  ),
  "Remove Guild Member": manage("DELETE", "/guilds/{guild.id}/members/{user.id}", all(P.KickMembers), {
    hierarchy: "target-member-below-caller",
  }),
  "Complete Membership Screening": manage("PUT", "/guilds/{guild.id}/requests/@me", NONE),

  // ── Bans and prune ───────────────────────────────────────────────────────────────────────────────────────────
  "Get Guild Bans": manage("GET", "/guilds/{guild.id}/bans", all(P.BanMembers)),
  "Get Guild Ban": manage("GET", "/guilds/{guild.id}/bans/{user.id}", all(P.BanMembers)),
  "Create Guild Ban": manage("PUT", "/guilds/{guild.id}/bans/{user.id}", all(P.BanMembers), {
    hierarchy: "target-member-below-caller",
  }),
  "Remove Guild Ban": manage("DELETE", "/guilds/{guild.id}/bans/{user.id}", all(P.BanMembers)),
  "Bulk Guild Ban": manage("POST", "/guilds/{guild.id}/bulk-ban", all(P.BanMembers, P.ManageGuild), {
    hierarchy: "target-member-below-caller",
  }),
  "Get Guild Prune Count": manage("GET", "/guilds/{guild.id}/prune", all(P.ManageGuild, P.KickMembers)),
  "Begin Guild Prune": manage("POST", "/guilds/{guild.id}/prune", all(P.ManageGuild, P.KickMembers)),

  // ── Integrations, voice regions, vanity URL ──────────────────────────────────────────────────────────────────
  "Get Guild Voice Regions": manage("GET", "/guilds/{guild.id}/regions", NONE),
  "Get Guild Integrations": manage("GET", "/guilds/{guild.id}/integrations", all(P.ManageGuild)),
  "Delete Guild Integration": manage("DELETE", "/guilds/{guild.id}/integrations/{integration.id}", all(P.ManageGuild)),
  "Get Guild Vanity URL": manage("GET", "/guilds/{guild.id}/vanity-url", all(P.ManageGuild)),

  // ── Invites ──────────────────────────────────────────────────────────────────────────────────────────────────
  "Create Channel Invite": manage("POST", "/channels/{channel.id}/invites", all(P.CreateInstantInvite), {
    inChannel: true,
    fields: { role_ids: all(P.ManageRoles) },
  }),
  "Get Invite": anonymous("GET", "/invites/{invite.code}"),
  // MANAGE_CHANNELS on the invite's channel, or MANAGE_GUILD for any invite of the guild.
  "Delete Invite": manage("DELETE", "/invites/{invite.code}", anyOf(P.ManageChannels, P.ManageGuild), {
    inChannel: true,
  }),
  // Guildhall's join path for a user: the Bearer token needs guilds.join, as Add Guild Member's access_token does.
  "Accept Invite": {
    ...userOnly("POST", "/invites/{invite.code}", "guilds.join"),
    tokens: ["bearer"],
    extension: "Discord's clients join through an undocumented route that OAuth2 tokens may not call",
  },
  "Get Guild Invites": manage("GET", "/guilds/{guild.id}/invites", anyOf(P.ManageGuild, P.ViewAuditLog)),
  "Get Target Users": manage("GET", "/invites/{invite.code}/target-users", anyOf(P.ManageGuild, P.ViewAuditLog), {
    inviterMay: true,
  }),
  "Update Target Users": manage("PUT", "/invites/{invite.code}/target-users", all(P.ManageGuild), {
    inviterMay: true,
  }),
  "Get Target Users Job Status": manage(
    "GET",
    "/invites/{invite.code}/target-users/job-status",
    anyOf(P.ManageGuild, P.ViewAuditLog),
    { inviterMay: true },
  ),

  // ── Widget, welcome screen, onboarding, incident actions ────────────────────────────────────────────────────
  "Get Guild Widget Settings": manage("GET", "/guilds/{guild.id}/widget", all(P.ManageGuild)),
  "Modify Guild Widget": manage("PATCH", "/guilds/{guild.id}/widget", all(P.ManageGuild)),
  "Get Guild Widget": { ...anonymous("GET", "/guilds/{guild.id}/widget.json"), tokens: ["anonymous"] },
  "Get Guild Widget Image": { ...anonymous("GET", "/guilds/{guild.id}/widget.png"), tokens: ["anonymous"] },
  // MANAGE_GUILD only while the welcome screen is disabled (judged by the service, which knows).
  "Get Guild Welcome Screen": manage("GET", "/guilds/{guild.id}/welcome-screen", NONE),
  "Modify Guild Welcome Screen": manage("PATCH", "/guilds/{guild.id}/welcome-screen", all(P.ManageGuild)),
  "Get Guild Onboarding": manage("GET", "/guilds/{guild.id}/onboarding", NONE),
  "Modify Guild Onboarding": manage("PUT", "/guilds/{guild.id}/onboarding", all(P.ManageGuild, P.ManageRoles)),
  "Modify Guild Incident Actions": manage("PUT", "/guilds/{guild.id}/incident-actions", all(P.ManageGuild)),

  // ── AutoMod ──────────────────────────────────────────────────────────────────────────────────────────────────
  // Discord: "Users must have the MANAGE_GUILD permission" on every rule route, reads included. A timeout action
  // also needs MODERATE_MEMBERS (judged by the service, which reads the actions).
  "List Auto Moderation Rules": manage("GET", "/guilds/{guild.id}/auto-moderation/rules", all(P.ManageGuild)),
  "Get Auto Moderation Rule": manage("GET", "/guilds/{guild.id}/auto-moderation/rules/{rule.id}", all(P.ManageGuild)),
  "Create Auto Moderation Rule": manage("POST", "/guilds/{guild.id}/auto-moderation/rules", all(P.ManageGuild)),
  "Modify Auto Moderation Rule": manage(
    "PATCH",
    "/guilds/{guild.id}/auto-moderation/rules/{rule.id}",
    all(P.ManageGuild),
  ),
  "Delete Auto Moderation Rule": manage(
    "DELETE",
    "/guilds/{guild.id}/auto-moderation/rules/{rule.id}",
    all(P.ManageGuild),
  ),

  // ── Expressions (emoji, stickers, soundboard sounds) ─────────────────────────────────────────────────────────
  // Reads are every member's. Creating needs Create Expressions or Manage Expressions; changing or deleting one's own
  // upload needs either, someone else's Manage Expressions (judged by the service, which knows the uploader).
  "List Guild Emojis": manage("GET", "/guilds/{guild.id}/emojis", NONE),
  "Get Guild Emoji": manage("GET", "/guilds/{guild.id}/emojis/{emoji.id}", NONE),
  "Create Guild Emoji": manage("POST", "/guilds/{guild.id}/emojis", EXPRESSIONS),
  "Modify Guild Emoji": manage("PATCH", "/guilds/{guild.id}/emojis/{emoji.id}", EXPRESSIONS),
  "Delete Guild Emoji": manage("DELETE", "/guilds/{guild.id}/emojis/{emoji.id}", EXPRESSIONS),
  "List Guild Stickers": manage("GET", "/guilds/{guild.id}/stickers", NONE),
  "Get Guild Sticker": manage("GET", "/guilds/{guild.id}/stickers/{sticker.id}", NONE),
  "Create Guild Sticker": manage("POST", "/guilds/{guild.id}/stickers", EXPRESSIONS),
  "Modify Guild Sticker": manage("PATCH", "/guilds/{guild.id}/stickers/{sticker.id}", EXPRESSIONS),
  "Delete Guild Sticker": manage("DELETE", "/guilds/{guild.id}/stickers/{sticker.id}", EXPRESSIONS),
  "List Guild Soundboard Sounds": manage("GET", "/guilds/{guild.id}/soundboard-sounds", NONE),
  "Get Guild Soundboard Sound": manage("GET", "/guilds/{guild.id}/soundboard-sounds/{sound.id}", NONE),
  "Create Guild Soundboard Sound": manage("POST", "/guilds/{guild.id}/soundboard-sounds", EXPRESSIONS),
  "Modify Guild Soundboard Sound": manage("PATCH", "/guilds/{guild.id}/soundboard-sounds/{sound.id}", EXPRESSIONS),
  "Delete Guild Soundboard Sound": manage("DELETE", "/guilds/{guild.id}/soundboard-sounds/{sound.id}", EXPRESSIONS),
  // ── Guild scheduled events ───────────────────────────────────────────────────────────────────────────────────
  // Reads need nothing more than membership; an event in a channel the caller cannot view is hidden (the service).
  // Creating needs Create Events or Manage Events, plus the channel's permissions for stage and voice events;
  // changing or deleting one's own event needs either, another's Manage Events (the service, which knows the creator).
  "List Scheduled Events for Guild": manage("GET", "/guilds/{guild.id}/scheduled-events", NONE),
  "Get Guild Scheduled Event": manage("GET", "/guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}", NONE),
  "Create Guild Scheduled Event": manage(
    "POST",
    "/guilds/{guild.id}/scheduled-events",
    anyOf(P.CreateEvents, P.ManageEvents),
  ),
  "Modify Guild Scheduled Event": manage(
    "PATCH",
    "/guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}",
    anyOf(P.CreateEvents, P.ManageEvents),
  ),
  "Delete Guild Scheduled Event": manage(
    "DELETE",
    "/guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}",
    anyOf(P.CreateEvents, P.ManageEvents),
  ),
  "Get Guild Scheduled Event Users": manage(
    "GET",
    "/guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}/users",
    NONE,
  ),
  // Discord's client marks interest with these user-only routes; Guildhall opens them to a user's Bearer token
  // (docs/api-and-compatibility.md). A bot is refused with Discord's 20001 (the service).
  "Create Guild Scheduled Event User": manage(
    "PUT",
    "/guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}/users/@me",
    NONE,
    { extension: INTEREST_EXTENSION },
  ),
  "Delete Guild Scheduled Event User": manage(
    "DELETE",
    "/guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}/users/@me",
    NONE,
    { extension: INTEREST_EXTENSION },
  ),

  // ── Gateway ──────────────────────────────────────────────────────────────────────────────────────────────────
  "Get Gateway": { ...anonymous("GET", "/gateway"), tokens: ["anonymous"] },
  // Bots, and users whose token may manage guilds (the gateway takes both at IDENTIFY).
  "Get Gateway Bot": manage("GET", "/gateway/bot", NONE),
} as const satisfies Record<string, OperationPolicy>;

export type OperationName = keyof typeof POLICIES;

export function policyOf(operation: OperationName): OperationPolicy {
  return POLICIES[operation];
}

/**
 * The operation on Discord's terms, or null when Discord has no such route. Discord lets a user's OAuth2 token call
 * none of the management routes (every route behind Guildhall's management scope takes a bot token only there), and
 * asks its own permissions where Guildhall asks fewer.
 */
export function discordPolicyOf(operation: OperationName): OperationPolicy | null {
  const policy: OperationPolicy = POLICIES[operation];
  if (policy.extension) return null;
  const managed = policy.scopes.includes(MANAGE_SCOPE);
  return {
    ...policy,
    tokens: managed ? policy.tokens.filter((kind) => kind !== "bearer") : policy.tokens,
    scopes: managed ? [] : policy.scopes,
    permissions: policy.discordPermissions ?? policy.permissions,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The judge

export type Refusal =
  /** The token kind may not call this operation (Discord: 401 for a Bearer token on a bot-only route). */
  | { ok: false; reason: "token"; message: string }
  /** A Bearer token without a scope the operation needs. */
  | { ok: false; reason: "scope"; missingScopes: string[]; message: string }
  /** Missing permission flags (or a pending member, who holds none). */
  | { ok: false; reason: "permission"; message: string }
  /** The target member or role is not below the caller's highest role. */
  | { ok: false; reason: "hierarchy"; message: string };

export type Verdict = { ok: true } | Refusal;

const OK: Verdict = { ok: true };

export interface TokenSubject {
  tokenKind: TokenKind;
  /** A Bearer token's granted scopes; ignored for other kinds. */
  scopes?: ReadonlySet<string> | readonly string[];
}

/** Whether this kind of token, with these scopes, may call the operation at all (by `policy`: the table's by default). */
export function judgeToken(
  operation: OperationName,
  subject: TokenSubject,
  policy: OperationPolicy = POLICIES[operation],
): Verdict {
  if (!policy.tokens.includes(subject.tokenKind)) {
    return { ok: false, reason: "token", message: `${operation} does not accept a ${subject.tokenKind} token` };
  }
  if (subject.tokenKind !== "bearer") return OK;
  const granted = subject.scopes ?? [];
  const has = (scope: string) => (granted instanceof Set ? granted.has(scope) : (granted as string[]).includes(scope));
  const missingScopes = policy.scopes.filter((scope) => !has(scope));
  return missingScopes.length === 0
    ? OK
    : { ok: false, reason: "scope", missingScopes, message: `needs the ${missingScopes.join(", ")} scope` };
}

export interface MemberSubject {
  /** Guild-wide permissions (or the channel's, for operations judged in a channel). */
  permissions: bigint;
  isOwner?: boolean;
  /** A member still in membership screening holds no permissions (the owner excepted). */
  pending?: boolean;
  /** The invite's creator, for operations the inviter may do without permissions. */
  isInviter?: boolean;
  /** Body fields the request sets (those with a value other than undefined). */
  fields?: readonly string[];
}

/** Whether `permissions` hold every flag of at least one of the requirement's alternatives (`[]`: always). */
export const meetsRequirement = (permissions: bigint, requirement: PermissionRequirement): boolean =>
  requirement.length === 0 || requirement.some((mask) => hasPermission(permissions, mask));

function describeRequirement(permissions: bigint, requirement: PermissionRequirement): string {
  if (requirement.length === 1) return describeMissing(permissions, requirement[0]) ?? "missing permissions";
  // "needs Manage Server, Manage Roles, or Timeout Members, Kick Members and Ban Members"
  const options = requirement.map((mask) => (describeMissing(0n, mask) ?? "").replace(/^needs /, ""));
  const last = options.pop();
  return `needs ${options.join(", ")}${options.length > 1 ? "," : ""} or ${last}`;
}

/** The flags an operation needs of this member, the body's fields included (by `policy`: the table's by default). */
export function judgePermissions(
  operation: OperationName,
  subject: MemberSubject,
  policy: OperationPolicy = POLICIES[operation],
): Verdict {
  if (policy.inviterMay && subject.isInviter) return OK;
  const requirements: PermissionRequirement[] = [policy.permissions];
  for (const field of subject.fields ?? []) {
    const requirement = policy.fields?.[field];
    if (requirement) requirements.push(requirement);
  }
  const needsAnything = requirements.some((requirement) => requirement.length > 0);
  if (!needsAnything) return OK;
  if (subject.isOwner) return OK;
  if (subject.pending) return { ok: false, reason: "permission", message: "members in screening hold no permissions" };
  for (const requirement of requirements) {
    if (!meetsRequirement(subject.permissions, requirement)) {
      return { ok: false, reason: "permission", message: describeRequirement(subject.permissions, requirement) };
    }
  }
  return OK;
}

export interface HierarchySubject {
  context: GuildPermissionContext;
  self: PermissionMember;
  targetMember?: PermissionMember | null;
  targetRole?: RolePosition | null;
}

/** The operation's hierarchy rule for one target (no target: nothing to judge). */
export function judgeHierarchy(operation: OperationName, subject: HierarchySubject): Verdict {
  const rule: HierarchyRule = POLICIES[operation].hierarchy;
  if (rule === "target-member-below-caller" && subject.targetMember) {
    if (subject.targetMember.userId === subject.self.userId) return OK;
    const verdict = canActOnMember(subject.context, subject.self, subject.targetMember);
    return verdict.ok ? OK : { ok: false, reason: "hierarchy", message: verdict.reason };
  }
  if (rule === "role-below-caller" && subject.targetRole) {
    const verdict = canManageRole(subject.context, subject.self, subject.targetRole);
    return verdict.ok ? OK : { ok: false, reason: "hierarchy", message: verdict.reason };
  }
  return OK;
}

export type Subject = TokenSubject & Partial<MemberSubject> & Partial<HierarchySubject>;

/**
 * The whole verdict: token kind and scopes, then permissions (when `permissions` is given), then the hierarchy (when a
 * target is given). Bot-mode callers judge the moderator as a Bearer token with the management scope would be.
 */
export function judge(operation: OperationName, subject: Subject): Verdict {
  const token = judgeToken(operation, subject);
  if (!token.ok) return token;
  if (subject.permissions !== undefined) {
    const permissions = judgePermissions(operation, { ...subject, permissions: subject.permissions });
    if (!permissions.ok) return permissions;
  }
  if (subject.context && subject.self) {
    return judgeHierarchy(operation, { ...subject, context: subject.context, self: subject.self });
  }
  return OK;
}

/** The refusal as the dashboard shows it ("needs Ban Members"), or null when allowed. */
export const refusalText = (verdict: Verdict): string | null => (verdict.ok ? null : verdict.message);

// ---------------------------------------------------------------------------------------------------------------
// The gateway's dispatches: who receives each

/** Where a dispatch's permissions are judged. */
export type DispatchScope =
  /** The guild: the member's guild-wide permissions. */
  | "guild"
  /** The event's channel, its overwrites applied (the channel itself for CHANNEL_*, `channel_id` otherwise). */
  | "channel"
  /** A thread, seen through its parent channel's overwrites; a private one only by its members and Manage Threads. */
  | "thread"
  /** One session: the gateway's own answer to it (READY, RESUMED, the member chunks it asked for). */
  | "session";

export interface DispatchPolicy {
  /** The intent that gates it (Discord's intents table); null: sent whatever the intents. */
  intent: number | null;
  /** Alternatives, as for operations, judged in `scope`: `[A | B]` needs A and B, `[A, B]` needs A or B. */
  permissions: PermissionRequirement;
  scope: DispatchScope;
  /** The member the event is about receives it whatever their intents. */
  subjectAlways?: boolean;
  /** Where the rule comes from, when it is not Discord's documentation (Discord names no permission there). */
  note?: string;
}

const toGuild = (intent: number, permissions: PermissionRequirement = NONE): DispatchPolicy => ({
  intent,
  permissions,
  scope: "guild",
});
/** A channel's event: only for those who can view the channel, holding `flags` in it too. */
const inChannel = (intent: number, ...flags: bigint[]): DispatchPolicy => ({
  intent,
  permissions: all(P.ViewChannel, ...flags),
  scope: "channel",
});
const toSession: DispatchPolicy = { intent: null, permissions: NONE, scope: "session" };
const INTEGRATIONS_NOTE =
  "Guildhall's rule: Discord's documentation names no permission for integration events; the integrations " +
  "themselves are read with MANAGE_GUILD only (Get Guild Integrations), so only their readers hear of changes.";

/**
 * Every dispatch the gateway sends, with who receives it: Discord's "Gateway Intents" list for the intent, and the
 * permission each event's documentation names ("only sent to bots with the BAN_MEMBERS or VIEW_AUDIT_LOG
 * permission", "only sent to bot users with the MANAGE_CHANNELS permission on the channel"). Every recipient is also
 * a member of the guild (the gateway follows only its sessions' guilds). The gateway's audience reads this table;
 * tests/unit/dispatch-policies.test.ts fails when the gateway can send a dispatch that has no entry (and when a
 * section the live stream names, or a page of a guild, has none in SECTION_POLICIES below).
 */
export const DISPATCH_POLICIES = {
  // Composed by the gateway for one session.
  READY: toSession,
  RESUMED: toSession,
  // The answer to that session's REQUEST_GUILD_MEMBERS; the whole list needs GUILD_MEMBERS, presences
  // GUILD_PRESENCES (judged when the request is read).
  GUILD_MEMBERS_CHUNK: toSession,
  // A guild the session follows: at READY, on joining, on leaving (GUILD_DELETE). GUILD_CREATE lists only the
  // channels and threads the member can view.
  GUILD_CREATE: toGuild(Intent.Guilds),
  GUILD_UPDATE: toGuild(Intent.Guilds),
  GUILD_DELETE: toGuild(Intent.Guilds),
  GUILD_ROLE_CREATE: toGuild(Intent.Guilds),
  GUILD_ROLE_UPDATE: toGuild(Intent.Guilds),
  GUILD_ROLE_DELETE: toGuild(Intent.Guilds),
  // CHANNEL_* carry the channel, so its overwrites (after the change, or as it was when deleted) decide.
  CHANNEL_CREATE: inChannel(Intent.Guilds),
  CHANNEL_UPDATE: inChannel(Intent.Guilds),
  CHANNEL_DELETE: inChannel(Intent.Guilds),
  // A thread is seen through its parent; a private one only by its members and Manage Threads in the parent.
  THREAD_UPDATE: { ...inChannel(Intent.Guilds), scope: "thread" },
  THREAD_DELETE: { ...inChannel(Intent.Guilds), scope: "thread" },
  GUILD_MEMBER_ADD: toGuild(Intent.GuildMembers),
  // "Guild Member Update is sent for current-user updates regardless of whether the GUILD_MEMBERS intent is set."
  GUILD_MEMBER_UPDATE: { ...toGuild(Intent.GuildMembers), subjectAlways: true },
  GUILD_MEMBER_REMOVE: toGuild(Intent.GuildMembers),
  GUILD_BAN_ADD: toGuild(Intent.GuildModeration, anyOf(P.BanMembers, P.ViewAuditLog)),
  GUILD_BAN_REMOVE: toGuild(Intent.GuildModeration, anyOf(P.BanMembers, P.ViewAuditLog)),
  GUILD_AUDIT_LOG_ENTRY_CREATE: toGuild(Intent.GuildModeration, all(P.ViewAuditLog)),
  GUILD_INTEGRATIONS_UPDATE: { ...toGuild(Intent.GuildIntegrations, all(P.ManageGuild)), note: INTEGRATIONS_NOTE },
  // Not sent today (the API has no Create or Modify Guild Integration); the rule waits for them.
  INTEGRATION_CREATE: { ...toGuild(Intent.GuildIntegrations, all(P.ManageGuild)), note: INTEGRATIONS_NOTE },
  INTEGRATION_UPDATE: { ...toGuild(Intent.GuildIntegrations, all(P.ManageGuild)), note: INTEGRATIONS_NOTE },
  INTEGRATION_DELETE: { ...toGuild(Intent.GuildIntegrations, all(P.ManageGuild)), note: INTEGRATIONS_NOTE },
  // "All Invite related events are only sent to bot users with the MANAGE_CHANNELS permission on the channel."
  INVITE_CREATE: inChannel(Intent.GuildInvites, P.ManageChannels),
  INVITE_DELETE: inChannel(Intent.GuildInvites, P.ManageChannels),
  // "Sent when a rule is created/updated/deleted … only sent to bot users with the MANAGE_GUILD permission."
  AUTO_MODERATION_RULE_CREATE: toGuild(Intent.AutoModerationConfiguration, all(P.ManageGuild)),
  AUTO_MODERATION_RULE_UPDATE: toGuild(Intent.AutoModerationConfiguration, all(P.ManageGuild)),
  AUTO_MODERATION_RULE_DELETE: toGuild(Intent.AutoModerationConfiguration, all(P.ManageGuild)),
  // "Sent when a rule is triggered and an action is executed … only sent to bot users with MANAGE_GUILD."
  AUTO_MODERATION_ACTION_EXECUTION: toGuild(Intent.AutoModerationExecution, all(P.ManageGuild)),
  // Expressions: every member's client shows them; Discord names no permission.
  GUILD_EMOJIS_UPDATE: toGuild(Intent.GuildExpressions),
  GUILD_STICKERS_UPDATE: toGuild(Intent.GuildExpressions),
  GUILD_SOUNDBOARD_SOUND_CREATE: toGuild(Intent.GuildExpressions),
  GUILD_SOUNDBOARD_SOUND_UPDATE: toGuild(Intent.GuildExpressions),
  GUILD_SOUNDBOARD_SOUND_DELETE: toGuild(Intent.GuildExpressions),
  // "Sent when a guild scheduled event is created/updated/deleted", and when a user marks or drops interest:
  // Discord names no permission beyond the intent.
  // An event in a channel is seen by those who can view the channel (as Get Guild Scheduled Event answers them); an
  // external event, without one, by the guild. The interest events carry no channel: the guild's.
  GUILD_SCHEDULED_EVENT_CREATE: inChannel(Intent.GuildScheduledEvents),
  GUILD_SCHEDULED_EVENT_UPDATE: inChannel(Intent.GuildScheduledEvents),
  GUILD_SCHEDULED_EVENT_DELETE: inChannel(Intent.GuildScheduledEvents),
  GUILD_SCHEDULED_EVENT_USER_ADD: toGuild(Intent.GuildScheduledEvents),
  GUILD_SCHEDULED_EVENT_USER_REMOVE: toGuild(Intent.GuildScheduledEvents),
  // Every member's client shows who is in voice (GUILD_CREATE's voice_states): Discord names no permission.
  VOICE_STATE_UPDATE: toGuild(Intent.GuildVoiceStates),
} as const satisfies Record<string, DispatchPolicy>;

export type DispatchName = keyof typeof DISPATCH_POLICIES;

/** The rule for a dispatch by name, or undefined for a name the table does not know (nobody receives it). */
export function dispatchPolicyOf(name: string): DispatchPolicy | undefined {
  return Object.hasOwn(DISPATCH_POLICIES, name) ? DISPATCH_POLICIES[name as DispatchName] : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The dashboard's sections: who may see each

/** What a section needs: every flag of `all`, and (when given) at least one flag of `any`. */
export interface SectionRequirement {
  all?: readonly bigint[];
  any?: readonly bigint[];
}

export interface SectionPolicy {
  requires: SectionRequirement;
  /** The page showing it, when it is a part of another section's page (the overview's audit-log cards). */
  page?: string;
}

/** Every flag that lets a moderator act on members: the members page's requirement. */
const MEMBER_ACTIONS = [
  P.KickMembers,
  P.BanMembers,
  P.ModerateMembers,
  P.ManageNicknames,
  P.ManageRoles,
  P.MuteMembers,
  P.DeafenMembers,
  P.MoveMembers,
  P.ManageGuild,
];

/**
 * Who may see each section of a guild in the dashboard: the sidebar and the pages (lib/dashboard/sections.ts), and
 * the live stream, which sends a viewer a change only for the sections they may see. The overview is every member's;
 * its audit-log cards (recent moderation, removals per day) are a section of their own here, since only View Audit
 * Log shows them.
 */
export const SECTION_POLICIES = {
  overview: { requires: {} },
  "overview/audit-log": { page: "overview", requires: { all: [P.ViewAuditLog] } },
  settings: { requires: { all: [P.ManageGuild] } },
  channels: { requires: { all: [P.ManageChannels] } },
  roles: { requires: { all: [P.ManageRoles] } },
  members: { requires: { any: MEMBER_ACTIONS } },
  bans: { requires: { all: [P.BanMembers] } },
  // The guild's moderators: whoever may ban, kick or time out, or read the audit log. Cases read off the guild's own
  // log (made outside the dashboard) only with View Audit Log ("audit-history/guild-log"), as in the audit history.
  cases: { requires: { any: [P.BanMembers, P.KickMembers, P.ModerateMembers, P.ViewAuditLog] } },
  appeals: { requires: { all: [P.BanMembers] } },
  prune: { requires: { all: [P.ManageGuild, P.KickMembers] } },
  widget: { requires: { all: [P.ManageGuild] } },
  "welcome-screen": { requires: { all: [P.ManageGuild] } },
  onboarding: { requires: { all: [P.ManageGuild, P.ManageRoles] } },
  invites: { requires: { any: [P.ManageGuild, P.ViewAuditLog] } },
  integrations: { requires: { all: [P.ManageGuild] } },
  safety: { requires: { all: [P.ManageGuild] } },
  automod: { requires: { all: [P.ManageGuild] } },
  // Those who may upload expressions (Create Expressions) or manage them all (Manage Expressions).
  emoji: { requires: { any: [P.CreateGuildExpressions, P.ManageGuildExpressions] } },
  stickers: { requires: { any: [P.CreateGuildExpressions, P.ManageGuildExpressions] } },
  soundboard: { requires: { any: [P.CreateGuildExpressions, P.ManageGuildExpressions] } },
  // Whoever may create events or manage everyone's (Discord's Create Events and Manage Events).
  events: { requires: { any: [P.CreateEvents, P.ManageEvents] } },
  "audit-history": { requires: { any: [P.ViewAuditLog, P.ManageGuild] } },
  // The guild's own audit log as the audit history imports it (changes made outside the dashboard, their reasons):
  // Discord shows it only with View Audit Log. Manage Server alone opens the audit history to the dashboard's own
  // entries, the changes moderators made through the dashboard, and to nothing of the guild's log.
  "audit-history/guild-log": { page: "audit-history", requires: { all: [P.ViewAuditLog] } },
} as const satisfies Record<string, SectionPolicy>;

export type SectionName = keyof typeof SECTION_POLICIES;

/** Who made a change (the user of its audit-log entry) is the audit log's to tell: the live stream names them only to this. */
export const ACTORS_REQUIREMENT: PermissionRequirement = all(P.ViewAuditLog);

export function meetsSectionRequirement(permissions: bigint, requires: SectionRequirement): boolean {
  const { all: every = [], any = [] } = requires;
  if (
    !hasPermission(
      permissions,
      every.reduce((bits, flag) => bits | flag, 0n),
    )
  )
    return false;
  return any.length === 0 || any.some((flag) => hasPermission(permissions, flag));
}

/** Whether a viewer with these guild-wide permissions may see the section (an unknown section: no). */
export function maySeeSection(section: string, permissions: bigint): boolean {
  if (!Object.hasOwn(SECTION_POLICIES, section)) return false;
  return meetsSectionRequirement(permissions, SECTION_POLICIES[section as SectionName].requires);
}

/** The page a section's changes refresh (itself, or the page it is part of). */
export function pageOfSection(section: SectionName): string {
  const policy: SectionPolicy = SECTION_POLICIES[section];
  return policy.page ?? section;
}

// ---------------------------------------------------------------------------------------------------------------
// The app's own doors: every page, route handler and server action outside the API's routes and a guild's sections

/** Who may open a page, call a route handler or run a server action of the app itself. */
export type DoorRule =
  /** Anyone, signed in or not: what it shows is public, or it is the way in (sign-in, consent, OAuth2 callbacks). */
  | { who: "anyone"; why: string }
  /**
   * A moderator signed in to the dashboard; everything it shows comes from the API with their own token, and all it
   * changes is their own (DASHBOARD_SESSION_ACTION_POLICIES: their preferences, under their session's user id).
   */
  | { who: "dashboard-session"; why: string }
  /** A moderator who may see the guild's section (SECTION_POLICIES); `overview`: any member of the guild. */
  | { who: "section"; section: SectionName }
  /** Judged as the API operation: by the API with the moderator's token, and by the dashboard's guard in bot mode. */
  | { who: "operation"; operation: OperationName }
  /** The user signed in to the built-in provider (its sign-in cookie), acting for themselves. */
  | { who: "provider-session"; why: string }
  /** The owner of the application the developer portal shows (its team, in Discord's terms). */
  | { who: "application-owner" }
  /** The Activity's own backend: codes of the Activity's application only, with its scopes, and PKCE. */
  | { who: "activity-application" }
  /** Whoever runs the service: a client on the machine itself (the socket's address), or one with METRICS_TOKEN. */
  | { who: "operator"; why: string };

const anyone = (why: string): DoorRule => ({ who: "anyone", why });
const section = (name: SectionName): DoorRule => ({ who: "section", section: name });
const operation = (name: OperationName): DoorRule => ({ who: "operation", operation: name });
const APPLICATION_OWNER: DoorRule = { who: "application-owner" };

/**
 * Pages and route handlers, by the URL path Next serves them at (route groups left out), and the doors the one-port
 * server answers before Next (`server:` entries). tests/unit/door-policies.test.ts fails when a page, route handler or
 * server door has no entry here, or a section's page does not ask for its own section.
 */
export const ROUTE_POLICIES = {
  "server:/api/v10": { who: "operation", operation: "Get Guild" } as DoorRule, // every route: POLICIES, by operation
  "server:/healthz": anyone("liveness: says only that the process answers"),
  "server:/readyz": anyone(
    "readiness: database, migrations, gateway; the reason is a fixed phrase, never a path or a credential",
  ),
  "server:/metrics": { who: "operator", why: "request counts, latencies and process figures (lib/server/metrics.ts)" },
  "server:/cdn": anyone("guild icons and banners, emoji, stickers and soundboard sounds: public on Discord's CDN too"),
  "server:/activity": anyone("the Activity's frame; its data comes with the Activity's own token"),

  "/": anyone("the landing page"),
  "/sign-in": anyone("the way in"),
  "/api/auth/[...nextauth]": anyone("next-auth's OAuth2 sign-in and callback"),
  "/guilds": { who: "dashboard-session", why: "the moderator's own guilds, from Get Current User Guilds" },
  "/guilds/[guildId]": section("overview"),
  "/guilds/[guildId]/[...unknown]": { who: "dashboard-session", why: "a not-found page inside the guild's shell" },
  "/guilds/[guildId]/live": section("overview"), // each change filtered per viewer by SECTION_POLICIES
  "/guilds/[guildId]/users": section("overview"), // names for ids, with the moderator's own token
  "/guilds/[guildId]/settings": section("settings"),
  "/guilds/[guildId]/channels": section("channels"),
  "/guilds/[guildId]/channels/[channelId]": section("channels"),
  "/guilds/[guildId]/channels/view-as": section("channels"),
  "/guilds/[guildId]/roles": section("roles"),
  "/guilds/[guildId]/members": section("members"),
  "/guilds/[guildId]/members/raid": section("members"),
  "/guilds/[guildId]/members/jobs/[jobId]": operation("Search Guild Members v2"),
  "/guilds/[guildId]/bans": section("bans"),
  "/guilds/[guildId]/bans/export": section("bans"),
  // Who an id is before a ban by id (a member, their roles): what the members section shows too.
  "/guilds/[guildId]/bans/target": section("bans"),
  "/guilds/[guildId]/bans/bulk": operation("Bulk Guild Ban"),
  "/guilds/[guildId]/bans/bulk/[jobId]": operation("Bulk Guild Ban"),
  "/guilds/[guildId]/prune": section("prune"),
  "/guilds/[guildId]/widget": section("widget"),
  "/guilds/[guildId]/emoji": section("emoji"),
  "/guilds/[guildId]/stickers": section("stickers"),
  "/guilds/[guildId]/soundboard": section("soundboard"),
  "/guilds/[guildId]/welcome-screen": section("welcome-screen"),
  "/guilds/[guildId]/onboarding": section("onboarding"),
  "/guilds/[guildId]/invites": section("invites"),
  "/guilds/[guildId]/events": section("events"),
  // The invites section's readers (Get Target Users' own requirement), for an invite of this guild only.
  "/guilds/[guildId]/invites/[code]/target-users": section("invites"),
  "/guilds/[guildId]/invites/[code]/target-users/job-status": section("invites"),
  "/guilds/[guildId]/integrations": section("integrations"),
  "/guilds/[guildId]/safety": section("safety"),
  "/guilds/[guildId]/automod": section("automod"),
  "/guilds/[guildId]/cases": section("cases"),
  "/guilds/[guildId]/cases/export": section("cases"),
  "/guilds/[guildId]/cases/escalation": section("cases"),
  "/guilds/[guildId]/appeals": section("appeals"),
  "/guilds/[guildId]/appeals/settings": section("appeals"),
  "/appeal/[guildId]": anyone("a ban appeal: a signed-in user sees only their own ban and appeals"),
  "/appeal/[guildId]/sign-in": anyone("starts the appeal's sign-in (identify only)"),
  "/appeal/callback": anyone("the appeal's OAuth2 callback: state and PKCE checked"),
  "/guilds/[guildId]/audit-history": section("audit-history"),
  "/guilds/[guildId]/audit-history/export": section("audit-history"),
  "/invite/[code]": anyone("an invite's public landing page (Get Invite)"),
  "/invite/[code]/join": anyone("starts the dashboard application's sign-in with guilds.join"),
  "/join/callback": anyone("its callback: Accept Invite judges the visitor's own token"),
  "/widget": anyone("the embeddable widget, shown only while the guild enables it"),
  "/oauth2/authorize": anyone("sign-in and consent: only what the signed-in user decides is granted"),
  "/oauth2/authorized": anyone("says the authorization is done; shows no code or token"),
  "/oauth2/web-message": anyone("hands a code to the opener only on the application's registered origins"),
  "/developers": { who: "provider-session", why: "the signed-in user's own applications" },
  "/developers/login": anyone("the portal's sign-in"),
  "/developers/applications": { who: "provider-session", why: "the signed-in user's own applications" },
  "/developers/applications/[applicationId]": APPLICATION_OWNER,
  "/activity": anyone("the Activity, framed by Discord's client"),
  "/api/token": { who: "activity-application" },
  "/dynamic-floor": anyone("an empty page: Next's floor for bench:navigation"),
} as const satisfies Record<string, DoorRule>;

/**
 * The provider's server actions (forms of its own pages, outside the dashboard's action client), by
 * `<page path>#<export>`. The dashboard's guild actions need no entry: each is named after the API operation that
 * judges it (POLICIES) or after one of DASHBOARD_ACTION_POLICIES below, and carries its bot-mode guard; its actions on
 * the moderator's own rows are in DASHBOARD_SESSION_ACTION_POLICIES.
 */
export const PROVIDER_ACTION_POLICIES = {
  "/developers#addRedirectUriAction": APPLICATION_OWNER,
  "/developers#removeRedirectUriAction": APPLICATION_OWNER,
  "/developers#saveUrlMappingsAction": APPLICATION_OWNER,
  "/developers#setActivitiesEnabledAction": APPLICATION_OWNER,
  "/developers#setEntryPointHandlerAction": APPLICATION_OWNER,
  "/developers#setInstallationContextsAction": APPLICATION_OWNER,
  "/developers#setPrivilegedIntentAction": APPLICATION_OWNER,
  "/developers#resetBotTokenAction": APPLICATION_OWNER,
  "/developers#resetClientSecretAction": APPLICATION_OWNER,
  "/developers/login#signInAction": anyone("the portal's sign-in, throttled per account and address"),
  "/developers/login#signOutAction": { who: "provider-session", why: "ends the caller's own sign-in" },
  "/invite/[code]#completeScreeningAction": operation("Complete Membership Screening"),
  "/oauth2/authorize#signInAction": anyone("the consent page's sign-in, throttled per account and address"),
  "/oauth2/authorize#signOutAction": { who: "provider-session", why: "ends the caller's own sign-in" },
  "/_lib/sign-in-notice-actions#dismissSignInNoticeAction": {
    who: "provider-session",
    why: "dismisses the caller's own notice of refused sign-in attempts",
  },
  "/appeal/[guildId]#submitAppealAction": {
    who: "provider-session",
    why: "the signed-in appellant (a signed cookie) appeals their own ban, read again with the guild's acting grant",
  },
  "/appeal/[guildId]#signOutOfAppealAction": { who: "provider-session", why: "ends the caller's own appeal sign-in" },
  "/oauth2/authorize#decideAction": {
    who: "provider-session",
    why: "the signed-in user's own consent; a bot install is judged as the installer in each guild",
  },
} as const satisfies Record<string, DoorRule>;

/**
 * The dashboard's actions that change only its own tables (jobs, previews) or run an API operation many times: each
 * is judged as the API operation named here. Those that call it are judged by the API with the moderator's token
 * and, in bot mode, by their guard; the job controls, which change only the dashboard's tables and so are judged by
 * no API call, by their guard in both modes (`dashboardOnly`).
 */
export const DASHBOARD_ACTION_POLICIES = {
  "Prepare bulk ban": "Bulk Guild Ban",
  "Start bulk ban": "Bulk Guild Ban",
  "Pause bulk ban": "Get Guild Bans",
  "Cancel bulk ban": "Get Guild Bans",
  "Undo bulk ban": "Remove Guild Ban",
  "Preview prune": "Get Guild Prune Count",
  // It reads the members; and what the chosen action's chunks call (Bulk Guild Ban for a ban), its role's rank too.
  "Prepare bulk member action": "Search Guild Members v2",
  // And what the job's chunks call, its role's rank included: a job runs only for whoever may do what it does.
  "Start bulk member action": "Search Guild Members v2",
  "Pause bulk member action": "Search Guild Members v2",
  "Cancel bulk member action": "Search Guild Members v2",
  "Bulk add role": "Add Guild Member Role",
  "Bulk remove role": "Remove Guild Member Role",
  "Bulk timeout": "Modify Guild Member",
  "Bulk remove timeout": "Modify Guild Member",
  "Bulk kick": "Remove Guild Member",
  // Revoke selected: Delete Invite once per invite, each judged as one (Manage Channels in its channel, or Manage Server).
  "Bulk delete invites": "Delete Invite",
  // Cases (issue #32): a warning or a note about a member takes what a timeout takes (Moderate Members, above them);
  // a case's reason, a moderator who may see the case (its guard: Ban, Kick or Moderate Members, or View Audit Log).
  "Warn member": "Modify Guild Member",
  "Add note": "Modify Guild Member",
  "Edit case reason": "Modify Guild Member",
  "Save escalation rules": "Modify Guild Member",
  // Ban appeals: the form and the decisions take what an unban takes (Ban Members); accepting unbans.
  "Save appeal settings": "Remove Guild Ban",
  "Accept ban appeal": "Remove Guild Ban",
  "Reject ban appeal": "Remove Guild Ban",
} as const satisfies Record<string, OperationName>;

/**
 * The dashboard's actions that are no guild's business: they change only the signed-in moderator's own rows in the
 * dashboard's tables, keyed by the session's user id and never by an id from the browser, so no API operation judges
 * them and they are not guild actions (no guildId, no bot-mode guard, no audit history). By
 * `<module under lib/dashboard/actions>#<export>`; tests/unit/door-policies.test.ts checks each reads the session.
 */
export const DASHBOARD_SESSION_ACTION_POLICIES = {
  "table-preferences#saveTableColumnsAction": {
    who: "dashboard-session",
    why: "the columns the caller hides in a table: their own preference, stored under their session's user id",
  },
} as const satisfies Record<string, Extract<DoorRule, { who: "dashboard-session" }>>;

/** The API operation that judges a dashboard action by its name, or undefined when the table has no rule for it. */
export function operationOfDashboardAction(action: string): OperationName | undefined {
  if (Object.hasOwn(POLICIES, action)) return action as OperationName;
  return Object.hasOwn(DASHBOARD_ACTION_POLICIES, action)
    ? DASHBOARD_ACTION_POLICIES[action as keyof typeof DASHBOARD_ACTION_POLICIES]
    : undefined;
}

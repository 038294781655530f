// Guild operations: Get Guild, Get Guild Preview, Modify Guild, Get Guild Audit Log, and Guildhall's outbox reader.
import { GUILD_BANNER_ASPECT, ICON_MAX_SIZE, MUTABLE_GUILD_FEATURES } from "@/lib/discord/limits";
import { diffChanges, auditGuildUpdate } from "../audit-log";
import { Errors, invalidFormBody, type FieldIssue, FieldErrorCode } from "../errors";
import { emitEvent, listEvents } from "../events";
import { Permission, type GuildAccess } from "../guards";
import type { Identity } from "../auth";
import { decodeImage, hasAspectRatio, saveImage, type DecodedImage, type ImageFormat, type ImageKind } from "../images";
import type { GuildAuditLogQuery, ModifyGuildBody } from "../schemas/guilds";
import { chain, type MaybePromise } from "../maybe-promise";
import { transaction } from "../store/db";
import {
  listAuditLogEntriesNewestFirst,
  listAuditLogEntriesOldestFirst,
  type AuditLogFilter,
} from "../store/audit-log-entries";
import { findChannel, listThreadsByIds } from "../store/channels";
import { listGuildExpressions } from "../store/expressions";
import { findGuild, updateGuildSettings, type GuildRow } from "../store/guilds";
import { isMember } from "../store/members";
import { readCache } from "../store/read-cache";
import { listGuildRoles } from "../store/roles";
import { listUsersByIdStrings } from "../store/users";
import { serializeAuditLogEntry, serializeEmoji, serializeGuild, serializeSticker } from "../serializers/guilds";
import { serializeThread } from "../serializers/channels";
import { serializeUser } from "../serializers/users";
import { serializeAutoModerationRule } from "../serializers/auto-moderation";
import { listGuildAutoModerationRules } from "../store/auto-moderation-rules";

const parseFeatures = (json: string) => JSON.parse(json) as string[];

/** The guild object every member is answered (no counts) as UTF-8 JSON, built once per guild until the database changes. */
const guildObjectJson = readCache(async (guildId: bigint): Promise<Buffer | undefined> => {
  const guild = await findGuild(guildId);
  if (!guild) return undefined;
  const { emojis, stickers } = await listGuildExpressions(guildId);
  return Buffer.from(JSON.stringify(serializeGuild(guild, await listGuildRoles(guildId), emojis, stickers)));
}, 1_000);

/**
 * Get Guild as the bytes of its JSON: the guild as its member sees it. Hot path: they are kept in the read cache (the
 * guild row, roles, emojis and stickers change only by writes, which empty it), so a request costs the access check and
 * a lookup.
 */
export function getGuildJson(access: GuildAccess): MaybePromise<Buffer> {
  return chain(
    guildObjectJson(access.guildId),
    (json) => json ?? getGuild(access, false).then((guild) => Buffer.from(JSON.stringify(guild))),
  );
}

/** Get Guild: the guild as its member sees it; with_counts adds the approximate counts. */
export async function getGuild(access: GuildAccess, withCounts: boolean) {
  const { emojis, stickers } = await listGuildExpressions(access.guildId);
  const guild = serializeGuild(access.guild, access.roles, emojis, stickers);
  if (!withCounts) return guild;
  return {
    ...guild,
    approximate_member_count: Number(access.guild.member_count),
    approximate_presence_count: Number(access.guild.presence_count),
  };
}

/** Get Guild Preview: members always; others only when the guild is DISCOVERABLE (Unknown Guild otherwise, as Discord). */
export async function getGuildPreview(caller: Identity, guildId: bigint) {
  const guild = await findGuild(guildId);
  if (!guild) throw Errors.unknownGuild();
  const features = parseFeatures(guild.features);
  if (!(await isMember(guildId, caller.userId)) && !features.includes("DISCOVERABLE")) throw Errors.unknownGuild();
  const { emojis, stickers } = await listGuildExpressions(guildId);
  return {
    id: String(guild.id),
    name: guild.name,
    icon: guild.icon,
    splash: guild.splash,
    discovery_splash: guild.discovery_splash,
    home_header: null,
    emojis: emojis.map(serializeEmoji),
    stickers: stickers.map(serializeSticker),
    features,
    approximate_member_count: Number(guild.member_count),
    approximate_presence_count: Number(guild.presence_count),
    description: guild.description,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Modify Guild

type ChannelField =
  | "afk_channel_id"
  | "system_channel_id"
  | "rules_channel_id"
  | "public_updates_channel_id"
  | "safety_alerts_channel_id";
/** Channel references and the channel types each accepts: AFK is a voice channel, the others text channels. */
const CHANNEL_FIELDS: ReadonlyArray<[ChannelField, readonly number[], string]> = [
  ["afk_channel_id", [2], "a voice channel"],
  ["system_channel_id", [0], "a text channel"],
  ["rules_channel_id", [0], "a text channel"],
  ["public_updates_channel_id", [0], "a text channel"],
  ["safety_alerts_channel_id", [0], "a text channel"],
];

type ImageField = "icon" | "splash" | "discovery_splash" | "banner";
interface ImageRule {
  kind: ImageKind;
  formats: readonly ImageFormat[];
  /** The guild feature needed to set this image at all. */
  feature?: string;
  /** The feature an animated GIF needs (none: animated images refused). */
  animatedFeature?: string;
  maxSize?: number;
  aspect?: { width: number; height: number };
}
const IMAGE_RULES: Record<ImageField, ImageRule> = {
  icon: { kind: "icons", formats: ["png", "jpeg", "gif"], animatedFeature: "ANIMATED_ICON", maxSize: ICON_MAX_SIZE },
  splash: { kind: "splashes", formats: ["png", "jpeg"], feature: "INVITE_SPLASH", aspect: GUILD_BANNER_ASPECT },
  discovery_splash: {
    kind: "discovery-splashes",
    formats: ["png", "jpeg"],
    feature: "DISCOVERABLE",
    aspect: GUILD_BANNER_ASPECT,
  },
  banner: {
    kind: "banners",
    formats: ["png", "jpeg", "gif"],
    feature: "BANNER",
    animatedFeature: "ANIMATED_BANNER",
    aspect: GUILD_BANNER_ASPECT,
  },
};
const IMAGE_FIELDS = Object.keys(IMAGE_RULES) as ImageField[];

const {
  IMAGE_INVALID,
  IMAGE_DIMENSIONS_INVALID,
  GUILD_FEATURE_REQUIRED,
  CHANNEL_INVALID,
  DISCOVERY_REQUIREMENTS_NOT_MET,
} = FieldErrorCode;

/** Audit-log keys of the guild's mutable fields (image columns are logged as *_hash, as Discord does). */
function auditView(guild: GuildRow): Record<string, unknown> {
  const id = (value: bigint | null) => (value === null ? null : String(value));
  return {
    name: guild.name,
    description: guild.description,
    icon_hash: guild.icon,
    splash_hash: guild.splash,
    discovery_splash_hash: guild.discovery_splash,
    banner_hash: guild.banner,
    region: guild.region,
    afk_channel_id: id(guild.afk_channel_id),
    afk_timeout: Number(guild.afk_timeout),
    system_channel_id: id(guild.system_channel_id),
    system_channel_flags: Number(guild.system_channel_flags),
    rules_channel_id: id(guild.rules_channel_id),
    public_updates_channel_id: id(guild.public_updates_channel_id),
    safety_alerts_channel_id: id(guild.safety_alerts_channel_id),
    verification_level: Number(guild.verification_level),
    default_message_notifications: Number(guild.default_message_notifications),
    explicit_content_filter: Number(guild.explicit_content_filter),
    preferred_locale: guild.preferred_locale,
    features: parseFeatures(guild.features),
    premium_progress_bar_enabled: Boolean(guild.premium_progress_bar_enabled),
  };
}

/**
 * The feature list after the request: only the mutable features follow the list sent (adding or removing COMMUNITY
 * and DISCOVERABLE takes ADMINISTRATOR); every other feature keeps its state whether the list names it or not.
 */
function nextFeatures(access: GuildAccess, current: readonly string[], requested: readonly string[]): string[] {
  const wanted = new Set(requested);
  let features = [...current];
  for (const [feature, permission] of Object.entries(MUTABLE_GUILD_FEATURES)) {
    const want = wanted.has(feature);
    if (want === current.includes(feature)) continue;
    if (permission === "ADMINISTRATOR" && !access.has(Permission.Administrator)) throw Errors.missingPermissions();
    features = want ? [...features, feature] : features.filter((f) => f !== feature);
  }
  return features;
}

/**
 * Guildhall's discovery requirements, kept simple: a Community guild with a description and a rules channel.
 * (Discord also weighs age, size and activity, which a self-hosted guild cannot meaningfully meet.)
 */
function unmetDiscoveryRequirements(guild: GuildRow, features: readonly string[]): string[] {
  const unmet: string[] = [];
  if (!features.includes("COMMUNITY")) unmet.push("be a Community server");
  if (!guild.description) unmet.push("have a description");
  if (guild.rules_channel_id === null) unmet.push("have a rules channel");
  return unmet;
}

/**
 * Modify Guild (MANAGE_GUILD): every field of the spec's table, checked against the guild (channel types, features,
 * image rules) with all field errors reported together; then one transaction writes the images, the guild, the
 * audit-log entry (GUILD_UPDATE with the changes) and the GUILD_UPDATE event. A request that changes nothing writes
 * neither entry nor event.
 */
export async function modifyGuild(access: GuildAccess, body: ModifyGuildBody, reason: string | null) {
  access.authorize("Modify Guild");
  const guildId = access.guildId;
  return await transaction(async () => {
    // Re-read inside the transaction: the access check ran before the body arrived.
    const before = await findGuild(guildId);
    if (!before) throw Errors.unknownGuild();
    const next: GuildRow = { ...before };
    const issues: FieldIssue[] = [];
    const currentFeatures = parseFeatures(before.features);
    const features =
      body.features === undefined ? currentFeatures : nextFeatures(access, currentFeatures, body.features);
    const adding = (feature: string) => features.includes(feature) && !currentFeatures.includes(feature);

    if (body.name !== undefined) next.name = body.name;
    if (body.region !== undefined) next.region = body.region;
    if (body.verification_level !== undefined) next.verification_level = BigInt(body.verification_level ?? 0);
    if (body.default_message_notifications !== undefined)
      next.default_message_notifications = BigInt(body.default_message_notifications ?? 0);
    if (body.explicit_content_filter !== undefined)
      next.explicit_content_filter = BigInt(body.explicit_content_filter ?? 0);
    if (body.afk_timeout !== undefined) next.afk_timeout = BigInt(body.afk_timeout);
    if (body.system_channel_flags !== undefined) next.system_channel_flags = BigInt(body.system_channel_flags);
    if (body.preferred_locale !== undefined) next.preferred_locale = body.preferred_locale ?? "en-US";
    if (body.description !== undefined) next.description = body.description || null;
    if (body.premium_progress_bar_enabled !== undefined)
      next.premium_progress_bar_enabled = body.premium_progress_bar_enabled ? 1n : 0n;
    if (body.features !== undefined) next.features = JSON.stringify(features);

    for (const [field, types, label] of CHANNEL_FIELDS) {
      const value = body[field];
      if (value === undefined) continue;
      if (value === null) {
        next[field] = null;
        continue;
      }
      const channel = await findChannel(guildId, BigInt(value));
      if (!channel || !types.includes(Number(channel.type)))
        issues.push({ path: [field], code: CHANNEL_INVALID, message: `Must be ${label} of this guild.` });
      else next[field] = BigInt(value);
    }

    const images: Array<[ImageField, DecodedImage]> = [];
    for (const field of IMAGE_FIELDS) {
      const value = body[field];
      if (value === undefined) continue;
      if (value === null) {
        next[field] = null;
        continue;
      }
      const rule = IMAGE_RULES[field];
      const image = decodeImage(value);
      const issue = (code: string, message: string) => issues.push({ path: [field], code, message });
      if (!image || !rule.formats.includes(image.format))
        issue(IMAGE_INVALID, `Invalid image data: must be a base64 data URI of a ${rule.formats.join(", ")} image.`);
      else if (rule.feature && !features.includes(rule.feature))
        issue(GUILD_FEATURE_REQUIRED, `The guild needs the ${rule.feature} feature.`);
      else if (image.animated && !(rule.animatedFeature && features.includes(rule.animatedFeature)))
        issue(GUILD_FEATURE_REQUIRED, `An animated image needs the ${rule.animatedFeature ?? "ANIMATED"} feature.`);
      else if (rule.maxSize && (image.width > rule.maxSize || image.height > rule.maxSize))
        issue(
          IMAGE_DIMENSIONS_INVALID,
          `Must be at most ${rule.maxSize}x${rule.maxSize} (got ${image.width}x${image.height}).`,
        );
      else if (rule.aspect && !hasAspectRatio(image.width, image.height, rule.aspect.width, rule.aspect.height))
        issue(
          IMAGE_DIMENSIONS_INVALID,
          `Must be ${rule.aspect.width}:${rule.aspect.height} (got ${image.width}x${image.height}).`,
        );
      else images.push([field, image]);
    }

    // Community needs a rules and a public-updates channel, as on Discord: checked when COMMUNITY is turned on or
    // the request clears one of them.
    if (features.includes("COMMUNITY")) {
      for (const [field, label] of [
        ["rules_channel_id", "a rules channel"],
        ["public_updates_channel_id", "a public updates channel"],
      ] as const) {
        if (next[field] === null && (adding("COMMUNITY") || body[field] !== undefined))
          issues.push({ path: [field], code: "BASE_TYPE_REQUIRED", message: `Community servers need ${label}.` });
      }
    }
    if (features.includes("DISCOVERABLE")) {
      const unmet = unmetDiscoveryRequirements(next, features);
      const unmetBefore = currentFeatures.includes("DISCOVERABLE")
        ? unmetDiscoveryRequirements(before, currentFeatures)
        : [];
      if (unmet.some((requirement) => adding("DISCOVERABLE") || !unmetBefore.includes(requirement)))
        issues.push({
          path: ["features"],
          code: DISCOVERY_REQUIREMENTS_NOT_MET,
          message: `A discoverable server must ${unmet.join(", ")}.`,
        });
    }
    if (issues.length > 0) throw invalidFormBody(issues);

    for (const [field, image] of images) next[field] = await saveImage(IMAGE_RULES[field].kind, guildId, image);
    // widget.png draws the name and icon: a new version invalidates its cache.
    if (next.name !== before.name || next.icon !== before.icon) next.widget_version = before.widget_version + 1n;

    await updateGuildSettings(next);

    const after = (await findGuild(guildId)) as GuildRow;
    const { emojis, stickers } = await listGuildExpressions(guildId);
    const guild = serializeGuild(after, access.roles, emojis, stickers);
    const changes = diffChanges(auditView(before), auditView(after));
    if (await auditGuildUpdate(access, reason, changes)) await emitEvent(guildId, "GUILD_UPDATE", guild);
    return guild;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Audit log and outbox

const MAX_ID = (1n << 63n) - 1n;

/**
 * Get Guild Audit Log (VIEW_AUDIT_LOG): entries newest first, filtered by user_id, target_id and action_type.
 * `before` pages back from an entry; `after` alone takes the entries just after it (still answered newest first).
 * `users` holds the users who acted or were targeted, `threads` the threads targeted, `auto_moderation_rules` the
 * AutoMod rules targeted that still exist; Guildhall records no webhooks, scheduled-event or command entries, so those
 * lists are empty.
 */
export async function getGuildAuditLog(access: GuildAccess, query: GuildAuditLogQuery) {
  access.authorize("Get Guild Audit Log");
  const filter: AuditLogFilter = {
    guild_id: access.guildId,
    user_id: query.user_id === undefined ? null : BigInt(query.user_id),
    action_type: query.action_type ?? null,
    target_id: query.target_id ?? null,
    before: query.before === undefined ? MAX_ID : BigInt(query.before),
    after: query.after === undefined ? -1n : BigInt(query.after),
    limit: query.limit,
  };
  const rows =
    query.after !== undefined && query.before === undefined
      ? (await listAuditLogEntriesOldestFirst(filter)).reverse()
      : await listAuditLogEntriesNewestFirst(filter);
  const referenced = new Set<string>();
  for (const row of rows) {
    if (row.user_id !== null) referenced.add(String(row.user_id));
    if (row.target_id !== null && /^[0-9]{1,19}$/.test(row.target_id)) referenced.add(row.target_id);
  }
  const users = await listUsersByIdStrings([...referenced]);
  const threads = await listThreadsByIds(access.guildId, [...referenced]);
  const rules = (await listGuildAutoModerationRules(access.guildId)).filter((rule) => referenced.has(String(rule.id)));
  return {
    audit_log_entries: rows.map(serializeAuditLogEntry),
    users: users.map(serializeUser),
    integrations: [],
    webhooks: [],
    guild_scheduled_events: [],
    threads: threads.map(serializeThread),
    application_commands: [],
    auto_moderation_rules: rules.map(serializeAutoModerationRule),
  };
}

/** Guildhall's outbox reader (MANAGE_GUILD): the guild's gateway dispatches after an event id, oldest first. */
export async function listGuildEvents(access: GuildAccess, after: bigint, limit: number) {
  access.authorize("List Guild Events");
  return await listEvents(access.guildId, after, limit);
}

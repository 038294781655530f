// Changed fields as the dashboard names them: each wire key (from the guild's audit log or a dashboard snapshot) with
// the label its settings page uses and its value in words ("slowmode", 0 → "off", 10 → "10 s"; permission bitfields
// as the permissions added and removed). Pure, so client components can import it.
import { PERMISSIONS } from "@/lib/discord/permission-names";
import { AUTOMOD_GROUPS, PRESET_OPTIONS } from "@/lib/dashboard/actions/schemas/auto-moderation";

/** Names for the ids a change mentions, as the page knows them (users looked up, the guild's roles and channels). */
export interface AuditNames {
  user(id: string): string | undefined;
  role(id: string): string | undefined;
  channel(id: string): string | undefined;
}

export const NO_NAMES: AuditNames = { user: () => undefined, role: () => undefined, channel: () => undefined };

export interface ChangeLine {
  /** The field's UI name. */
  field: string;
  /** Undefined when the field had no value before (created) or has none after (deleted). */
  before?: string;
  after?: string;
  /** A change better read as one phrase than as before → after ("+Ban Members, −Kick Members"). */
  summary?: string;
}

type Format = (value: unknown, names: AuditNames) => string;

const isNil = (v: unknown) => v === null || v === undefined || v === "";

export function formatSeconds(seconds: number): string {
  if (seconds === 0) return "off";
  if (seconds % 86_400 === 0) return `${seconds / 86_400} d`;
  if (seconds % 3_600 === 0) return `${seconds / 3_600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

const seconds =
  (zero: string): Format =>
  (v) =>
    isNil(v) ? "none" : Number(v) === 0 ? zero : formatSeconds(Number(v));
const minutes: Format = (v) => (isNil(v) ? "none" : formatSeconds(Number(v) * 60));
const onOff: Format = (v) => (isNil(v) ? "none" : v === true || v === 1 || v === "true" ? "on" : "off");
/** Any value in words: lists and objects too (never raw JSON), each key by its label. */
const text: Format = (v, names) => {
  if (isNil(v)) return "none";
  if (typeof v === "string") return v;
  if (Array.isArray(v)) return v.length ? v.map((item) => text(item, names)).join("; ") : "none";
  if (typeof v === "object") {
    const parts = Object.entries(v as Record<string, unknown>)
      .filter(([key, value]) => !HIDDEN.has(key) && !isNil(value))
      .map(([key, value]) => `${fieldLabel(key)} ${formatValue(key, value, names)}`);
    return parts.length ? parts.join(", ") : "none";
  }
  return String(v);
};
const quoted: Format = (v) => (isNil(v) ? "none" : `“${String(v)}”`);
const count =
  (zero: string): Format =>
  (v) =>
    isNil(v) ? "none" : Number(v) === 0 ? zero : String(v);
const level =
  (labels: readonly string[]): Format =>
  (v) =>
    isNil(v) ? "none" : (labels[Number(v)] ?? String(v));
const channel: Format = (v, names) => (isNil(v) ? "none" : `#${names.channel(String(v)) ?? String(v)}`);
const user: Format = (v, names) => (isNil(v) ? "none" : (names.user(String(v)) ?? String(v)));
const color: Format = (v) => (isNil(v) || Number(v) === 0 ? "default" : `#${Number(v).toString(16).padStart(6, "0")}`);
const image: Format = (v) => (isNil(v) ? "none" : "an image");
const when: Format = (v) => {
  if (isNil(v)) return "none";
  const date = new Date(String(v));
  if (Number.isNaN(date.getTime())) return String(v);
  return `until ${date.toISOString().slice(0, 16).replace("T", " ")} UTC`;
};
/** A welcome screen's channels: "#rules 📜 “Read the rules first”; #intro :wave: “Say hi”". */
const welcomeChannels: Format = (v, names) => {
  if (!Array.isArray(v)) return text(v, names);
  if (v.length === 0) return "none";
  return v
    .map((item: unknown) => {
      const c = (typeof item === "object" && item !== null ? item : {}) as {
        channel_id?: unknown;
        description?: unknown;
        emoji_id?: unknown;
        emoji_name?: unknown;
      };
      const emoji = typeof c.emoji_name === "string" && c.emoji_name ? c.emoji_name : null;
      return [
        channel(c.channel_id, names),
        // A custom emoji by its name, as the welcome screen's editor shows it; a Unicode emoji as itself.
        emoji && (isNil(c.emoji_id) ? emoji : `:${emoji}:`),
        typeof c.description === "string" && c.description ? `“${c.description}”` : null,
      ]
        .filter(Boolean)
        .join(" ");
    })
    .join("; ");
};
/** Channel types by their Discord number (discord-api-types' ChannelType). */
const CHANNEL_TYPES: Record<number, string> = {
  0: "text channel",
  1: "direct message",
  2: "voice channel",
  3: "group direct message",
  4: "category",
  5: "announcement channel",
  10: "announcement thread",
  11: "public thread",
  12: "private thread",
  13: "stage channel",
  14: "directory",
  15: "forum channel",
  16: "media channel",
};
const automodGroup = (type: number) => AUTOMOD_GROUPS.find((g) => g.trigger === type)?.label ?? `type ${type}`;
const presetLabel = (preset: unknown) =>
  PRESET_OPTIONS.find((option) => option.preset === Number(preset))?.label ?? String(preset);
const channelList: Format = (v, names) =>
  Array.isArray(v) && v.length ? v.map((id) => channel(id, names)).join(", ") : "none";
const channelType: Format = (v) => (isNil(v) ? "none" : (CHANNEL_TYPES[Number(v)] ?? `type ${String(v)}`));
/** A bitfield whose bits have no names here: none set reads "none", not "0". */
const flagBits: Format = (v) => (isNil(v) || Number(v) === 0 ? "none" : String(v));
const roleList: Format = (v, names) => {
  if (!Array.isArray(v)) return text(v, names);
  if (v.length === 0) return "none";
  return v
    .map((r: unknown) =>
      typeof r === "object" && r !== null
        ? String((r as { name?: string; id?: string }).name ?? (r as { id?: string }).id)
        : (names.role(String(r)) ?? String(r)),
    )
    .join(", ");
};

/** Permission flags' labels, in the role editor's order. */
export function permissionNames(bits: bigint): string[] {
  return PERMISSIONS.filter((p) => (bits & p.flag) === p.flag).map((p) => p.label);
}

const toBits = (v: unknown): bigint | null => {
  if (isNil(v)) return null;
  try {
    return BigInt(String(v));
  } catch {
    return null;
  }
};
const permissions: Format = (v) => {
  const bits = toBits(v);
  if (bits === null) return "none";
  const names = permissionNames(bits);
  return names.length ? names.join(", ") : "none";
};

interface FieldSpec {
  label: string;
  format: Format;
}

const LEVELS = {
  verification: ["none", "low", "medium", "high", "highest"],
  contentFilter: ["off", "members without roles", "all members"],
  notifications: ["all messages", "only @mentions"],
  mfa: ["off", "2FA required to moderate"],
  nsfw: ["default", "explicit", "safe", "age-restricted"],
  videoQuality: ["", "auto", "720p"],
};

/** Wire key → its UI name and how its values read. Keys not listed keep their own name, values as text. */
const FIELDS: Record<string, FieldSpec> = {
  name: { label: "name", format: quoted },
  topic: { label: "topic", format: quoted },
  description: { label: "description", format: quoted },
  nick: { label: "nickname", format: (v) => (isNil(v) ? "none" : `“${String(v)}”`) },
  rate_limit_per_user: { label: "slowmode", format: seconds("off") },
  default_thread_rate_limit_per_user: { label: "thread slowmode", format: seconds("off") },
  nsfw: { label: "age-restricted", format: onOff },
  bitrate: { label: "bitrate", format: (v) => (isNil(v) ? "none" : `${Math.round(Number(v) / 1000)} kbps`) },
  user_limit: { label: "user limit", format: count("no limit") },
  position: { label: "position", format: text },
  parent_id: { label: "category", format: (v, n) => (isNil(v) ? "no category" : (n.channel(String(v)) ?? String(v))) },
  rtc_region: { label: "region", format: (v) => (isNil(v) ? "automatic" : String(v)) },
  video_quality_mode: { label: "video quality", format: level(LEVELS.videoQuality) },
  default_auto_archive_duration: { label: "hide after inactivity", format: minutes },
  auto_archive_duration: { label: "hide after inactivity", format: minutes },
  archived: { label: "archived", format: onOff },
  locked: { label: "locked", format: onOff },
  invitable: { label: "members can invite", format: onOff },
  type: { label: "type", format: channelType },
  permissions: { label: "permissions", format: permissions },
  allow: { label: "allowed", format: permissions },
  deny: { label: "denied", format: permissions },
  color: { label: "colour", format: color },
  hoist: { label: "shown separately", format: onOff },
  mentionable: { label: "mentionable", format: onOff },
  icon: { label: "icon", format: image },
  icon_hash: { label: "icon", format: image },
  unicode_emoji: { label: "emoji", format: text },
  banner: { label: "banner", format: image },
  banner_hash: { label: "banner", format: image },
  splash: { label: "invite background", format: image },
  splash_hash: { label: "invite background", format: image },
  discovery_splash_hash: { label: "discovery background", format: image },
  avatar_hash: { label: "avatar", format: image },
  communication_disabled_until: { label: "timeout", format: when },
  mute: { label: "server mute", format: onOff },
  deaf: { label: "server deafen", format: onOff },
  roles: { label: "roles", format: roleList },
  $add: { label: "roles added", format: roleList },
  $remove: { label: "roles removed", format: roleList },
  flags: { label: "flags", format: flagBits },
  welcome_channels: { label: "welcome channels", format: welcomeChannels },
  emoji_name: { label: "emoji", format: text },
  emoji_id: { label: "emoji", format: (v) => (isNil(v) ? "none" : "a custom emoji") },
  verification_level: { label: "verification level", format: level(LEVELS.verification) },
  explicit_content_filter: { label: "explicit media filter", format: level(LEVELS.contentFilter) },
  default_message_notifications: { label: "default notifications", format: level(LEVELS.notifications) },
  mfa_level: { label: "2FA for moderation", format: level(LEVELS.mfa) },
  nsfw_level: { label: "age restriction", format: level(LEVELS.nsfw) },
  afk_channel_id: { label: "inactive channel", format: channel },
  afk_timeout: { label: "inactive timeout", format: seconds("off") },
  system_channel_id: { label: "system messages channel", format: channel },
  rules_channel_id: { label: "rules channel", format: channel },
  public_updates_channel_id: { label: "community updates channel", format: channel },
  safety_alerts_channel_id: { label: "safety alerts channel", format: channel },
  widget_channel_id: { label: "widget invite channel", format: channel },
  widget_enabled: { label: "widget", format: onOff },
  enabled: { label: "enabled", format: onOff },
  channel_id: { label: "channel", format: channel },
  owner_id: { label: "owner", format: user },
  inviter_id: { label: "inviter", format: user },
  code: { label: "code", format: text },
  vanity_url_code: { label: "vanity URL", format: text },
  preferred_locale: { label: "language", format: text },
  premium_progress_bar_enabled: { label: "boost progress bar", format: onOff },
  max_uses: { label: "max uses", format: count("unlimited") },
  max_age: { label: "expires after", format: seconds("never") },
  uses: { label: "uses", format: text },
  temporary: { label: "temporary membership", format: onOff },
  invites_disabled_until: { label: "invites paused", format: when },
  dms_disabled_until: { label: "DMs paused", format: when },
  pruned: { label: "members removed", format: text },
  days: { label: "inactive for", format: (v) => (isNil(v) ? "none" : `${String(v)} days`) },
  include_roles: { label: "included roles", format: roleList },
  delete_message_seconds: { label: "delete messages from the last", format: seconds("none") },
  bypasses_verification: { label: "bypasses verification", format: onOff },
  // AutoMod rules, as their snapshots flatten them (lib/dashboard/actions/schemas/auto-moderation.ts: ruleSnapshot).
  trigger_type: { label: "kind", format: (v) => (isNil(v) ? "none" : automodGroup(Number(v))) },
  keyword_filter: { label: "keywords", format: text },
  regex_patterns: { label: "regex patterns", format: text },
  allow_list: { label: "allowed words", format: text },
  presets: {
    label: "word lists",
    format: (v) => (Array.isArray(v) && v.length ? v.map(presetLabel).join("; ") : "none"),
  },
  mention_total_limit: { label: "mention limit", format: text },
  mention_raid_protection_enabled: { label: "mention raid protection", format: onOff },
  block_message: { label: "block message", format: onOff },
  custom_message: { label: "custom message", format: quoted },
  alert_channel_id: { label: "alert channel", format: channel },
  timeout_seconds: { label: "timeout", format: seconds("none") },
  block_member_interaction: { label: "block member interactions", format: onOff },
  exempt_roles: { label: "exempt roles", format: roleList },
  exempt_channels: { label: "exempt channels", format: channelList },
};

/** Snapshot keys that are bookkeeping, not a setting a moderator changed. */
const HIDDEN = new Set(["user", "snapshotError", "previewId", "id", "guild_id", "managed", "tags", "version"]);

export function fieldLabel(key: string): string {
  return FIELDS[key]?.label ?? key.replace(/_/g, " ");
}

export function formatValue(key: string, value: unknown, names: AuditNames = NO_NAMES): string {
  return (FIELDS[key]?.format ?? text)(value, names);
}

/** Permissions added and removed between two bitfields: "+Ban Members, −Kick Members". */
export function permissionDelta(before: unknown, after: unknown): string | null {
  const b = toBits(before) ?? 0n;
  const a = toBits(after) ?? 0n;
  const added = permissionNames(a & ~b).map((n) => `+${n}`);
  const removed = permissionNames(b & ~a).map((n) => `−${n}`);
  const all = [...added, ...removed];
  return all.length ? all.join(", ") : null;
}

interface Overwrite {
  id: string;
  type?: number | string;
  allow?: string;
  deny?: string;
}

const overwriteList = (v: unknown): Overwrite[] =>
  Array.isArray(v) ? v.filter((o): o is Overwrite => typeof o === "object" && o !== null && "id" in o) : [];

/** Per role or member whose overwrite changed: "Helper: allowed +Send Messages; denied −View Channel". */
function overwriteDelta(before: unknown, after: unknown, names: AuditNames): string | null {
  const b = new Map(overwriteList(before).map((o) => [String(o.id), o]));
  const a = new Map(overwriteList(after).map((o) => [String(o.id), o]));
  const parts: string[] = [];
  for (const id of new Set([...b.keys(), ...a.keys()])) {
    const was = b.get(id);
    const now = a.get(id);
    const who = names.role(id) ?? names.user(id) ?? id;
    if (!now) {
      parts.push(`${who}: overwrite removed`);
      continue;
    }
    const allow = permissionDelta(was?.allow, now.allow);
    const deny = permissionDelta(was?.deny, now.deny);
    const bits = [allow && `allowed ${allow}`, deny && `denied ${deny}`].filter(Boolean);
    if (bits.length) parts.push(`${who}: ${bits.join("; ")}`);
    else if (!was) parts.push(`${who}: overwrite added`);
  }
  return parts.length ? parts.join(" · ") : null;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The fields that differ between two snapshots (or a change list turned into before/after), in words. */
export function describeChanges(before: unknown, after: unknown, names: AuditNames = NO_NAMES): ChangeLine[] {
  const b = isRecord(before) ? before : {};
  const a = isRecord(after) ? after : {};
  const lines: ChangeLine[] = [];
  for (const key of [...new Set([...Object.keys(b), ...Object.keys(a)])]) {
    if (HIDDEN.has(key) || same(b[key], a[key])) continue;
    const field = fieldLabel(key);
    const has = (o: Record<string, unknown>) => key in o && o[key] !== undefined;
    if (key === "permissions" || key === "allow" || key === "deny") {
      const summary = permissionDelta(b[key], a[key]);
      if (summary) lines.push({ field, summary });
      continue;
    }
    if (key === "permission_overwrites") {
      const summary = overwriteDelta(b[key], a[key], names);
      if (summary) lines.push({ field: "permission overwrites", summary });
      continue;
    }
    if (key === "roles" && Array.isArray(b[key]) && Array.isArray(a[key])) {
      const was = new Set((b[key] as unknown[]).map(String));
      const now = new Set((a[key] as unknown[]).map(String));
      const added = [...now].filter((id) => !was.has(id)).map((id) => `+${names.role(id) ?? id}`);
      const removed = [...was].filter((id) => !now.has(id)).map((id) => `−${names.role(id) ?? id}`);
      lines.push({ field, summary: [...added, ...removed].join(", ") });
      continue;
    }
    // A snapshot keyed by id (a reorder: each channel or role with its name, position and parent): what moved.
    if (isRecord(b[key]) && isRecord(a[key])) {
      const inner = describeChanges(b[key], a[key], names).filter((line) => line.field !== "name");
      const named = (a[key] as { name?: unknown }).name;
      if (inner.length)
        lines.push({
          field: names.channel(key) ?? names.role(key) ?? (typeof named === "string" ? named : key),
          summary: inner.map(changePhrase).join(", "),
        });
      continue;
    }
    if (key === "$add" || key === "$remove") {
      const sign = key === "$add" ? "+" : "−";
      const list = formatValue(key, a[key] ?? b[key], names);
      lines.push({
        field: "roles",
        summary: list
          .split(", ")
          .map((n) => `${sign}${n}`)
          .join(", "),
      });
      continue;
    }
    lines.push({
      field,
      before: has(b) ? formatValue(key, b[key], names) : undefined,
      after: has(a) ? formatValue(key, a[key], names) : undefined,
    });
  }
  return lines;
}

/** One change as a phrase: "slowmode off → 10 s", "name “general”", "roles +Helper". */
export function changePhrase(line: ChangeLine): string {
  if (line.summary !== undefined) return `${line.field} ${line.summary}`;
  if (line.before !== undefined && line.after !== undefined) return `${line.field} ${line.before} → ${line.after}`;
  if (line.after !== undefined) return `${line.field} ${line.after}`;
  return `${line.field} was ${line.before ?? "none"}`;
}

// Onboarding: Get Guild Onboarding and Modify Guild Onboarding, with the enabling constraints (at least 7 default
// channels, at least 5 of them where @everyone can send messages; in ONBOARDING_ADVANCED the channels of the prompts
// shown during onboarding count too). Prompts are stored whole, in the wire shape, in guild_onboarding.prompts.
import { AuditLogEvent } from "discord-api-types/v10";
import { isUnicodeEmoji } from "@/lib/discord/emoji";
import { ONBOARDING_MIN_DEFAULT_CHANNELS, ONBOARDING_MIN_WRITABLE_CHANNELS } from "@/lib/discord/limits";
import { countedChannelIds, everyoneCanChat } from "@/lib/discord/onboarding-rules";
import { newSnowflake } from "@/lib/discord/snowflake";
import { diffChanges, auditByCaller } from "../audit-log";
import { invalidFormBody, type FieldIssue } from "../errors";
import { parseOverwrites, type GuildAccess } from "../guards";
import type { ModifyGuildOnboardingBody, PromptInput, PromptOptionInput } from "../schemas/community";
import { transaction } from "../store/db";
import { listContentChannelOverwrites } from "../store/channels";
import { findGuildEmoji } from "../store/expressions";
import { findGuildOnboarding, saveGuildOnboarding } from "../store/guild-onboarding";
import { mapSequentially } from "../sequential";

const MODE_ADVANCED = 1;

/** A prompt option as stored (the input shape Discord takes: emoji_id / emoji_name / emoji_animated). */
interface StoredOption {
  id: string;
  title: string;
  description: string | null;
  emoji_id: string | null;
  emoji_name: string | null;
  emoji_animated: boolean;
  role_ids: string[];
  channel_ids: string[];
}
interface StoredPrompt {
  id: string;
  type: number;
  title: string;
  single_select: boolean;
  required: boolean;
  in_onboarding: boolean;
  options: StoredOption[];
}
interface Onboarding {
  enabled: boolean;
  mode: number;
  defaultChannelIds: string[];
  prompts: StoredPrompt[];
}

async function readOnboarding(guildId: bigint): Promise<{ onboarding: Onboarding; exists: boolean }> {
  const row = await findGuildOnboarding(guildId);
  if (!row) return { onboarding: { enabled: false, mode: 0, defaultChannelIds: [], prompts: [] }, exists: false };
  return {
    onboarding: {
      enabled: Boolean(row.enabled),
      mode: Number(row.mode),
      defaultChannelIds: JSON.parse(row.default_channel_ids) as string[],
      prompts: JSON.parse(row.prompts) as StoredPrompt[],
    },
    exists: true,
  };
}

/** The onboarding object: options carry an emoji object ({id, name, animated}, nulls when none). */
function serializeOnboarding(guildId: bigint, onboarding: Onboarding) {
  return {
    guild_id: String(guildId),
    prompts: onboarding.prompts.map((prompt) => ({
      id: prompt.id,
      type: prompt.type,
      title: prompt.title,
      options: prompt.options.map((option) => ({
        id: option.id,
        title: option.title,
        // Discord's OpenAPI types description as a string: an option without one reads as "".
        description: option.description ?? "",
        emoji: { id: option.emoji_id, name: option.emoji_name, animated: Boolean(option.emoji_animated) },
        role_ids: option.role_ids,
        channel_ids: option.channel_ids,
      })),
      single_select: prompt.single_select,
      required: prompt.required,
      in_onboarding: prompt.in_onboarding,
    })),
    default_channel_ids: onboarding.defaultChannelIds,
    enabled: onboarding.enabled,
    mode: onboarding.mode,
  };
}

/** Get Guild Onboarding: any member of the guild. */
export async function getGuildOnboarding(access: GuildAccess) {
  return serializeOnboarding(access.guildId, (await readOnboarding(access.guildId)).onboarding);
}

interface ChannelInfo {
  overwrites: string;
}

/** The guild's channels an onboarding may name (not categories or threads), by id. */
async function onboardingChannels(guildId: bigint): Promise<Map<string, ChannelInfo>> {
  const rows = await listContentChannelOverwrites(guildId);
  return new Map(rows.map((row) => [String(row.id), { overwrites: row.permission_overwrites }]));
}

/** Checks and stores one option; ids the request names that already exist are kept, others are generated. */
async function resolveOption(
  access: GuildAccess,
  input: PromptOptionInput,
  path: Array<string | number>,
  ctx: ResolveContext,
): Promise<StoredOption> {
  const channelIds = input.channel_ids ?? [];
  const roleIds = input.role_ids ?? [];
  channelIds.forEach((id, i) => {
    if (!ctx.channels.has(id))
      ctx.issues.push({
        path: [...path, "channel_ids", i],
        code: "CHANNEL_INVALID",
        message: `Channel ${id} is not a channel of this guild.`,
      });
  });
  roleIds.forEach((id, i) => {
    const role = access.role(id);
    if (!role || role.id === access.guildId)
      ctx.issues.push({ path: [...path, "role_ids", i], code: "UNKNOWN_ROLE", message: `Unknown role ${id}.` });
    else if (role.managed)
      ctx.issues.push({
        path: [...path, "role_ids", i],
        code: "ROLE_MANAGED",
        message: "A managed role cannot be assigned.",
      });
    else access.assertCanManageRole(role);
  });
  let emojiId = input.emoji_id ?? null;
  let emojiName = input.emoji_name ?? null;
  let animated = false;
  if (emojiId !== null) {
    const emoji = await findGuildEmoji(access.guildId, BigInt(emojiId));
    if (!emoji) {
      ctx.issues.push({
        path: [...path, "emoji_id"],
        code: "EMOJI_INVALID",
        message: "Must be a custom emoji of this guild.",
      });
      emojiId = null;
    } else {
      emojiName = emoji.name;
      animated = Boolean(emoji.animated);
    }
  } else if (emojiName !== null && !isUnicodeEmoji(emojiName)) {
    ctx.issues.push({
      path: [...path, "emoji_name"],
      code: "EMOJI_INVALID",
      message: "Must be a unicode emoji, or the name of the custom emoji given by emoji_id.",
    });
  }
  return {
    id: ctx.keepOrNewId(input.id ?? null, ctx.existingOptionIds),
    title: input.title,
    description: input.description ?? null,
    emoji_id: emojiId,
    emoji_name: emojiName,
    emoji_animated: animated,
    role_ids: roleIds,
    channel_ids: channelIds,
  };
}

interface ResolveContext {
  channels: Map<string, ChannelInfo>;
  issues: FieldIssue[];
  existingOptionIds: ReadonlySet<string>;
  keepOrNewId(id: string | null, existing: ReadonlySet<string>): string;
}

async function resolvePrompt(
  access: GuildAccess,
  input: PromptInput,
  index: number,
  ctx: ResolveContext,
  existingPromptIds: ReadonlySet<string>,
): Promise<StoredPrompt> {
  return {
    id: ctx.keepOrNewId(input.id ?? null, existingPromptIds),
    type: input.type ?? 0,
    title: input.title,
    single_select: input.single_select ?? false,
    required: input.required ?? false,
    in_onboarding: input.in_onboarding ?? true,
    options: await mapSequentially(input.options, (option, i) =>
      resolveOption(access, option, ["prompts", index, "options", i], ctx),
    ),
  };
}

/**
 * The enabling constraints, each failure naming the rule and the shortfall. Default mode counts the default channels;
 * advanced mode adds the channels of options of prompts shown during onboarding.
 */
function constraintIssues(
  access: GuildAccess,
  onboarding: Onboarding,
  channels: Map<string, ChannelInfo>,
): FieldIssue[] {
  // Which channels count, and where @everyone can chat, are the shared rules the dashboard's live checker applies.
  const counted = countedChannelIds({
    enabled: onboarding.enabled,
    mode: onboarding.mode,
    default_channel_ids: onboarding.defaultChannelIds,
    prompts: onboarding.prompts,
  });
  const writable = [...counted.keys()].filter((id) => {
    const channel = channels.get(id);
    return channel !== undefined && everyoneCanChat(access.context, parseOverwrites(channel.overwrites));
  }).length;
  const what =
    onboarding.mode === MODE_ADVANCED
      ? "default channels (counting the channels of onboarding questions)"
      : "default channels";
  const issues: FieldIssue[] = [];
  const shortBy = (min: number, has: number) => `has ${has}: add ${min - has} more`;
  if (counted.size < ONBOARDING_MIN_DEFAULT_CHANNELS)
    issues.push({
      path: ["default_channel_ids"],
      code: "ONBOARDING_DEFAULT_CHANNELS_TOO_FEW",
      message: `Onboarding requires at least ${ONBOARDING_MIN_DEFAULT_CHANNELS} ${what} (${shortBy(ONBOARDING_MIN_DEFAULT_CHANNELS, counted.size)})`,
    });
  if (writable < ONBOARDING_MIN_WRITABLE_CHANNELS)
    issues.push({
      path: ["default_channel_ids"],
      code: "ONBOARDING_WRITABLE_CHANNELS_TOO_FEW",
      message: `Onboarding requires at least ${ONBOARDING_MIN_WRITABLE_CHANNELS} ${what} where @everyone can send messages (${shortBy(ONBOARDING_MIN_WRITABLE_CHANNELS, writable)})`,
    });
  return issues;
}

/**
 * Modify Guild Onboarding (MANAGE_GUILD and MANAGE_ROLES): the fields sent replace the stored ones (prompts whole,
 * with new ids for new prompts and options); channels and roles must be the guild's; enabled onboarding must meet the
 * constraints. One ONBOARDING_CREATE / ONBOARDING_UPDATE audit entry with the changes. Discord documents no gateway
 * event for onboarding, so none is written.
 */
export async function modifyGuildOnboarding(
  access: GuildAccess,
  body: ModifyGuildOnboardingBody,
  reason: string | null,
) {
  access.authorize("Modify Guild Onboarding");
  const guildId = access.guildId;
  return await transaction(async () => {
    const { onboarding: before, exists } = await readOnboarding(guildId);
    const channels = await onboardingChannels(guildId);
    const issues: FieldIssue[] = [];
    const used = new Set<string>();
    const existingPromptIds = new Set(before.prompts.map((p) => p.id));
    const ctx: ResolveContext = {
      channels,
      issues,
      existingOptionIds: new Set(before.prompts.flatMap((p) => p.options.map((o) => o.id))),
      keepOrNewId(id, existing) {
        const kept = id !== null && existing.has(id) && !used.has(id) ? id : String(newSnowflake());
        used.add(kept);
        return kept;
      },
    };

    const next: Onboarding = { ...before };
    if (body.prompts !== undefined)
      next.prompts = await mapSequentially(body.prompts ?? [], (prompt, index) =>
        resolvePrompt(access, prompt, index, ctx, existingPromptIds),
      );
    if (body.default_channel_ids !== undefined) {
      next.defaultChannelIds = body.default_channel_ids ?? [];
      next.defaultChannelIds.forEach((id, i) => {
        if (!channels.has(id))
          issues.push({
            path: ["default_channel_ids", i],
            code: "CHANNEL_INVALID",
            message: `Channel ${id} is not a channel of this guild.`,
          });
      });
    }
    if (body.enabled !== undefined && body.enabled !== null) next.enabled = body.enabled;
    if (body.mode !== undefined && body.mode !== null) next.mode = body.mode;
    if (issues.length === 0 && next.enabled) issues.push(...constraintIssues(access, next, channels));
    if (issues.length > 0) throw invalidFormBody(issues);

    await saveGuildOnboarding({
      guildId,
      enabled: next.enabled,
      mode: next.mode,
      defaultChannelIds: JSON.stringify(next.defaultChannelIds),
      prompts: JSON.stringify(next.prompts),
    });
    const wire = serializeOnboarding(guildId, next);
    const changes = diffChanges(serializeOnboarding(guildId, before), wire, [
      "prompts",
      "default_channel_ids",
      "enabled",
      "mode",
    ]);
    if (changes.length > 0 || !exists)
      await auditByCaller(access, {
        actionType: exists ? AuditLogEvent.OnboardingUpdate : AuditLogEvent.OnboardingCreate,
        targetId: guildId,
        reason,
        changes,
      });
    return wire;
  });
}

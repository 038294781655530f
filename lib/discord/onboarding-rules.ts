// The rules an onboarding must meet before it can be enabled (spec: Modify Guild Onboarding, and Limits): at least 7
// Default Channels, at least 5 of them where @everyone can send messages. ONBOARDING_DEFAULT counts the default
// channels only; ONBOARDING_ADVANCED also counts the channels the options of onboarding questions add. Pure: the
// dashboard's live checker runs it in the browser on the draft, before anything is sent.
import { PermissionFlagsBits, type ChannelType } from "discord-api-types/v10";
import { ONBOARDING_MIN_DEFAULT_CHANNELS, ONBOARDING_MIN_WRITABLE_CHANNELS } from "./limits";
import { computeChannelPermissions, type GuildPermissionContext, type PermissionOverwrite } from "./permissions";

export const ONBOARDING_MODE = { DEFAULT: 0, ADVANCED: 1 } as const;

/** Channels an onboarding may name: every guild channel but categories and threads. */
export const ONBOARDING_CHANNEL_TYPES: readonly ChannelType[] = [0, 2, 5, 13, 15, 16];

/** What @everyone needs in a channel for it to count as one where members can talk. */
export const CHAT_PERMISSIONS = PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages;

export interface OnboardingRuleChannel {
  id: string;
  name: string;
  type: ChannelType;
  overwrites: readonly PermissionOverwrite[];
}

/** The parts of an onboarding (draft or saved) the rules look at. */
export interface OnboardingRuleDraft {
  enabled: boolean;
  mode: number;
  default_channel_ids: readonly string[];
  prompts: ReadonlyArray<{ in_onboarding: boolean; options: ReadonlyArray<{ channel_ids: readonly string[] }> }>;
}

export interface CountedChannel {
  id: string;
  name: string;
  /** @everyone can view it and send messages in it. */
  writable: boolean;
  /** Why it counts: a default channel, a channel an onboarding question adds (advanced mode), or both. */
  from: "default" | "question" | "both";
}

export interface OnboardingRule {
  id: "channels" | "writable";
  label: string;
  have: number;
  need: number;
  met: boolean;
}

export interface OnboardingRuleReport {
  mode: number;
  rules: [OnboardingRule, OnboardingRule];
  /** Both rules met. */
  met: boolean;
  /** The draft may be saved: it is not enabled, or the rules are met. */
  canSave: boolean;
  counted: CountedChannel[];
  /** Ids the draft names that are not channels an onboarding may use (deleted, categories, threads). */
  unknown: string[];
  /** The fewest channels whose addition to the default channels meets both rules, channels @everyone can talk in first. */
  suggestions: Array<{ id: string; name: string; writable: boolean }>;
  /** Even every remaining channel would not be enough: channels must be created or opened to @everyone. */
  unreachable: boolean;
}

/** What @everyone may do in the channel (its overwrites applied), by the shared permission engine. */
export function everyoneAccess(
  context: GuildPermissionContext,
  overwrites: readonly PermissionOverwrite[],
): "chat" | "read-only" | "hidden" {
  // A user id no member has: only @everyone's overwrite applies.
  const permissions = computeChannelPermissions(context, { userId: "0", roleIds: [] }, overwrites);
  if ((permissions & CHAT_PERMISSIONS) === CHAT_PERMISSIONS) return "chat";
  return (permissions & PermissionFlagsBits.ViewChannel) === PermissionFlagsBits.ViewChannel ? "read-only" : "hidden";
}

export const everyoneCanChat = (context: GuildPermissionContext, overwrites: readonly PermissionOverwrite[]): boolean =>
  everyoneAccess(context, overwrites) === "chat";

/** The channel ids that count toward the rules, each with where it comes from. */
export function countedChannelIds(draft: OnboardingRuleDraft): Map<string, CountedChannel["from"]> {
  const counted = new Map<string, CountedChannel["from"]>(draft.default_channel_ids.map((id) => [id, "default"]));
  if (draft.mode !== ONBOARDING_MODE.ADVANCED) return counted;
  for (const prompt of draft.prompts) {
    if (!prompt.in_onboarding) continue;
    for (const option of prompt.options)
      for (const id of option.channel_ids)
        counted.set(id, counted.has(id) && counted.get(id) !== "question" ? "both" : "question");
  }
  return counted;
}

export function checkOnboardingRules(
  draft: OnboardingRuleDraft,
  guild: { context: GuildPermissionContext; channels: readonly OnboardingRuleChannel[] },
): OnboardingRuleReport {
  const eligible = guild.channels.filter((channel) => ONBOARDING_CHANNEL_TYPES.includes(channel.type));
  const byId = new Map(eligible.map((channel) => [channel.id, channel]));
  const writableIds = new Set(
    eligible.filter((channel) => everyoneCanChat(guild.context, channel.overwrites)).map((channel) => channel.id),
  );

  const counted: CountedChannel[] = [];
  const unknown: string[] = [];
  for (const [id, from] of countedChannelIds(draft)) {
    const channel = byId.get(id);
    if (channel) counted.push({ id, name: channel.name, writable: writableIds.has(id), from });
    else unknown.push(id);
  }
  const writable = counted.filter((channel) => channel.writable).length;
  const advanced = draft.mode === ONBOARDING_MODE.ADVANCED;
  const rules: OnboardingRuleReport["rules"] = [
    {
      id: "channels",
      label: `At least ${ONBOARDING_MIN_DEFAULT_CHANNELS} default channels${advanced ? " (questions' channels count too)" : ""}`,
      have: counted.length,
      need: ONBOARDING_MIN_DEFAULT_CHANNELS,
      met: counted.length >= ONBOARDING_MIN_DEFAULT_CHANNELS,
    },
    {
      id: "writable",
      label: `At least ${ONBOARDING_MIN_WRITABLE_CHANNELS} of them where @everyone can send messages`,
      have: writable,
      need: ONBOARDING_MIN_WRITABLE_CHANNELS,
      met: writable >= ONBOARDING_MIN_WRITABLE_CHANNELS,
    },
  ];
  const met = rules.every((rule) => rule.met);

  const countedIds = new Set(counted.map((channel) => channel.id));
  const candidates = eligible.filter((channel) => !countedIds.has(channel.id));
  const writableCandidates = candidates.filter((channel) => writableIds.has(channel.id));
  const otherCandidates = candidates.filter((channel) => !writableIds.has(channel.id));
  const needWritable = Math.max(0, ONBOARDING_MIN_WRITABLE_CHANNELS - writable);
  const needTotal = Math.max(0, ONBOARDING_MIN_DEFAULT_CHANNELS - counted.length);
  const picked = writableCandidates.slice(0, Math.max(needWritable, needTotal));
  if (picked.length < needTotal) picked.push(...otherCandidates.slice(0, needTotal - picked.length));
  const suggestions = picked.map((channel) => ({
    id: channel.id,
    name: channel.name,
    writable: writableIds.has(channel.id),
  }));
  const unreachable = writableCandidates.length < needWritable || candidates.length < needTotal;

  return { mode: draft.mode, rules, met, canSave: !draft.enabled || met, counted, unknown, suggestions, unreachable };
}

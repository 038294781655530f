// The permission explorer's answers: what a role or a member can do in a channel (view, send, connect, manage) and
// why, read from the one permission engine's explanation (lib/discord/permissions.ts: explainPermissions). Pure, so
// the explorer page and the channel's "Who can access" list share it. The rules the API adds on top of the engine are
// applied as the API applies them: nothing in a channel without View Channel (every channel operation first checks
// it), and members still in membership screening hold nothing.
import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import {
  explainFlag,
  explainPermissions,
  type GuildPermissionContext,
  type PermissionExplanation,
  type PermissionMember,
  type PermissionSource,
  type PermissionStep,
} from "@/lib/discord/permissions";
import { toPermissionOverwrite, type WireOverwrite } from "@/lib/discord/channel-permissions";

export type Capability = "view" | "send" | "connect" | "manage";

export const CAPABILITIES: Readonly<Record<Capability, { label: string; flag: bigint; permission: string }>> = {
  view: { label: "View", flag: P.ViewChannel, permission: "View Channel" },
  send: { label: "Send", flag: P.SendMessages, permission: "Send Messages" },
  connect: { label: "Connect", flag: P.Connect, permission: "Connect" },
  manage: { label: "Manage", flag: P.ManageChannels, permission: "Manage Channel" },
};

/** What is worth asking of a channel of this type: categories hold no chat; only voice and stage connect. */
export function capabilitiesOf(type: number): Capability[] {
  if (type === ChannelType.GuildCategory) return ["view", "manage"];
  if (type === ChannelType.GuildVoice || type === ChannelType.GuildStageVoice)
    return ["view", "connect", "send", "manage"];
  return ["view", "send", "manage"];
}

/** Names for the ids an explanation mentions. */
export interface ExplorerNames {
  guildId: string;
  role(id: string): string;
  member(id: string): string;
}

export function describeSource(source: PermissionSource, names: ExplorerNames): string {
  switch (source.kind) {
    case "owner":
      return "server owner";
    case "timeout":
      return "timeout";
    case "role":
      return source.roleId === names.guildId ? "@everyone" : names.role(source.roleId);
    case "overwrite":
      if (source.target === "everyone") return "channel overwrite for @everyone";
      if (source.target === "role") return `channel overwrite for ${names.role(source.id)}`;
      return `channel overwrite for ${names.member(source.id)}`;
  }
}

export interface Clue {
  text: string;
  effect: "allows" | "denies";
}

export interface CapabilityAnswer {
  capability: Capability;
  granted: boolean;
  /** One line: what decided. */
  because: string;
  /** Every step that touches the permission, in the engine's order. */
  clues: Clue[];
}

export interface Subject extends PermissionMember {
  /** In membership screening: holds no permissions until it completes (the owner excepted). */
  pending?: boolean;
}

/** The engine's explanation for a subject in a channel (or guild-wide, without overwrites). */
export function explainSubject(
  ctx: GuildPermissionContext,
  subject: Subject,
  overwrites: readonly WireOverwrite[] | null,
  now = Date.now(),
): PermissionExplanation {
  return explainPermissions(ctx, subject, overwrites ? overwrites.map(toPermissionOverwrite) : null, now);
}

function stepClue(step: PermissionStep, flag: bigint, names: ExplorerNames): Clue {
  return { text: describeSource(step.source, names), effect: (step.allow & flag) === flag ? "allows" : "denies" };
}

/** One capability, as the API would judge it. */
export function answer(
  explanation: PermissionExplanation,
  capability: Capability,
  names: ExplorerNames,
  pending = false,
): CapabilityAnswer {
  const { flag, permission } = CAPABILITIES[capability];
  const flagged = explainFlag(explanation, flag);
  const clues = explanation.steps
    .filter((step) => !step.bypassed && ((step.allow & flag) === flag || (step.deny & flag) !== 0n))
    .map((step) => stepClue(step, flag, names));
  if (explanation.isOwner) return { capability, granted: true, because: "server owner: every permission", clues };
  if (pending)
    return { capability, granted: false, because: "in membership screening: holds no permissions yet", clues };
  if (explanation.isAdministrator) {
    const admin = explanation.steps.find((s) => s.source.kind === "role" && (s.allow & P.Administrator) !== 0n);
    const via = admin ? describeSource(admin.source, names) : "a role";
    return { capability, granted: true, because: `Administrator through ${via}: overwrites don't apply`, clues };
  }
  if (capability !== "view" && !explainFlag(explanation, P.ViewChannel).granted)
    return { capability, granted: false, because: "can't view the channel", clues };
  const decided = flagged.decidedBy ? describeSource(flagged.decidedBy.source, names) : null;
  const because = flagged.granted
    ? `${permission} allowed by ${decided}`
    : decided
      ? `${permission} denied by ${decided}`
      : `no role grants ${permission}`;
  return { capability, granted: flagged.granted, because, clues };
}

/** Every capability of the channel's type. */
export function answers(
  ctx: GuildPermissionContext,
  subject: Subject,
  channel: { type: number; overwrites: readonly WireOverwrite[] },
  names: ExplorerNames,
  now = Date.now(),
): CapabilityAnswer[] {
  const explanation = explainSubject(ctx, subject, channel.overwrites, now);
  return capabilitiesOf(channel.type).map((capability) => answer(explanation, capability, names, subject.pending));
}

/** A subject holding one role (and @everyone), for "View as role"; never the owner. */
export const roleSubject = (roleId: string, guildId: string): Subject => ({
  userId: "0",
  roleIds: roleId === guildId ? [] : [roleId],
});

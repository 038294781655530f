// Channel reads for the dashboard: the guild's channels (sorted as Discord shows them) and its active threads.
import { cache } from "react";
import { ChannelType, type APIOverwrite, type APIThreadChannel } from "discord-api-types/v10";
import { maySeeThread, toPermissionOverwrite, type WireOverwrite } from "@/lib/discord/channel-permissions";
import { computeChannelPermissions } from "@/lib/discord/permissions";
import { isBotMode, managementApi } from "./api";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

/** The fields the dashboard uses, from any guild channel. */
export interface ChannelSummary {
  id: string;
  name: string;
  type: ChannelType;
  position: number;
  parent_id: string | null;
  topic: string | null;
  nsfw: boolean;
  /** Permission overwrites as the wire carries them (bitfields as decimal strings, safe to hand to the browser). */
  overwrites: Array<{ id: string; type: 0 | 1; allow: string; deny: string }>;
  /** Overwrites present (a "private" or customised channel). */
  overwriteCount: number;
  bitrate: number | null;
  user_limit: number | null;
  rate_limit_per_user: number | null;
}

const VOICE_TYPES: readonly ChannelType[] = [ChannelType.GuildVoice, ChannelType.GuildStageVoice];

/** Discord's sidebar order: by position, voice-like channels after text-like ones, ties by id. */
export function compareChannels(
  a: Pick<ChannelSummary, "id" | "type" | "position">,
  b: Pick<ChannelSummary, "id" | "type" | "position">,
): number {
  const va = VOICE_TYPES.includes(a.type) ? 1 : 0;
  const vb = VOICE_TYPES.includes(b.type) ? 1 : 0;
  return va - vb || a.position - b.position || (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
}

export const getGuildChannels = cache(async (viewer: GuildViewer): Promise<ChannelSummary[]> =>
  readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const channels = (await api.channels.list(viewer.guild.id)) as unknown as Array<Record<string, unknown>>;
    return channels
      .map((c) => ({
        id: c.id as string,
        name: c.name as string,
        type: c.type as ChannelType,
        position: (c.position as number) ?? 0,
        parent_id: (c.parent_id as string | null | undefined) ?? null,
        topic: (c.topic as string | null | undefined) ?? null,
        nsfw: Boolean(c.nsfw),
        overwrites: ((c.permission_overwrites as APIOverwrite[] | undefined) ?? []).map((o) => ({
          id: o.id,
          type: o.type as 0 | 1,
          allow: o.allow,
          deny: o.deny,
        })),
        overwriteCount: Array.isArray(c.permission_overwrites) ? c.permission_overwrites.length : 0,
        bitrate: (c.bitrate as number | undefined) ?? null,
        user_limit: (c.user_limit as number | undefined) ?? null,
        rate_limit_per_user: (c.rate_limit_per_user as number | undefined) ?? null,
      }))
      .sort(compareChannels);
  }),
);

export interface ThreadSummary {
  id: string;
  name: string;
  type: ChannelType;
  parent_id: string | null;
  message_count: number | null;
  member_count: number | null;
  archive_timestamp: string | null;
  locked: boolean;
}

export const THREAD_TYPES: readonly ChannelType[] = [
  ChannelType.AnnouncementThread,
  ChannelType.PublicThread,
  ChannelType.PrivateThread,
];

/**
 * The moderator's permissions in a channel as the API computes them for their own token: the channel's overwrites
 * (a thread's parent's) applied by the shared engine; none known (no parent), the guild-wide permissions. Bot mode
 * reads with the bot's token, which sees every channel, so the dashboard asks this before showing one.
 */
export function viewerChannelPermissions(
  viewer: Pick<GuildViewer, "context" | "self" | "permissions">,
  overwrites: readonly WireOverwrite[] | undefined,
): bigint {
  if (overwrites === undefined) return viewer.permissions;
  return computeChannelPermissions(viewer.context, viewer.self, overwrites.map(toPermissionOverwrite));
}

/**
 * List Active Guild Threads, as the API answers the moderator's own token (lib/guild-api/services/channels.ts): the
 * threads whose parent they may view and, of private threads, those they are in or whose parent they manage threads
 * in. In user mode the API has judged already (and `members` are the moderator's memberships); in bot mode the bot's
 * token lists every thread and `members` are the bot's, so the dashboard judges. Bot mode cannot tell who is in a
 * thread (the API has no Get Thread Member), so there a private thread needs Manage Threads: it errs on hiding.
 */
export async function getActiveThreads(viewer: GuildViewer): Promise<ThreadSummary[]> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const [{ threads, members }, channels] = await Promise.all([
      api.channels.getActiveThreads(viewer.guild.id),
      getGuildChannels(viewer),
    ]);
    const joined = new Set(isBotMode() ? [] : members.flatMap((m) => (m.id ? [m.id] : [])));
    const parents = new Map(channels.map((c) => [c.id, c.overwrites]));
    const visible = (threads as APIThreadChannel[]).filter((t) => {
      const permissions = viewerChannelPermissions(viewer, t.parent_id ? parents.get(t.parent_id) : undefined);
      return maySeeThread(t, permissions, joined.has(t.id));
    });
    return visible.map((t) => ({
      id: t.id,
      name: t.name,
      type: t.type,
      parent_id: t.parent_id ?? null,
      message_count: t.message_count ?? null,
      member_count: t.member_count ?? null,
      archive_timestamp: t.thread_metadata?.archive_timestamp ?? null,
      locked: Boolean(t.thread_metadata?.locked),
    }));
  });
}

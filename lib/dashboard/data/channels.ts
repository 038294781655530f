// Channel reads for the dashboard: the guild's channels (sorted as Discord shows them) and its active threads.
import { cache } from "react";
import { ChannelType, type APIOverwrite, type APIThreadChannel } from "discord-api-types/v10";
import { managementApi } from "./api";
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

export async function getActiveThreads(viewer: GuildViewer): Promise<ThreadSummary[]> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const { threads } = await api.channels.getActiveThreads(viewer.guild.id);
    return (threads as APIThreadChannel[]).map((t) => ({
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

// Reads of one channel's settings page: the channel itself (every field Get Channel carries), its invites, the voice
// regions a voice channel may pin, and the members "Who can access" judges (a page of them, or a name search).
import { cache } from "react";
import { notFound } from "next/navigation";
import type {
  APIExtendedInvite,
  APIGuildChannel,
  APIGuildMember,
  APIVoiceRegion,
  GuildChannelType,
} from "discord-api-types/v10";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import type { WireOverwrite } from "@/lib/discord/channel-permissions";
import { hasPermission } from "@/lib/discord/permissions";
import { managementApi } from "./api";
import { getGuildChannels, THREAD_TYPES, viewerChannelPermissions } from "./channels";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

/** A guild channel with every type-specific field the settings page may edit (absent ones are undefined). */
export type ChannelDetails = Omit<APIGuildChannel<GuildChannelType>, "permission_overwrites"> & {
  permission_overwrites: WireOverwrite[];
  topic?: string | null;
  nsfw?: boolean;
  rate_limit_per_user?: number;
  default_thread_rate_limit_per_user?: number;
  default_auto_archive_duration?: number | null;
  bitrate?: number;
  user_limit?: number;
  rtc_region?: string | null;
  video_quality_mode?: number;
  available_tags?: Array<{
    id: string;
    name: string;
    moderated: boolean;
    emoji_id: string | null;
    emoji_name: string | null;
  }>;
  default_reaction_emoji?: { emoji_id: string | null; emoji_name: string | null } | null;
  default_forum_layout?: number;
  default_sort_order?: number | null;
  flags?: number;
};

const wireOverwrites = (overwrites: ChannelDetails["permission_overwrites"] | undefined): WireOverwrite[] =>
  (overwrites ?? []).map((o) => ({
    id: o.id,
    type: Number(o.type) as 0 | 1,
    allow: String(o.allow),
    deny: String(o.deny),
  }));

/**
 * Get Channel; a channel of another guild, or one the moderator cannot see, is the 404 page. In bot mode the bot's
 * token reads any channel, so the dashboard answers as the API answers the moderator's own token
 * (lib/guild-api/guards.ts channelAccessFor): View Channel in the channel, a thread judged by its parent's overwrites.
 */
export const getChannelDetails = cache(async (viewer: GuildViewer, channelId: string): Promise<ChannelDetails> =>
  readOrThrow(
    async () => {
      const api = await managementApi(viewer.session);
      const channel = (await api.channels.get(channelId)) as unknown as ChannelDetails;
      // A bot token reaches every guild's channels: one of another guild is not this page's.
      if (!("guild_id" in channel) || channel.guild_id !== viewer.guild.id) notFound();
      const overwrites = wireOverwrites(channel.permission_overwrites);
      const parent =
        THREAD_TYPES.includes(channel.type) && channel.parent_id
          ? (await getGuildChannels(viewer)).find((c) => c.id === channel.parent_id)
          : undefined;
      if (!hasPermission(viewerChannelPermissions(viewer, parent?.overwrites ?? overwrites), P.ViewChannel)) notFound();
      return { ...channel, permission_overwrites: overwrites };
    },
    { notFoundOn: [403, 404] },
  ),
);

/** Get Channel Invites, or null when the moderator may not list them (the page says why). */
export async function getChannelInviteList(
  viewer: GuildViewer,
  channelId: string,
): Promise<APIExtendedInvite[] | null> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    try {
      return (await api.channels.getInvites(channelId)) as APIExtendedInvite[];
    } catch (error) {
      if (error instanceof GuildApiError && error.status === 403) return null;
      throw error;
    }
  });
}

/** Get Guild Voice Regions, for a voice or stage channel's region override. */
export async function getVoiceRegions(viewer: GuildViewer): Promise<APIVoiceRegion[]> {
  return readOrThrow(async () => (await managementApi(viewer.session)).guilds.getVoiceRegions(viewer.guild.id));
}

/** How many members "Who can access" judges at once (a search narrows them). */
export const ACCESS_MEMBERS_PAGE = 25;

/** The first members of the guild, or those whose name starts with `query` (Search Guild Members), or one by id. */
export async function getAccessMembers(
  viewer: GuildViewer,
  query: string,
  limit = ACCESS_MEMBERS_PAGE,
): Promise<APIGuildMember[]> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const trimmed = query.trim();
    if (/^\d{17,20}$/.test(trimmed)) {
      const member = await api.members.get(viewer.guild.id, trimmed).catch((error: unknown) => {
        if (error instanceof GuildApiError && error.status === 404) return null;
        throw error;
      });
      return member ? [member] : [];
    }
    return trimmed
      ? api.members.search(viewer.guild.id, { query: trimmed, limit })
      : api.members.list(viewer.guild.id, { limit });
  });
}

/** The members with these ids (Get Guild Member each); ids that are not members are left out. */
export async function getMembersByIds(viewer: GuildViewer, ids: readonly string[]): Promise<APIGuildMember[]> {
  if (ids.length === 0) return [];
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const found = await Promise.all(
      ids.map((id) =>
        api.members.get(viewer.guild.id, id).catch((error: unknown) => {
          if (error instanceof GuildApiError && error.status === 404) return null;
          throw error;
        }),
      ),
    );
    return found.filter((member): member is APIGuildMember => member !== null);
  });
}

/** A member's name as the dashboard shows it: the server nickname, the display name, or the username. */
export const memberName = (member: Pick<APIGuildMember, "nick" | "user">) =>
  member.nick ?? member.user.global_name ?? member.user.username;

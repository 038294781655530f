// Resources the API addresses without their guild (a channel by id, an invite by code), checked to be the action's
// guild's before anything is changed. A caller who moderates another guild could otherwise change its channel from
// this guild's page and have the change filed in this guild's history. Used by before snapshots, which already read
// the resource, so the check costs no request of its own there.
import type { APIChannel, APIInvite } from "discord-api-types/v10";
import type { GuildApiClient } from "@/lib/api-client";
import { ActionRefusal } from "./action-client";

/** The channel, when it is one of this guild's; otherwise refused (404) before the change. */
export async function guildChannel(api: GuildApiClient, guildId: string, channelId: string): Promise<APIChannel> {
  const channel = await api.channels.get(channelId);
  if (!("guild_id" in channel) || channel.guild_id !== guildId)
    throw new ActionRefusal("That channel is not in this server.", {}, 404);
  return channel;
}

/** The invite, when it is one of this guild's; otherwise refused (404) before the change. */
export async function guildInvite(api: GuildApiClient, guildId: string, code: string): Promise<APIInvite> {
  const invite = await api.invites.get(code);
  if (invite.guild?.id !== guildId) throw new ActionRefusal("That invite is not in this server.", {}, 404);
  return invite;
}

"use server";

// Server actions of one channel's settings page: Modify Channel (only changed fields), Edit and Delete Channel
// Permission, the whole overwrite list at once (private channel, Sync now), and Delete Channel.
import { PermissionFlagsBits as P, type APIChannel, type RESTPatchAPIChannelJSONBody } from "discord-api-types/v10";
import { ActionRefusal } from "./action-client";
import { guildAction } from "./guild-action";
import { guildChannel } from "./guild-resources";
import { firstRefusal } from "./moderator";
import {
  DeleteChannelInputSchema,
  DeleteChannelPermissionInputSchema,
  EditChannelPermissionInputSchema,
  ModifyChannelInputSchema,
  ReplaceChannelOverwritesInputSchema,
} from "./schemas/channel-settings";
import { pick } from "./snapshots";

type ChannelLike = Partial<APIChannel> & {
  name?: string | null;
  permission_overwrites?: Array<{ id: string; type: number; allow: string; deny: string }>;
};

const SETTINGS_FIELDS = [
  "name",
  "type",
  "topic",
  "nsfw",
  "rate_limit_per_user",
  "default_thread_rate_limit_per_user",
  "default_auto_archive_duration",
  "bitrate",
  "user_limit",
  "rtc_region",
  "video_quality_mode",
  "available_tags",
  "default_reaction_emoji",
  "default_forum_layout",
  "default_sort_order",
  "flags",
] as const;

const channelView = (channel: ChannelLike, fields: readonly string[] = SETTINGS_FIELDS) =>
  pick(channel, ["id", ...fields.filter((f) => f !== "id")]);
const overwritesView = (channel: ChannelLike) => ({
  id: channel.id ?? null,
  name: channel.name ?? null,
  permission_overwrites: channel.permission_overwrites ?? [],
});
const channelTarget = (id: string, before: unknown, result?: unknown) => ({
  type: "channel",
  id,
  name: ((result ?? before) as ChannelLike | undefined)?.name ?? null,
});

/** PATCH /channels/{channel.id}: Modify Channel, with only the fields the moderator changed. */
export const modifyChannelAction = guildAction({
  action: "Modify Channel",
  schema: ModifyChannelInputSchema,
  target: (input, { before, result }) => channelTarget(input.channelId, before, result),
  authorize: (check, input) => check.channelMissing(input.channelId, P.ViewChannel, P.ManageChannels),
  request: (input) => input.changes,
  before: async ({ api, guildId, input }) =>
    channelView((await guildChannel(api, guildId, input.channelId)) as ChannelLike, Object.keys(input.changes)),
  run: ({ api, input, reason }) =>
    api.channels.edit(input.channelId, input.changes as RESTPatchAPIChannelJSONBody, { reason }),
  after: (channel, { input }) => channelView(channel as ChannelLike, Object.keys(input.changes)),
  message: (channel) => `Saved #${(channel as ChannelLike).name ?? "the channel"}.`,
});

/** PUT /channels/{channel.id}/permissions/{overwrite.id}: Edit Channel Permissions (one role's or member's overwrite). */
export const editChannelPermissionAction = guildAction({
  action: "Edit Channel Permissions",
  schema: EditChannelPermissionInputSchema,
  // The channel by id (the history page names it); who the overwrite is for is in the request and the snapshots.
  target: (input) => ({ type: "channel", id: input.channelId, name: null }),
  authorize: async (check, input) =>
    firstRefusal(
      await check.channelMissing(input.channelId, P.ViewChannel, P.ManageRoles),
      await check.overwriteBlock(input.channelId, [input.overwrite], false),
    ),
  request: (input) => input.overwrite,
  before: async ({ api, guildId, input }) => {
    const channel = (await guildChannel(api, guildId, input.channelId)) as ChannelLike;
    return channel.permission_overwrites?.find((o) => o.id === input.overwrite.id) ?? null;
  },
  run: async ({ api, input, reason }) => {
    const { id, type, allow, deny } = input.overwrite;
    await api.channels.editPermission(input.channelId, id, { type, allow, deny }, { reason });
    return input.overwrite;
  },
  after: (overwrite) => overwrite,
  message: () => "Saved the overwrite.",
});

/** DELETE /channels/{channel.id}/permissions/{overwrite.id}: Delete Channel Permission */
export const deleteChannelPermissionAction = guildAction({
  action: "Delete Channel Permission",
  schema: DeleteChannelPermissionInputSchema,
  target: (input) => ({ type: "channel", id: input.channelId, name: null }),
  authorize: async (check, input) =>
    firstRefusal(
      await check.channelMissing(input.channelId, P.ViewChannel, P.ManageRoles),
      // Removing an overwrite changes every bit it held.
      await check.overwriteBlock(input.channelId, [{ id: input.overwriteId, allow: "0", deny: "0" }], false),
    ),
  request: (input) => ({ overwrite_id: input.overwriteId }),
  before: async ({ api, guildId, input }) => {
    const channel = (await guildChannel(api, guildId, input.channelId)) as ChannelLike;
    return channel.permission_overwrites?.find((o) => o.id === input.overwriteId) ?? null;
  },
  run: ({ api, input, reason }) => api.channels.deletePermission(input.channelId, input.overwriteId, { reason }),
  after: () => null,
  message: () => "Removed the overwrite.",
});

const PURPOSE_MESSAGES = {
  private: "The channel is private now.",
  public: "The channel is visible to everyone again.",
  sync: "Permissions synced with the category.",
} as const;

/**
 * PATCH /channels/{channel.id} with permission_overwrites: the whole list in one request, so making a channel private
 * (deny @everyone, allow the chosen roles) or syncing it with its category never passes through a state that locks
 * the moderator out halfway.
 */
export const replaceChannelOverwritesAction = guildAction({
  action: "Modify Channel",
  schema: ReplaceChannelOverwritesInputSchema,
  target: (input, { before, result }) => channelTarget(input.channelId, before, result),
  authorize: async (check, input) =>
    firstRefusal(
      await check.channelMissing(input.channelId, P.ViewChannel, P.ManageChannels, P.ManageRoles),
      await check.overwriteBlock(input.channelId, input.overwrites, true),
    ),
  request: (input) => ({ purpose: input.purpose, permission_overwrites: input.overwrites }),
  before: async ({ api, guildId, input }) =>
    overwritesView((await guildChannel(api, guildId, input.channelId)) as ChannelLike),
  run: ({ api, input, reason }) =>
    api.channels.edit(input.channelId, { permission_overwrites: input.overwrites }, { reason }),
  after: (channel) => overwritesView(channel as ChannelLike),
  message: (_r, input) => PURPOSE_MESSAGES[input.purpose],
});

/** DELETE /channels/{channel.id}: Delete/Close Channel, once the moderator has typed the channel's name. */
export const deleteChannelAction = guildAction({
  action: "Delete/Close Channel",
  schema: DeleteChannelInputSchema,
  target: (input, { before, result }) => channelTarget(input.channelId, before, result),
  authorize: (check, input) => check.channelMissing(input.channelId, P.ViewChannel, P.ManageChannels),
  request: (input) => ({ channel_id: input.channelId }),
  before: async ({ api, guildId, input }) =>
    channelView((await guildChannel(api, guildId, input.channelId)) as ChannelLike, ["name", "type"]),
  run: async ({ api, guildId, input, reason }) => {
    const channel = (await guildChannel(api, guildId, input.channelId)) as ChannelLike;
    if (input.confirmName.trim() !== channel.name)
      throw new ActionRefusal(
        `Type the channel's name, ${channel.name}, to delete it.`,
        { confirmName: ["Doesn't match the channel's name."] },
        400,
      );
    return api.channels.delete(input.channelId, { reason });
  },
  after: (channel) => channelView(channel as ChannelLike, ["name", "type", "parent_id"]),
  message: (channel) => `Deleted ${(channel as ChannelLike).name ?? "the channel"}.`,
});

// A guild's channels: Get Guild Channels, Create Guild Channel, Modify Guild Channel Positions,
// List Active Guild Threads; one channel: Get, Modify and Delete Channel, Edit and Delete Channel Permission,
// Get Channel Invites and Create Channel Invite.
import type {
  RESTDeleteAPIChannelResult,
  RESTGetAPIChannelInvitesResult,
  RESTGetAPIChannelResult,
  RESTPatchAPIChannelJSONBody,
  RESTPatchAPIChannelResult,
  RESTPutAPIChannelPermissionJSONBody,
  RESTGetAPIGuildChannelsResult,
  RESTGetAPIGuildThreadsResult,
  RESTPatchAPIGuildChannelPositionsJSONBody,
  RESTPostAPIChannelInviteJSONBody,
  RESTPostAPIChannelInviteResult,
  RESTPostAPIGuildChannelJSONBody,
  RESTPostAPIGuildChannelResult,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class ChannelsAPI {
  constructor(private readonly rest: RestClient) {}

  /** Get Guild Channels */
  list(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildChannelsResult>({
      method: "GET",
      path: Routes.guildChannels(guildId),
      signal,
    });
  }

  /** Create Guild Channel */
  create(guildId: string, body: RESTPostAPIGuildChannelJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPostAPIGuildChannelResult>({
      method: "POST",
      path: Routes.guildChannels(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Modify Guild Channel Positions: every position, parent and lock change in one request. */
  setPositions(
    guildId: string,
    body: RESTPatchAPIGuildChannelPositionsJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<void>({ method: "PATCH", path: Routes.guildChannels(guildId), body, reason, signal });
  }

  /** List Active Guild Threads */
  getActiveThreads(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildThreadsResult>({
      method: "GET",
      path: Routes.guildActiveThreads(guildId),
      signal,
    });
  }

  /** Create Channel Invite */
  createInvite(
    channelId: string,
    body: RESTPostAPIChannelInviteJSONBody = {},
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPostAPIChannelInviteResult>({
      method: "POST",
      path: Routes.channelInvites(channelId),
      body,
      reason,
      signal,
    });
  }

  /** Get Channel */
  get(channelId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIChannelResult>({ method: "GET", path: Routes.channel(channelId), signal });
  }

  /** Modify Channel: only the fields given change. */
  edit(channelId: string, body: RESTPatchAPIChannelJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPatchAPIChannelResult>({
      method: "PATCH",
      path: Routes.channel(channelId),
      body,
      reason,
      signal,
    });
  }

  /** Delete/Close Channel: answers the deleted channel. */
  delete(channelId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTDeleteAPIChannelResult>({
      method: "DELETE",
      path: Routes.channel(channelId),
      reason,
      signal,
    });
  }

  /** Edit Channel Permissions: creates or replaces the overwrite for a role (type 0) or member (type 1). */
  editPermission(
    channelId: string,
    overwriteId: string,
    body: RESTPutAPIChannelPermissionJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<void>({
      method: "PUT",
      path: Routes.channelPermission(channelId, overwriteId),
      body,
      reason,
      signal,
    });
  }

  /** Delete Channel Permission */
  deletePermission(channelId: string, overwriteId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({
      method: "DELETE",
      path: Routes.channelPermission(channelId, overwriteId),
      reason,
      signal,
    });
  }

  /** Get Channel Invites: the channel's invites with their metadata. */
  getInvites(channelId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIChannelInvitesResult>({
      method: "GET",
      path: Routes.channelInvites(channelId),
      signal,
    });
  }
}

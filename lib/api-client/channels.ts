// A guild's channels: Get Guild Channels, Create Guild Channel, Modify Guild Channel Positions,
// List Active Guild Threads, and Create Channel Invite.
import type {
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
}

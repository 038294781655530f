// A guild's members: Get / List / Search Guild Members (and v2), Add Guild Member (a bot, with the user's guilds.join
// token), Modify Guild Member (nick, roles, voice, timeout, flags),
// Modify Current Member, Add / Remove Guild Member Role, Remove Guild Member (kick).
import type {
  RESTGetAPIGuildMemberResult,
  RESTGetAPIGuildMembersQuery,
  RESTGetAPIGuildMembersResult,
  RESTGetAPIGuildMembersSearchQuery,
  RESTGetAPIGuildMembersSearchResult,
  RESTPatchAPICurrentGuildMemberJSONBody,
  RESTPutAPIGuildMemberJSONBody,
  RESTPutAPIGuildMemberResult,
  RESTPatchAPIGuildMemberJSONBody,
  RESTPatchAPIGuildMemberResult,
} from "discord-api-types/v10";
import type {
  RESTPostAPIGuildMembersSearchJSONBody,
  RESTPostAPIGuildMembersSearchResult,
} from "@/lib/discord/member-search";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class MembersAPI {
  constructor(private readonly rest: RestClient) {}

  /** Get Guild Member */
  get(guildId: string, userId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildMemberResult>({
      method: "GET",
      path: Routes.guildMember(guildId, userId),
      signal,
    });
  }

  /** List Guild Members: one page after the `after` cursor (highest user id of the previous page). */
  list(guildId: string, query: RESTGetAPIGuildMembersQuery = {}, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildMembersResult>({
      method: "GET",
      path: Routes.guildMembers(guildId),
      query,
      signal,
    });
  }

  /** Search Guild Members: username or nickname starting with `query`. */
  search(guildId: string, query: RESTGetAPIGuildMembersSearchQuery, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildMembersSearchResult>({
      method: "GET",
      path: Routes.guildMembersSearch(guildId),
      query,
      signal,
    });
  }

  /**
   * Search Guild Members v2: filters, sort and a keyset cursor in the body, a page and the total count back. Served
   * by the built-in API and by Discord's (which asks a bot for MANAGE_GUILD).
   */
  searchV2(guildId: string, body: RESTPostAPIGuildMembersSearchJSONBody, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTPostAPIGuildMembersSearchResult>({
      method: "POST",
      path: Routes.guildMembersSearchV2(guildId),
      body,
      signal,
    });
  }

  /** Modify Guild Member */
  edit(
    guildId: string,
    userId: string,
    body: RESTPatchAPIGuildMemberJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPatchAPIGuildMemberResult>({
      method: "PATCH",
      path: Routes.guildMember(guildId, userId),
      body,
      reason,
      signal,
    });
  }

  /** Modify Current Member */
  editCurrent(guildId: string, body: RESTPatchAPICurrentGuildMemberJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPatchAPIGuildMemberResult>({
      method: "PATCH",
      path: Routes.guildMember(guildId, "@me"),
      body,
      reason,
      signal,
    });
  }

  /** Add Guild Member: the bot adds the user whose OAuth2 token (guilds.join) is `access_token`; undefined when they
   *  were a member already (204). */
  add(guildId: string, userId: string, body: RESTPutAPIGuildMemberJSONBody, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTPutAPIGuildMemberResult | undefined>({
      method: "PUT",
      path: Routes.guildMember(guildId, userId),
      body,
      signal,
    });
  }

  /** Add Guild Member Role */
  addRole(guildId: string, userId: string, roleId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({
      method: "PUT",
      path: Routes.guildMemberRole(guildId, userId, roleId),
      reason,
      signal,
    });
  }

  /** Remove Guild Member Role */
  removeRole(guildId: string, userId: string, roleId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({
      method: "DELETE",
      path: Routes.guildMemberRole(guildId, userId, roleId),
      reason,
      signal,
    });
  }

  /** Remove Guild Member (kick) */
  kick(guildId: string, userId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({ method: "DELETE", path: Routes.guildMember(guildId, userId), reason, signal });
  }
}

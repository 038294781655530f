// A guild's bans: Get Guild Bans (cursor pages) / Ban, Create / Remove Guild Ban, Bulk Guild Ban.
import type {
  RESTGetAPIGuildBanResult,
  RESTGetAPIGuildBansQuery,
  RESTGetAPIGuildBansResult,
  RESTPostAPIGuildBulkBanJSONBody,
  RESTPostAPIGuildBulkBanResult,
  RESTPutAPIGuildBanJSONBody,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class BansAPI {
  constructor(private readonly rest: RestClient) {}

  /** Get Guild Bans */
  list(guildId: string, query: RESTGetAPIGuildBansQuery = {}, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildBansResult>({
      method: "GET",
      path: Routes.guildBans(guildId),
      query,
      signal,
    });
  }

  /** Get Guild Ban */
  get(guildId: string, userId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildBanResult>({
      method: "GET",
      path: Routes.guildBan(guildId, userId),
      signal,
    });
  }

  /** Create Guild Ban */
  ban(guildId: string, userId: string, body: RESTPutAPIGuildBanJSONBody = {}, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({ method: "PUT", path: Routes.guildBan(guildId, userId), body, reason, signal });
  }

  /** Remove Guild Ban */
  unban(guildId: string, userId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({ method: "DELETE", path: Routes.guildBan(guildId, userId), reason, signal });
  }

  /** Bulk Guild Ban (at most 200 user ids) */
  bulkBan(guildId: string, body: RESTPostAPIGuildBulkBanJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPostAPIGuildBulkBanResult>({
      method: "POST",
      path: Routes.guildBulkBan(guildId),
      body,
      reason,
      signal,
    });
  }
}

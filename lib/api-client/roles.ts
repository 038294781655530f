// A guild's roles: Get Guild Roles / Role / Role Member Counts, Create, Modify, Modify Positions, Delete.
import type {
  RESTGetAPIGuildRoleMemberCountsResult,
  RESTGetAPIGuildRoleResult,
  RESTGetAPIGuildRolesResult,
  RESTPatchAPIGuildRoleJSONBody,
  RESTPatchAPIGuildRolePositionsJSONBody,
  RESTPatchAPIGuildRolePositionsResult,
  RESTPatchAPIGuildRoleResult,
  RESTPostAPIGuildRoleJSONBody,
  RESTPostAPIGuildRoleResult,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class RolesAPI {
  constructor(private readonly rest: RestClient) {}

  /** Get Guild Roles */
  list(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildRolesResult>({ method: "GET", path: Routes.guildRoles(guildId), signal });
  }

  /** Get Guild Role */
  get(guildId: string, roleId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildRoleResult>({
      method: "GET",
      path: Routes.guildRole(guildId, roleId),
      signal,
    });
  }

  /** Get Guild Role Member Counts (role id → members; @everyone not included) */
  getMemberCounts(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildRoleMemberCountsResult>({
      method: "GET",
      path: Routes.guildRoleMemberCounts(guildId),
      signal,
    });
  }

  /** Create Guild Role */
  create(guildId: string, body: RESTPostAPIGuildRoleJSONBody = {}, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPostAPIGuildRoleResult>({
      method: "POST",
      path: Routes.guildRoles(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Modify Guild Role Positions */
  setPositions(guildId: string, body: RESTPatchAPIGuildRolePositionsJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPatchAPIGuildRolePositionsResult>({
      method: "PATCH",
      path: Routes.guildRoles(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Modify Guild Role */
  edit(guildId: string, roleId: string, body: RESTPatchAPIGuildRoleJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPatchAPIGuildRoleResult>({
      method: "PATCH",
      path: Routes.guildRole(guildId, roleId),
      body,
      reason,
      signal,
    });
  }

  /** Delete Guild Role */
  delete(guildId: string, roleId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({ method: "DELETE", path: Routes.guildRole(guildId, roleId), reason, signal });
  }
}

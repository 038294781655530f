// A guild's scheduled events: List Scheduled Events for Guild, Get, Create, Modify, Delete Guild Scheduled Event, Get
// Guild Scheduled Event Users.
import type {
  RESTGetAPIGuildScheduledEventResult,
  RESTGetAPIGuildScheduledEventsResult,
  RESTGetAPIGuildScheduledEventUsersQuery,
  RESTGetAPIGuildScheduledEventUsersResult,
  RESTPatchAPIGuildScheduledEventJSONBody,
  RESTPatchAPIGuildScheduledEventResult,
  RESTPostAPIGuildScheduledEventJSONBody,
  RESTPostAPIGuildScheduledEventResult,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class ScheduledEventsAPI {
  constructor(private readonly rest: RestClient) {}

  /** List Scheduled Events for Guild (with each event's interested count when `withUserCount`) */
  list(guildId: string, { withUserCount = false }: { withUserCount?: boolean } = {}, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildScheduledEventsResult>({
      method: "GET",
      path: Routes.guildScheduledEvents(guildId),
      query: withUserCount ? { with_user_count: "true" } : undefined,
      signal,
    });
  }

  /** Get Guild Scheduled Event */
  get(
    guildId: string,
    eventId: string,
    { withUserCount = false }: { withUserCount?: boolean } = {},
    { signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTGetAPIGuildScheduledEventResult>({
      method: "GET",
      path: Routes.guildScheduledEvent(guildId, eventId),
      query: withUserCount ? { with_user_count: "true" } : undefined,
      signal,
    });
  }

  /** Create Guild Scheduled Event */
  create(guildId: string, body: RESTPostAPIGuildScheduledEventJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPostAPIGuildScheduledEventResult>({
      method: "POST",
      path: Routes.guildScheduledEvents(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Modify Guild Scheduled Event (its status too: start, end, cancel) */
  edit(
    guildId: string,
    eventId: string,
    body: RESTPatchAPIGuildScheduledEventJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPatchAPIGuildScheduledEventResult>({
      method: "PATCH",
      path: Routes.guildScheduledEvent(guildId, eventId),
      body,
      reason,
      signal,
    });
  }

  /** Delete Guild Scheduled Event */
  delete(guildId: string, eventId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({
      method: "DELETE",
      path: Routes.guildScheduledEvent(guildId, eventId),
      reason,
      signal,
    });
  }

  /** Get Guild Scheduled Event Users */
  getUsers(
    guildId: string,
    eventId: string,
    query: RESTGetAPIGuildScheduledEventUsersQuery = {},
    { signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTGetAPIGuildScheduledEventUsersResult>({
      method: "GET",
      path: Routes.guildScheduledEventUsers(guildId, eventId),
      query,
      signal,
    });
  }
}

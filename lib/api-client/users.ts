// Users: Get Current User, Get User, and Get Current User Guilds (with the user's permissions in each).
import type {
  RESTGetAPICurrentUserGuildsQuery,
  RESTGetAPICurrentUserGuildsResult,
  RESTGetAPICurrentUserResult,
  RESTGetAPIUserResult,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class UsersAPI {
  constructor(private readonly rest: RestClient) {}

  /** Get Current User */
  getCurrent({ signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPICurrentUserResult>({ method: "GET", path: Routes.user("@me"), signal });
  }

  /** The token's own user id (Get Current User), asked once per process: a token's user never changes. */
  getCurrentId(): Promise<string> {
    return this.rest.oncePerToken("current user id", async () => (await this.getCurrent()).id);
  }

  /** Get User */
  get(userId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIUserResult>({ method: "GET", path: Routes.user(userId), signal });
  }

  /** Get Current User Guilds */
  getGuilds(query: RESTGetAPICurrentUserGuildsQuery = {}, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPICurrentUserGuildsResult>({
      method: "GET",
      path: Routes.userGuilds(),
      query,
      signal,
    });
  }
}

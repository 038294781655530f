// Voice states: Get Current User Voice State and Get User Voice State (Discord's voice resource; the member panel
// uses it to know whether a member is connected before offering mute, deafen, move and disconnect).
import type { RESTGetAPIGuildVoiceStateUserResult } from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class VoiceAPI {
  constructor(private readonly rest: RestClient) {}

  /** Get User Voice State (404 10065 Unknown Voice State when the user is not connected) */
  getUserVoiceState(guildId: string, userId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildVoiceStateUserResult>({
      method: "GET",
      path: Routes.guildVoiceState(guildId, userId),
      signal,
    });
  }
}

// Gateway: where the WebSocket gateway is. Get Gateway (no token) and Get Gateway Bot (the bot's recommended shards
// and its session start budget), as discord.js reads them before it connects.
import type { RESTGetAPIGatewayBotResult, RESTGetAPIGatewayResult } from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class GatewayAPI {
  constructor(private readonly rest: RestClient) {}

  /** Get Gateway */
  get({ signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGatewayResult>({ method: "GET", path: Routes.gateway(), signal });
  }

  /** Get Gateway Bot */
  getBot({ signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGatewayBotResult>({ method: "GET", path: Routes.gatewayBot(), signal });
  }
}

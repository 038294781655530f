// A guild's AutoMod rules: List, Get, Create, Modify and Delete Auto Moderation Rule(s). Every rule route needs
// Manage Server, reads included (Discord's rule; the policy table's too).
import type {
  RESTGetAPIAutoModerationRuleResult,
  RESTGetAPIAutoModerationRulesResult,
  RESTPatchAPIAutoModerationRuleJSONBody,
  RESTPatchAPIAutoModerationRuleResult,
  RESTPostAPIAutoModerationRuleJSONBody,
  RESTPostAPIAutoModerationRuleResult,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class AutoModerationAPI {
  constructor(private readonly rest: RestClient) {}

  /** List Auto Moderation Rules for Guild */
  list(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIAutoModerationRulesResult>({
      method: "GET",
      path: Routes.guildAutoModerationRules(guildId),
      signal,
    });
  }

  /** Get Auto Moderation Rule */
  get(guildId: string, ruleId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIAutoModerationRuleResult>({
      method: "GET",
      path: Routes.guildAutoModerationRule(guildId, ruleId),
      signal,
    });
  }

  /** Create Auto Moderation Rule */
  create(guildId: string, body: RESTPostAPIAutoModerationRuleJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPostAPIAutoModerationRuleResult>({
      method: "POST",
      path: Routes.guildAutoModerationRules(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Modify Auto Moderation Rule (the trigger type cannot change) */
  edit(
    guildId: string,
    ruleId: string,
    body: RESTPatchAPIAutoModerationRuleJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPatchAPIAutoModerationRuleResult>({
      method: "PATCH",
      path: Routes.guildAutoModerationRule(guildId, ruleId),
      body,
      reason,
      signal,
    });
  }

  /** Delete Auto Moderation Rule */
  delete(guildId: string, ruleId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({
      method: "DELETE",
      path: Routes.guildAutoModerationRule(guildId, ruleId),
      reason,
      signal,
    });
  }
}

// The guild itself and its guild-wide settings: Get/Modify Guild, preview, audit log, widget, vanity URL,
// welcome screen, onboarding, incident actions, voice regions, integrations, invites, prune.
import type {
  RESTGetAPIAuditLogQuery,
  RESTGetAPIAuditLogResult,
  RESTGetAPIGuildIntegrationsResult,
  RESTGetAPIGuildInvitesResult,
  RESTGetAPIGuildOnboardingResult,
  RESTGetAPIGuildPreviewResult,
  RESTGetAPIGuildPruneCountQuery,
  RESTGetAPIGuildPruneCountResult,
  RESTGetAPIGuildQuery,
  RESTGetAPIGuildResult,
  RESTGetAPIGuildVanityUrlResult,
  RESTGetAPIGuildVoiceRegionsResult,
  RESTGetAPIGuildWelcomeScreenResult,
  RESTGetAPIGuildWidgetJSONResult,
  RESTGetAPIGuildWidgetSettingsResult,
  RESTPatchAPIGuildJSONBody,
  RESTPatchAPIGuildResult,
  RESTPatchAPIGuildWelcomeScreenJSONBody,
  RESTPatchAPIGuildWelcomeScreenResult,
  RESTPatchAPIGuildWidgetSettingsJSONBody,
  RESTPatchAPIGuildWidgetSettingsResult,
  RESTPostAPIGuildPruneJSONBody,
  RESTPostAPIGuildPruneResult,
  RESTPutAPIGuildIncidentActionsJSONBody,
  RESTPutAPIGuildIncidentActionsResult,
  RESTPutAPIGuildOnboardingJSONBody,
  RESTPutAPIGuildOnboardingResult,
  GuildWidgetStyle,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

export class GuildsAPI {
  constructor(private readonly rest: RestClient) {}

  /** Get Guild */
  get(guildId: string, query: RESTGetAPIGuildQuery = {}, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildResult>({ method: "GET", path: Routes.guild(guildId), query, signal });
  }

  /** Get Guild Preview */
  getPreview(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildPreviewResult>({
      method: "GET",
      path: Routes.guildPreview(guildId),
      signal,
    });
  }

  /** Modify Guild */
  edit(guildId: string, body: RESTPatchAPIGuildJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPatchAPIGuildResult>({
      method: "PATCH",
      path: Routes.guild(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Get Guild Audit Log */
  getAuditLogs(guildId: string, query: RESTGetAPIAuditLogQuery = {}, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIAuditLogResult>({
      method: "GET",
      path: Routes.guildAuditLog(guildId),
      query,
      signal,
    });
  }

  /** Get Guild Voice Regions */
  getVoiceRegions(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildVoiceRegionsResult>({
      method: "GET",
      path: Routes.guildVoiceRegions(guildId),
      signal,
    });
  }

  /** Get Guild Invites */
  getInvites(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildInvitesResult>({
      method: "GET",
      path: Routes.guildInvites(guildId),
      signal,
    });
  }

  /** Get Guild Integrations */
  getIntegrations(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildIntegrationsResult>({
      method: "GET",
      path: Routes.guildIntegrations(guildId),
      signal,
    });
  }

  /** Delete Guild Integration */
  deleteIntegration(guildId: string, integrationId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({
      method: "DELETE",
      path: Routes.guildIntegration(guildId, integrationId),
      reason,
      signal,
    });
  }

  /** Get Guild Widget Settings */
  getWidgetSettings(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildWidgetSettingsResult>({
      method: "GET",
      path: Routes.guildWidgetSettings(guildId),
      signal,
    });
  }

  /** Modify Guild Widget */
  editWidgetSettings(
    guildId: string,
    body: RESTPatchAPIGuildWidgetSettingsJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPatchAPIGuildWidgetSettingsResult>({
      method: "PATCH",
      path: Routes.guildWidgetSettings(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Get Guild Widget (public) */
  getWidget(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildWidgetJSONResult>({
      method: "GET",
      path: Routes.guildWidgetJSON(guildId),
      auth: false,
      signal,
    });
  }

  /** The public URL of Get Guild Widget Image (no authentication). */
  widgetImageURL(guildId: string, style?: GuildWidgetStyle): string {
    return this.rest.url(Routes.guildWidgetImage(guildId), { style }).toString();
  }

  /** Get Guild Vanity URL */
  getVanityURL(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildVanityUrlResult>({
      method: "GET",
      path: Routes.guildVanityUrl(guildId),
      signal,
    });
  }

  /** Get Guild Welcome Screen */
  getWelcomeScreen(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildWelcomeScreenResult>({
      method: "GET",
      path: Routes.guildWelcomeScreen(guildId),
      signal,
    });
  }

  /** Modify Guild Welcome Screen */
  editWelcomeScreen(
    guildId: string,
    body: RESTPatchAPIGuildWelcomeScreenJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPatchAPIGuildWelcomeScreenResult>({
      method: "PATCH",
      path: Routes.guildWelcomeScreen(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Get Guild Onboarding */
  getOnboarding(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildOnboardingResult>({
      method: "GET",
      path: Routes.guildOnboarding(guildId),
      signal,
    });
  }

  /** Modify Guild Onboarding */
  editOnboarding(guildId: string, body: RESTPutAPIGuildOnboardingJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPutAPIGuildOnboardingResult>({
      method: "PUT",
      path: Routes.guildOnboarding(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Modify Guild Incident Actions */
  editIncidentActions(
    guildId: string,
    body: RESTPutAPIGuildIncidentActionsJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPutAPIGuildIncidentActionsResult>({
      method: "PUT",
      path: Routes.guildIncidentActions(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Get Guild Prune Count */
  getPruneCount(guildId: string, query: RESTGetAPIGuildPruneCountQuery = {}, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildPruneCountResult>({
      method: "GET",
      path: Routes.guildPrune(guildId),
      query,
      signal,
    });
  }

  /** Begin Guild Prune */
  beginPrune(guildId: string, body: RESTPostAPIGuildPruneJSONBody = {}, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPostAPIGuildPruneResult>({
      method: "POST",
      path: Routes.guildPrune(guildId),
      body,
      reason,
      signal,
    });
  }
}

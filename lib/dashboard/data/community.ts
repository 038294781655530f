// Reads of the widget, welcome screen and onboarding pages, through the API client: the settings as the API holds
// them, the public widget.json and widget.png as anyone sees them, and the channels with their overwrites (the
// onboarding checker computes @everyone's permissions from them in the browser).
import type { APIGuildWidget } from "discord-api-types/v10";
import { dashboardConfig } from "@/lib/dashboard/config";
import { GuildApiClient, GuildApiError, describeApiError } from "@/lib/api-client";
import { WIDGET_STYLES, type WidgetStyle } from "@/lib/dashboard/actions/schemas/widget";
import { managementApi } from "./api";
import type { ChannelSummary } from "./channels";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";
import { currentRequestId } from "@/lib/server/request-id";

/** A channel with its overwrites, as the onboarding checker needs it. */
export type ChannelWithOverwrites = Pick<
  ChannelSummary,
  "id" | "name" | "type" | "parent_id" | "position" | "overwrites"
>;

/** A client that reads what anyone may read (widget.json, widget.png): no token. */
function publicApi(): GuildApiClient {
  const config = dashboardConfig();
  return new GuildApiClient({
    requestId: currentRequestId,
    baseUrl: config.guildApiUrl,
    version: config.apiVersion,
    token: null,
  });
}

export type WidgetRead = { ok: true; widget: APIGuildWidget } | { ok: false; status: number | null; error: string };

/** Get Guild Widget as an embed sees it; a disabled widget (403) or an unknown guild is an answer, not a failure. */
export async function getPublicWidget(guildId: string): Promise<WidgetRead> {
  try {
    return { ok: true, widget: await publicApi().guilds.getWidget(guildId) };
  } catch (error) {
    if (error instanceof GuildApiError && error.status < 500)
      return { ok: false, status: error.status, error: describeApiError(error) };
    throw error;
  }
}

/** The five widget.png styles, as browsers and other websites reach the API (no authentication needed). */
export function widgetImageUrls(guildId: string): Record<WidgetStyle, string> {
  const config = dashboardConfig();
  const api = new GuildApiClient({
    requestId: currentRequestId,
    baseUrl: config.browserApiUrl,
    version: config.apiVersion,
    token: null,
  });
  return Object.fromEntries(
    WIDGET_STYLES.map(({ style }) => [style, api.guilds.widgetImageURL(guildId, style)]),
  ) as Record<WidgetStyle, string>;
}

/** Where the embeddable widget page lives: Discord's own when the dashboard manages guilds on Discord, else ours. */
export function widgetEmbedUrl(guildId: string, theme: "dark" | "light" = "dark"): string {
  const config = dashboardConfig();
  const origin = /\/\/(www\.)?discord\.com\//.test(`${config.guildApiUrl}/`) ? "https://discord.com" : config.publicUrl;
  return `${origin}/widget?id=${encodeURIComponent(guildId)}&theme=${theme}`;
}

export async function getWidgetSettings(viewer: GuildViewer) {
  return readOrThrow(async () => (await managementApi(viewer.session)).guilds.getWidgetSettings(viewer.guild.id));
}

export async function getWelcomeScreen(viewer: GuildViewer) {
  return readOrThrow(async () => (await managementApi(viewer.session)).guilds.getWelcomeScreen(viewer.guild.id));
}

export async function getOnboarding(viewer: GuildViewer) {
  return readOrThrow(async () => (await managementApi(viewer.session)).guilds.getOnboarding(viewer.guild.id));
}

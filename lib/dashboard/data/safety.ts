// Safety reads for the dashboard: the vanity URL (Get Guild Vanity URL), which needs Manage Server.
import type { RESTGetAPIGuildVanityUrlResult } from "discord-api-types/v10";
import { managementApi } from "./api";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

export async function getVanityUrl(viewer: GuildViewer): Promise<RESTGetAPIGuildVanityUrlResult> {
  return readOrThrow(async () => (await managementApi(viewer.session)).guilds.getVanityURL(viewer.guild.id));
}

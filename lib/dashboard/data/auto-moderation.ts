// AutoMod reads for the dashboard: the guild's rules (List Auto Moderation Rules for Guild, Manage Server).
import type { APIAutoModerationRule } from "discord-api-types/v10";
import { managementApi } from "./api";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

export async function getAutoModerationRules(viewer: GuildViewer): Promise<APIAutoModerationRule[]> {
  return readOrThrow(async () => (await managementApi(viewer.session)).autoModeration.list(viewer.guild.id));
}

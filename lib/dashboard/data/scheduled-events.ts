// Scheduled-event reads for the dashboard: the guild's events with their interested counts.
import type { APIGuildScheduledEvent } from "discord-api-types/v10";
import { managementApi } from "./api";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

/** List Scheduled Events for Guild with with_user_count. */
export async function getScheduledEvents(viewer: GuildViewer): Promise<APIGuildScheduledEvent[]> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    return await api.scheduledEvents.list(viewer.guild.id, { withUserCount: true });
  });
}

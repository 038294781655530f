// Role reads for the dashboard: member counts per role (Get Guild Role Member Counts).
import type { RESTGetAPIGuildRoleMemberCountsResult } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import { managementApi } from "./api";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

/** Role id → members; null when the API does not offer the endpoint. */
export async function getRoleMemberCounts(viewer: GuildViewer): Promise<RESTGetAPIGuildRoleMemberCountsResult | null> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    try {
      return await api.roles.getMemberCounts(viewer.guild.id);
    } catch (error) {
      if (error instanceof GuildApiError && error.status === 404) return null;
      throw error;
    }
  });
}

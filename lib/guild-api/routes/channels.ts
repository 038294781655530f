// Guild channels: Get Guild Channels and List Active Guild Threads.
import { ok, route, type RouteDefinition } from "../http";
import { guildAccess } from "../guards";
import { listActiveThreads, listGuildChannels } from "../services/channels";

export const channelRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/channels: Get Guild Channels
  route("GET", "/guilds/:guildId/channels", "required", (ctx) => ok(listGuildChannels(guildAccess(ctx)))),

  // GET /guilds/{guild.id}/threads/active: List Active Guild Threads
  route("GET", "/guilds/:guildId/threads/active", "required", (ctx) => ok(listActiveThreads(guildAccess(ctx)))),
];

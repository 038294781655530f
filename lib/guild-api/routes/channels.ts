// Guild channels: Get Guild Channels, Create Guild Channel, Modify Guild Channel Positions, List Active Guild Threads.
import { created, noContent, ok, route, type RouteDefinition } from "../http";
import { guildAccess } from "../guards";
import {
  createGuildChannel,
  listActiveThreads,
  listGuildChannels,
  modifyGuildChannelPositions,
} from "../services/channels";
import { CreateGuildChannelBodySchema, ModifyGuildChannelPositionsBodySchema } from "../schemas/channel";

export const channelRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/channels: Get Guild Channels
  route("GET", "/guilds/:guildId/channels", "Get Guild Channels", (ctx) => ok(listGuildChannels(guildAccess(ctx)))),

  // POST /guilds/{guild.id}/channels: Create Guild Channel
  route("POST", "/guilds/:guildId/channels", "Create Guild Channel", (ctx) => {
    const access = guildAccess(ctx);
    access.authorize("Create Guild Channel"); // before validating the body: no validation details for callers who may not create
    return created(createGuildChannel(access, ctx.json(CreateGuildChannelBodySchema), ctx.auditReason));
  }),

  // PATCH /guilds/{guild.id}/channels: Modify Guild Channel Positions
  route("PATCH", "/guilds/:guildId/channels", "Modify Guild Channel Positions", (ctx) => {
    const access = guildAccess(ctx);
    access.authorize("Modify Guild Channel Positions");
    modifyGuildChannelPositions(access, ctx.json(ModifyGuildChannelPositionsBodySchema, []), ctx.auditReason);
    return noContent();
  }),

  // GET /guilds/{guild.id}/threads/active: List Active Guild Threads
  route("GET", "/guilds/:guildId/threads/active", "List Active Guild Threads", (ctx) =>
    ok(listActiveThreads(guildAccess(ctx))),
  ),
];

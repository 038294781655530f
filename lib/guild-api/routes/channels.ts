// Channels: the guild's list (Get Guild Channels, Create Guild Channel, Modify Guild Channel Positions, List Active
// Guild Threads) and one channel (Get, Modify and Delete Channel, its invites and permission overwrites).
import { created, noContent, ok, route, type RouteDefinition } from "../http";
import { authorizedGuildAccess, guildAccess, snowflakeParam } from "../guards";
import {
  createGuildChannel,
  deleteChannel,
  deleteChannelPermission,
  editChannelPermissions,
  getChannel,
  getChannelInvites,
  listActiveThreads,
  listGuildChannels,
  isThreadChannel,
  modifyChannel,
  modifyGuildChannelPositions,
  modifyThread,
} from "../services/channels";
import {
  CreateGuildChannelBodySchema,
  EditChannelPermissionsBodySchema,
  ModifyChannelBodySchema,
  ModifyGuildChannelPositionsBodySchema,
  ModifyThreadBodySchema,
} from "../schemas/channels";

export const channelRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/channels: Get Guild Channels
  route("GET", "/guilds/:guildId/channels", "Get Guild Channels", (ctx) => ok(listGuildChannels(guildAccess(ctx)))),

  // POST /guilds/{guild.id}/channels: Create Guild Channel
  route("POST", "/guilds/:guildId/channels", "Create Guild Channel", (ctx) => {
    const access = authorizedGuildAccess(ctx, "Create Guild Channel");
    return created(createGuildChannel(access, ctx.json(CreateGuildChannelBodySchema), ctx.auditReason));
  }),

  // PATCH /guilds/{guild.id}/channels: Modify Guild Channel Positions
  route("PATCH", "/guilds/:guildId/channels", "Modify Guild Channel Positions", (ctx) => {
    const access = authorizedGuildAccess(ctx, "Modify Guild Channel Positions");
    modifyGuildChannelPositions(access, ctx.json(ModifyGuildChannelPositionsBodySchema, []), ctx.auditReason);
    return noContent();
  }),

  // GET /guilds/{guild.id}/threads/active: List Active Guild Threads
  route("GET", "/guilds/:guildId/threads/active", "List Active Guild Threads", (ctx) =>
    ok(listActiveThreads(guildAccess(ctx))),
  ),

  // GET /channels/{channel.id}: Get Channel
  route("GET", "/channels/:channelId", "Get Channel", (ctx) =>
    ok(getChannel(ctx.caller, snowflakeParam(ctx, "channelId"))),
  ),

  // PATCH /channels/{channel.id}: Modify Channel (a guild channel's fields, or a thread's)
  route("PATCH", "/channels/:channelId", "Modify Channel", (ctx) => {
    const channelId = snowflakeParam(ctx, "channelId");
    if (isThreadChannel(channelId))
      return ok(modifyThread(ctx.caller, channelId, ctx.json(ModifyThreadBodySchema), ctx.auditReason));
    return ok(modifyChannel(ctx.caller, channelId, ctx.json(ModifyChannelBodySchema), ctx.auditReason));
  }),

  // DELETE /channels/{channel.id}: Delete/Close Channel
  route("DELETE", "/channels/:channelId", "Delete/Close Channel", (ctx) =>
    ok(deleteChannel(ctx.caller, snowflakeParam(ctx, "channelId"), ctx.auditReason)),
  ),

  // GET /channels/{channel.id}/invites: Get Channel Invites
  route("GET", "/channels/:channelId/invites", "Get Channel Invites", (ctx) =>
    ok(getChannelInvites(ctx.caller, snowflakeParam(ctx, "channelId"))),
  ),

  // PUT /channels/{channel.id}/permissions/{overwrite.id}: Edit Channel Permissions
  route("PUT", "/channels/:channelId/permissions/:overwriteId", "Edit Channel Permissions", (ctx) => {
    const channelId = snowflakeParam(ctx, "channelId");
    const overwriteId = snowflakeParam(ctx, "overwriteId");
    const body = ctx.json(EditChannelPermissionsBodySchema);
    editChannelPermissions(ctx.caller, channelId, overwriteId, body, ctx.auditReason);
    return noContent();
  }),

  // DELETE /channels/{channel.id}/permissions/{overwrite.id}: Delete Channel Permission
  route("DELETE", "/channels/:channelId/permissions/:overwriteId", "Delete Channel Permission", (ctx) => {
    const channelId = snowflakeParam(ctx, "channelId");
    deleteChannelPermission(ctx.caller, channelId, snowflakeParam(ctx, "overwriteId"), ctx.auditReason);
    return noContent();
  }),
];

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
  route("GET", "/guilds/:guildId/channels", "Get Guild Channels", async (ctx) =>
    ok(await listGuildChannels(await guildAccess(ctx))),
  ),

  // POST /guilds/{guild.id}/channels: Create Guild Channel
  route("POST", "/guilds/:guildId/channels", "Create Guild Channel", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "Create Guild Channel");
    return created(await createGuildChannel(access, ctx.json(CreateGuildChannelBodySchema), ctx.auditReason));
  }),

  // PATCH /guilds/{guild.id}/channels: Modify Guild Channel Positions
  route("PATCH", "/guilds/:guildId/channels", "Modify Guild Channel Positions", async (ctx) => {
    const access = await authorizedGuildAccess(ctx, "Modify Guild Channel Positions");
    await modifyGuildChannelPositions(access, ctx.json(ModifyGuildChannelPositionsBodySchema, []), ctx.auditReason);
    return noContent();
  }),

  // GET /guilds/{guild.id}/threads/active: List Active Guild Threads
  route("GET", "/guilds/:guildId/threads/active", "List Active Guild Threads", async (ctx) =>
    ok(await listActiveThreads(await guildAccess(ctx))),
  ),

  // GET /channels/{channel.id}: Get Channel
  route("GET", "/channels/:channelId", "Get Channel", async (ctx) =>
    ok(await getChannel(ctx.caller, snowflakeParam(ctx, "channelId"))),
  ),

  // PATCH /channels/{channel.id}: Modify Channel (a guild channel's fields, or a thread's)
  route("PATCH", "/channels/:channelId", "Modify Channel", async (ctx) => {
    const channelId = snowflakeParam(ctx, "channelId");
    if (await isThreadChannel(channelId))
      return ok(await modifyThread(ctx.caller, channelId, ctx.json(ModifyThreadBodySchema), ctx.auditReason));
    return ok(await modifyChannel(ctx.caller, channelId, ctx.json(ModifyChannelBodySchema), ctx.auditReason));
  }),

  // DELETE /channels/{channel.id}: Delete/Close Channel
  route("DELETE", "/channels/:channelId", "Delete/Close Channel", async (ctx) =>
    ok(await deleteChannel(ctx.caller, snowflakeParam(ctx, "channelId"), ctx.auditReason)),
  ),

  // GET /channels/{channel.id}/invites: Get Channel Invites
  route("GET", "/channels/:channelId/invites", "Get Channel Invites", async (ctx) =>
    ok(await getChannelInvites(ctx.caller, snowflakeParam(ctx, "channelId"))),
  ),

  // PUT /channels/{channel.id}/permissions/{overwrite.id}: Edit Channel Permissions
  route("PUT", "/channels/:channelId/permissions/:overwriteId", "Edit Channel Permissions", async (ctx) => {
    const channelId = snowflakeParam(ctx, "channelId");
    const overwriteId = snowflakeParam(ctx, "overwriteId");
    const body = ctx.json(EditChannelPermissionsBodySchema);
    await editChannelPermissions(ctx.caller, channelId, overwriteId, body, ctx.auditReason);
    return noContent();
  }),

  // DELETE /channels/{channel.id}/permissions/{overwrite.id}: Delete Channel Permission
  route("DELETE", "/channels/:channelId/permissions/:overwriteId", "Delete Channel Permission", async (ctx) => {
    const channelId = snowflakeParam(ctx, "channelId");
    await deleteChannelPermission(ctx.caller, channelId, snowflakeParam(ctx, "overwriteId"), ctx.auditReason);
    return noContent();
  }),
];

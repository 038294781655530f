// Guild Scheduled Events: List Scheduled Events for Guild, Get, Create, Modify and Delete Guild Scheduled Event, Get
// Guild Scheduled Event Users, and a user's own interest (Guildhall's extension of Discord's user-only routes).
import { noContent, ok, route, type RouteDefinition } from "../http";
import { BODY_LIMITS } from "../request-body";
import { authorizedGuildAccess, guildAccess, snowflakeParam } from "../guards";
import {
  CreateGuildScheduledEventBodySchema,
  GetGuildScheduledEventUsersQuerySchema,
  ListScheduledEventsQuerySchema,
  ModifyGuildScheduledEventBodySchema,
} from "../schemas/scheduled-events";
import {
  createGuildScheduledEvent,
  createGuildScheduledEventUser,
  deleteGuildScheduledEvent,
  deleteGuildScheduledEventUser,
  getGuildScheduledEvent,
  getGuildScheduledEventUsers,
  listScheduledEventsForGuild,
  modifyGuildScheduledEvent,
} from "../services/scheduled-events";

// A cover image comes as a data URI in the JSON body.
const IMAGE_BODY = { bodyLimit: BODY_LIMITS.images };
// The parameter is named as Discord's OpenAPI names it (guild_scheduled_event_id), which the fuzzer maps it by.
const EVENT = "/guilds/:guildId/scheduled-events/:guildScheduledEventId";
const eventId = (ctx: Parameters<typeof snowflakeParam>[0]) => snowflakeParam(ctx, "guildScheduledEventId");

export const scheduledEventRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/scheduled-events: List Scheduled Events for Guild
  route("GET", "/guilds/:guildId/scheduled-events", "List Scheduled Events for Guild", async (ctx) =>
    ok(await listScheduledEventsForGuild(await guildAccess(ctx), ctx.queryAs(ListScheduledEventsQuerySchema))),
  ),

  // POST /guilds/{guild.id}/scheduled-events: Create Guild Scheduled Event (200, as Discord answers)
  route(
    "POST",
    "/guilds/:guildId/scheduled-events",
    "Create Guild Scheduled Event",
    async (ctx) => {
      const access = await authorizedGuildAccess(ctx, "Create Guild Scheduled Event");
      return ok(
        await createGuildScheduledEvent(access, ctx.json(CreateGuildScheduledEventBodySchema), ctx.auditReason),
      );
    },
    IMAGE_BODY,
  ),

  // GET /guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}: Get Guild Scheduled Event
  route("GET", EVENT, "Get Guild Scheduled Event", async (ctx) =>
    ok(await getGuildScheduledEvent(await guildAccess(ctx), eventId(ctx), ctx.queryAs(ListScheduledEventsQuerySchema))),
  ),

  // PATCH /guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}: Modify Guild Scheduled Event
  route(
    "PATCH",
    EVENT,
    "Modify Guild Scheduled Event",
    async (ctx) => {
      const access = await authorizedGuildAccess(ctx, "Modify Guild Scheduled Event");
      const id = eventId(ctx);
      return ok(
        await modifyGuildScheduledEvent(access, id, ctx.json(ModifyGuildScheduledEventBodySchema), ctx.auditReason),
      );
    },
    IMAGE_BODY,
  ),

  // DELETE /guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}: Delete Guild Scheduled Event
  route("DELETE", EVENT, "Delete Guild Scheduled Event", async (ctx) => {
    await deleteGuildScheduledEvent(await guildAccess(ctx), eventId(ctx), ctx.auditReason);
    return noContent();
  }),

  // GET /guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}/users: Get Guild Scheduled Event Users
  route("GET", `${EVENT}/users`, "Get Guild Scheduled Event Users", async (ctx) =>
    ok(
      await getGuildScheduledEventUsers(
        await guildAccess(ctx),
        eventId(ctx),
        ctx.queryAs(GetGuildScheduledEventUsersQuerySchema),
      ),
    ),
  ),

  // PUT /guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}/users/@me: mark interest (Guildhall extension)
  route("PUT", `${EVENT}/users/@me`, "Create Guild Scheduled Event User", async (ctx) => {
    await createGuildScheduledEventUser(await guildAccess(ctx), eventId(ctx));
    return noContent();
  }),

  // DELETE /guilds/{guild.id}/scheduled-events/{guild_scheduled_event.id}/users/@me: drop interest (Guildhall extension)
  route("DELETE", `${EVENT}/users/@me`, "Delete Guild Scheduled Event User", async (ctx) => {
    await deleteGuildScheduledEventUser(await guildAccess(ctx), eventId(ctx));
    return noContent();
  }),
];

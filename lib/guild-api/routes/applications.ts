// /applications routes: the application behind the token and its global commands (the entry point among them).
// The Developer Portal's settings (redirect URIs, URL Mappings, Activities, installation contexts, secrets) are
// changed on /developers, through the same service.
import { ok, route, type RouteDefinition } from "../http";
import { BODY_LIMITS } from "../request-body";
import { ApplicationCommandsQuerySchema, ModifyCurrentApplicationBodySchema } from "../schemas/applications";
import {
  applicationAccessForIdentity,
  getCurrentApplication,
  getGlobalApplicationCommands,
  modifyCurrentApplication,
} from "../services/applications";

export const applicationRoutes: RouteDefinition[] = [
  // GET /applications/@me: Get Current Application
  route("GET", "/applications/@me", "Get Current Application", async (ctx) =>
    ok(await getCurrentApplication(await applicationAccessForIdentity(ctx.caller))),
  ),

  // GET /oauth2/applications/@me: Get Current Bot Application Information (discord.py's login reads it)
  route("GET", "/oauth2/applications/@me", "Get Current Bot Application Information", async (ctx) =>
    ok(await getCurrentApplication(await applicationAccessForIdentity(ctx.caller))),
  ),

  // PATCH /applications/@me: Edit Current Application
  route(
    "PATCH",
    "/applications/@me",
    "Edit Current Application",
    async (ctx) => {
      const access = await applicationAccessForIdentity(ctx.caller);
      return ok(await modifyCurrentApplication(access, ctx.json(ModifyCurrentApplicationBodySchema)));
    },
    { bodyLimit: BODY_LIMITS.images },
  ),

  // GET /applications/{application.id}/commands: Get Global Application Commands
  route("GET", "/applications/:applicationId/commands", "Get Global Application Commands", async (ctx) => {
    ctx.queryAs(ApplicationCommandsQuerySchema);
    return ok(
      await getGlobalApplicationCommands(await applicationAccessForIdentity(ctx.caller, ctx.params.applicationId)),
    );
  }),
];

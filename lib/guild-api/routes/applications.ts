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
  route("GET", "/applications/@me", "Get Current Application", (ctx) =>
    ok(getCurrentApplication(applicationAccessForIdentity(ctx.caller))),
  ),

  // GET /oauth2/applications/@me: Get Current Bot Application Information (discord.py's login reads it)
  route("GET", "/oauth2/applications/@me", "Get Current Bot Application Information", (ctx) =>
    ok(getCurrentApplication(applicationAccessForIdentity(ctx.caller))),
  ),

  // PATCH /applications/@me: Edit Current Application
  route(
    "PATCH",
    "/applications/@me",
    "Edit Current Application",
    (ctx) => {
      const access = applicationAccessForIdentity(ctx.caller);
      return ok(modifyCurrentApplication(access, ctx.json(ModifyCurrentApplicationBodySchema)));
    },
    { bodyLimit: BODY_LIMITS.images },
  ),

  // GET /applications/{application.id}/commands: Get Global Application Commands
  route("GET", "/applications/:applicationId/commands", "Get Global Application Commands", (ctx) => {
    ctx.queryAs(ApplicationCommandsQuerySchema);
    return ok(getGlobalApplicationCommands(applicationAccessForIdentity(ctx.caller, ctx.params.applicationId)));
  }),
];

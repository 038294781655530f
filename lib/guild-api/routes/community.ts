// Welcome screen, onboarding, incident actions, membership screening.
import { ok, route, type RouteDefinition } from "../http";
import { BODY_LIMITS } from "../request-body";
import { guildAccess, Permission } from "../guards";
import {
  ModifyGuildIncidentActionsBodySchema,
  ModifyGuildOnboardingBodySchema,
  ModifyGuildWelcomeScreenBodySchema,
} from "../schemas/community";
import { modifyGuildIncidentActions } from "../services/incident-actions";
import { getGuildOnboarding, modifyGuildOnboarding } from "../services/onboarding";
import { completeMembershipScreening } from "../services/screening";
import { getGuildWelcomeScreen, modifyGuildWelcomeScreen } from "../services/welcome-screen";

export const communityRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/welcome-screen: Get Guild Welcome Screen
  route("GET", "/guilds/:guildId/welcome-screen", "required", (ctx) => ok(getGuildWelcomeScreen(guildAccess(ctx)))),

  // PATCH /guilds/{guild.id}/welcome-screen: Modify Guild Welcome Screen
  route("PATCH", "/guilds/:guildId/welcome-screen", "required", async (ctx) => {
    const access = guildAccess(ctx);
    access.require(Permission.ManageGuild); // before the body: no validation details for callers who may not modify
    return ok(modifyGuildWelcomeScreen(access, await ctx.json(ModifyGuildWelcomeScreenBodySchema), ctx.auditReason));
  }),

  // GET /guilds/{guild.id}/onboarding: Get Guild Onboarding
  route("GET", "/guilds/:guildId/onboarding", "required", (ctx) => ok(getGuildOnboarding(guildAccess(ctx)))),

  // PUT /guilds/{guild.id}/onboarding: Modify Guild Onboarding
  route(
    "PUT",
    "/guilds/:guildId/onboarding",
    "required",
    async (ctx) => {
      const access = guildAccess(ctx);
      access.require(Permission.ManageGuild, Permission.ManageRoles);
      return ok(modifyGuildOnboarding(access, await ctx.json(ModifyGuildOnboardingBodySchema), ctx.auditReason));
    },
    { bodyLimit: BODY_LIMITS.document },
  ),

  // PUT /guilds/{guild.id}/incident-actions: Modify Guild Incident Actions
  route("PUT", "/guilds/:guildId/incident-actions", "required", async (ctx) => {
    const access = guildAccess(ctx);
    access.require(Permission.ManageGuild);
    return ok(modifyGuildIncidentActions(access, await ctx.json(ModifyGuildIncidentActionsBodySchema)));
  }),

  // PUT /guilds/{guild.id}/requests/@me: complete membership screening (Guildhall's form of Discord's member request)
  route("PUT", "/guilds/:guildId/requests/@me", "required", (ctx) => ok(completeMembershipScreening(guildAccess(ctx)))),
];

// AutoMod: List, Get, Create, Modify and Delete Auto Moderation Rule.
import { noContent, ok, route, type RouteDefinition } from "../http";
import { BODY_LIMITS } from "../request-body";
import { authorizedGuildAccess, guildAccess, snowflakeParam } from "../guards";
import { CreateAutoModerationRuleBodySchema, ModifyAutoModerationRuleBodySchema } from "../schemas/auto-moderation";
import {
  createAutoModerationRule,
  deleteAutoModerationRule,
  getAutoModerationRule,
  listAutoModerationRules,
  modifyAutoModerationRule,
} from "../services/auto-moderation";

// 1,000 keywords and 1,000 allowed words of 60 characters each, escaped: more than a plain JSON body's limit.
const RULE_BODY = { bodyLimit: BODY_LIMITS.document };

export const autoModerationRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/auto-moderation/rules: List Auto Moderation Rules for Guild
  route("GET", "/guilds/:guildId/auto-moderation/rules", "List Auto Moderation Rules", async (ctx) =>
    ok(await listAutoModerationRules(await guildAccess(ctx))),
  ),

  // GET /guilds/{guild.id}/auto-moderation/rules/{rule.id}: Get Auto Moderation Rule
  route("GET", "/guilds/:guildId/auto-moderation/rules/:ruleId", "Get Auto Moderation Rule", async (ctx) =>
    ok(await getAutoModerationRule(await guildAccess(ctx), snowflakeParam(ctx, "ruleId"))),
  ),

  // POST /guilds/{guild.id}/auto-moderation/rules: Create Auto Moderation Rule (200, as Discord answers)
  route(
    "POST",
    "/guilds/:guildId/auto-moderation/rules",
    "Create Auto Moderation Rule",
    async (ctx) => {
      const access = await authorizedGuildAccess(ctx, "Create Auto Moderation Rule");
      return ok(await createAutoModerationRule(access, ctx.json(CreateAutoModerationRuleBodySchema), ctx.auditReason));
    },
    RULE_BODY,
  ),

  // PATCH /guilds/{guild.id}/auto-moderation/rules/{rule.id}: Modify Auto Moderation Rule
  route(
    "PATCH",
    "/guilds/:guildId/auto-moderation/rules/:ruleId",
    "Modify Auto Moderation Rule",
    async (ctx) => {
      const access = await authorizedGuildAccess(ctx, "Modify Auto Moderation Rule");
      const ruleId = snowflakeParam(ctx, "ruleId");
      return ok(
        await modifyAutoModerationRule(access, ruleId, ctx.json(ModifyAutoModerationRuleBodySchema), ctx.auditReason),
      );
    },
    RULE_BODY,
  ),

  // DELETE /guilds/{guild.id}/auto-moderation/rules/{rule.id}: Delete Auto Moderation Rule
  route("DELETE", "/guilds/:guildId/auto-moderation/rules/:ruleId", "Delete Auto Moderation Rule", async (ctx) => {
    await deleteAutoModerationRule(await guildAccess(ctx), snowflakeParam(ctx, "ruleId"), ctx.auditReason);
    return noContent();
  }),
];

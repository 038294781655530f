// Prune: Get Guild Prune Count and Begin Guild Prune.
import { ok, route, type RouteDefinition } from "../http";
import { guildAccess } from "../guards";
import { BeginGuildPruneBodySchema, GetGuildPruneCountQuerySchema } from "../schemas/prune";
import { beginGuildPrune, getGuildPruneCount } from "../services/prune";

export const pruneRoutes: RouteDefinition[] = [
  // GET /guilds/{guild.id}/prune: Get Guild Prune Count
  route("GET", "/guilds/:guildId/prune", "Get Guild Prune Count", async (ctx) => {
    const access = await guildAccess(ctx);
    const query = ctx.queryAs(GetGuildPruneCountQuerySchema);
    return ok(await getGuildPruneCount(access, query.days, query.include_roles));
  }),

  // POST /guilds/{guild.id}/prune: Begin Guild Prune (the deprecated body `reason` is used when no header is sent)
  route("POST", "/guilds/:guildId/prune", "Begin Guild Prune", async (ctx) => {
    const access = await guildAccess(ctx);
    const body = ctx.json(BeginGuildPruneBodySchema);
    return ok(
      await beginGuildPrune(access, {
        days: body.days,
        computePruneCount: body.compute_prune_count,
        includeRoles: body.include_roles,
        reason: ctx.auditReason ?? body.reason ?? null,
      }),
    );
  }),
];

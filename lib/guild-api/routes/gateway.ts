// /gateway routes: where the WebSocket gateway is (lib/guild-api/gateway), and for bots also the recommended shard
// count and the session start limit.
import { ok, route } from "../http";
import { botGatewayInfo, gatewayUrlOf } from "../gateway";

export const gatewayRoutes = [
  // GET /gateway: Get Gateway (no token needed)
  route("GET", "/gateway", "Get Gateway", (ctx) => ok({ url: gatewayUrlOf(ctx.baseUrl) })),

  // GET /gateway/bot: Get Gateway Bot
  route("GET", "/gateway/bot", "Get Gateway Bot", async (ctx) =>
    ok({ url: gatewayUrlOf(ctx.baseUrl), ...(await botGatewayInfo(ctx.caller)) }),
  ),
];

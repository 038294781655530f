// The benchmark scenarios, each with the goal its issue sets (shown in the table, never asserted).
import type { BenchContext } from "./context";
import { measureLoad, type LoadResult } from "./load";

export interface Scenario {
  name: string;
  target?: string;
  run(ctx: BenchContext, duration: number): Promise<LoadResult>;
}

const bearer = (ctx: BenchContext, username = "owner") => ({ authorization: `Bearer ${ctx.tokenFor(username)}` });

export const scenarios: Scenario[] = [
  {
    name: "GET /healthz (fast path, no database)",
    run: (ctx, duration) => measureLoad({ url: `${ctx.appUrl}/healthz`, duration }),
  },
  {
    name: "GET /api/v10/users/@me",
    run: (ctx, duration) => measureLoad({ url: `${ctx.appUrl}/api/v10/users/@me`, headers: bearer(ctx), duration }),
  },
];

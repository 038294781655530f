// The benchmark scenarios, each with the goal its issue sets (shown in the table, never asserted).
// "load" scenarios are one GET measured for throughput with autocannon, against the limit answering the same path
// with the same bytes (bench/baseline-server.ts); "sequential" ones time requests one by one, where the goal is a
// median per request (on loopback, client time ≈ server time).
import type { BenchContext } from "./context";
import type { LimitRequest } from "./limit-answers";
import { measureLoad, measureSequential, measureStreamed, summarize, type LoadResult } from "./load";
import { memberScenarios } from "./member-scenarios";

export type Scenario = {
  name: string;
  target?: string;
  /** Only meaningful on a scale guild of at least this many members. */
  minMembers?: number;
} & (
  | { load(ctx: BenchContext): LimitRequest; run?: never }
  | { run(ctx: BenchContext, duration: number): Promise<LoadResult>; load?: never }
);

/** Measures a scenario on the Guildhall at ctx.appUrl (`serverCpuMs`: that process's CPU time so far, if known). */
export function runScenario(
  scenario: Scenario,
  ctx: BenchContext,
  duration: number,
  serverCpuMs?: () => number,
): Promise<LoadResult> {
  if (!scenario.load) return scenario.run(ctx, duration);
  const { path, headers } = scenario.load(ctx);
  return measureLoad({ url: `${ctx.appUrl}${path}`, headers, duration, serverCpuMs });
}

const bearer = (ctx: BenchContext, username = "owner") => ({ authorization: `Bearer ${ctx.tokenFor(username)}` });

async function expectOk(response: Response): Promise<void> {
  if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 80)}`);
  await response.arrayBuffer();
}

const get = (ctx: BenchContext, path: string) => () =>
  fetch(`${ctx.appUrl}${path}`, { headers: bearer(ctx) }).then(expectOk);

// One series of members-page renders gives both of its rows.
const pageRenders = new WeakMap<BenchContext, ReturnType<typeof measureStreamed>>();
function membersPageRenders(ctx: BenchContext): ReturnType<typeof measureStreamed> {
  let renders = pageRenders.get(ctx);
  if (!renders) {
    renders = ctx
      .dashboardCookie()
      .then((cookie) => measureStreamed(`${ctx.appUrl}/guilds/${ctx.scaleGuildId}/members`, { cookie }, 100));
    pageRenders.set(ctx, renders);
  }
  return renders;
}

export const scenarios: Scenario[] = [
  {
    name: "GET /healthz (fast path, no database)",
    load: () => ({ path: "/healthz" }),
  },
  {
    name: "GET /api/v10/users/@me",
    load: (ctx) => ({ path: "/api/v10/users/@me", headers: bearer(ctx) }),
  },
  {
    // The scale guild holds a full server's expressions (250 emoji, 60 stickers: lib/seed/scale.ts), as issue #34 asks.
    name: "GET /guilds/{id} (Get Guild)",
    target: "goal ≥ 0.5× limit",
    load: (ctx) => ({ path: `/api/v10/guilds/${ctx.scaleGuildId}`, headers: bearer(ctx) }),
  },
  {
    name: "GET /guilds/{id}/members?limit=100",
    target: "goal ≥ 0.45× limit",
    load: (ctx) => ({
      path: `/api/v10/guilds/${ctx.scaleGuildId}/members?limit=100&after=${ctx.midMemberId}`,
      headers: bearer(ctx),
    }),
  },
  {
    name: "search members, common prefix (sequential)",
    target: "median < 10 ms on 1M",
    run: (ctx) =>
      measureSequential(
        get(ctx, `/api/v10/guilds/${ctx.scaleGuildId}/members/search?query=${ctx.commonPrefix}&limit=100`),
        200,
      ),
  },
  {
    name: "search members, rare prefix (sequential)",
    target: "median < 10 ms on 1M",
    run: (ctx) =>
      measureSequential(
        get(ctx, `/api/v10/guilds/${ctx.scaleGuildId}/members/search?query=${ctx.rarePrefix}&limit=100`),
        200,
      ),
  },
  {
    name: "raw SQLite prune-count floor (in-process)",
    run: async (ctx) => measureSequential(async () => void ctx.rawPruneCount(30), 50),
  },
  {
    name: "GET /guilds/{id}/prune?days=30 (sequential)",
    target: "≤ 4× the raw floor above",
    run: (ctx) => measureSequential(get(ctx, `/api/v10/guilds/${ctx.scaleGuildId}/prune?days=30`), 50),
  },
  {
    name: "GET /guilds/{id}/bans?limit=1000 (sequential)",
    target: "median < 10 ms",
    run: (ctx) => measureSequential(get(ctx, `/api/v10/guilds/${ctx.scaleGuildId}/bans?limit=1000`), 100),
  },
  {
    // Each request the next page after the last one's last ban, back to the start at the end: pages the read cache
    // has not kept (it holds 16), as a bot walking the whole list reads them.
    name: "GET /guilds/{id}/bans?limit=200, walking the list (sequential)",
    run: (ctx) => {
      let after = "0";
      return measureSequential(async () => {
        const response = await fetch(`${ctx.appUrl}/api/v10/guilds/${ctx.scaleGuildId}/bans?limit=200&after=${after}`, {
          headers: bearer(ctx),
        });
        if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 80)}`);
        const page = (await response.json()) as Array<{ user: { id: string } }>;
        after = page.length === 200 ? page[199].user.id : "0";
      }, 100);
    },
  },
  {
    // The goal is server time: the Server-Timing header every API answer carries (routing to serialized answer).
    name: "POST /guilds/{id}/bulk-ban, 200 ids (sequential, server time)",
    target: "median < 20 ms",
    run: async (ctx) => {
      const serverTimes: number[] = [];
      const client = await measureSequential(
        async (i) => {
          const response = await fetch(`${ctx.appUrl}/api/v10/guilds/${ctx.scaleGuildId}/bulk-ban`, {
            method: "POST",
            headers: { ...bearer(ctx), "content-type": "application/json" },
            body: JSON.stringify({ user_ids: ctx.unbannedMemberIds(i, 200) }),
          });
          serverTimes.push(Number(/dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "")?.[1]));
          await expectOk(response);
        },
        30,
        2,
      );
      return { ...summarize(serverTimes.slice(2), 1), requestsPerSecond: client.requestsPerSecond };
    },
  },
  {
    // The members page asks the API for a page of 50 after reading the viewer (guild, member, roles).
    name: "GET /guilds/{id}/members?limit=50 (the members page's call, sequential)",
    run: (ctx) => measureSequential(get(ctx, `/api/v10/guilds/${ctx.scaleGuildId}/members?limit=50`), 200),
  },
  {
    // Its goal (≤ 1.5 × Next's floor for a dynamic page that does no work) is measured by bench:navigation.
    name: "members page, server render: time to first byte (sequential)",
    run: async (ctx) => (await membersPageRenders(ctx)).firstByte,
  },
  {
    name: "members page, server render: whole document (sequential)",
    run: async (ctx) => (await membersPageRenders(ctx)).complete,
  },
  ...memberScenarios,
  {
    name: "GET /guilds/{id}/widget.png?style=banner2",
    target: "≥ 200 req/s",
    load: (ctx) => ({ path: `/api/v10/guilds/${ctx.scaleGuildId}/widget.png?style=banner2` }),
  },
];

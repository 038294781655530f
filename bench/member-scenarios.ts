// The members table at scale (issue 16): Search Guild Members v2 as the members page sends it, timed by the API's
// own Server-Timing (routing to serialized answer), and a bulk role add to about 10,000 members driven exactly as the
// browser drives it (prepare, start, then one chunk action after another), through the dashboard's action code with
// the owner's token against the running server.
import type { BenchContext } from "./context";
import { measureSequential, summarize, type LoadResult } from "./load";
import type { Scenario } from "./scenarios";

const DAY = 86_400_000;

async function scaleGuildRoles(ctx: BenchContext): Promise<Array<{ id: string; name: string }>> {
  const response = await fetch(`${ctx.appUrl}/api/v10/guilds/${ctx.scaleGuildId}/roles`, {
    headers: { authorization: `Bearer ${ctx.tokenFor("owner")}` },
  });
  if (!response.ok) throw new Error(`GET roles: HTTP ${response.status}`);
  return (await response.json()) as Array<{ id: string; name: string }>;
}

/** Sequential searches, timed by the server (Server-Timing), for `body` built per request. */
async function serverTimedSearches(ctx: BenchContext, body: (i: number) => unknown, count = 50): Promise<LoadResult> {
  const serverTimes: number[] = [];
  const client = await measureSequential(async (i) => {
    const response = await fetch(`${ctx.appUrl}/api/v10/guilds/${ctx.scaleGuildId}/members-search`, {
      method: "POST",
      headers: { authorization: `Bearer ${ctx.tokenFor("owner")}`, "content-type": "application/json" },
      body: JSON.stringify(body(i)),
    });
    if (!response.ok) throw new Error(`HTTP ${response.status}: ${(await response.text()).slice(0, 80)}`);
    await response.arrayBuffer();
    serverTimes.push(Number(/dur=([\d.]+)/.exec(response.headers.get("server-timing") ?? "")?.[1]));
  }, count);
  return { ...summarize(serverTimes.slice(-count), 1), requestsPerSecond: client.requestsPerSecond };
}

/** A bulk role add as the members page runs it: prepare (every member matching the filter), start, chunks. */
async function bulkRoleAdd(ctx: BenchContext): Promise<LoadResult> {
  const [{ createGuildAction }, { GuildApiClient }, { keepAliveFetch }, actions] = await Promise.all([
    import("@/lib/dashboard/actions/action-client"),
    import("@/lib/api-client"),
    import("@/lib/api-client/keep-alive-fetch"),
    import("@/lib/dashboard/jobs/member-actions/operations"),
  ]);
  const token = ctx.tokenFor("owner");
  const ownerId = (await (
    await fetch(`${ctx.appUrl}/api/v10/users/@me`, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as { id: string };
  const deps = {
    getSession: async () => ({ actor: { id: ownerId.id, name: "Bench Owner", image: null } }),
    mode: () => "user" as const,
    // The transport lib/dashboard/data/api.ts gives the dashboard's clients.
    createApi: async () =>
      new GuildApiClient({ baseUrl: `${ctx.appUrl}/api`, token, authPrefix: "Bearer", fetch: keepAliveFetch }),
    record: async () => {},
  };
  // A new role each run, so every run adds it to the same ~10,000 members (those who joined in the last 7 days).
  const created = await fetch(`${ctx.appUrl}/api/v10/guilds/${ctx.scaleGuildId}/roles`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: `bench ${new Date().toISOString()}` }),
  });
  if (!created.ok) throw new Error(`create role: HTTP ${created.status}`);
  const role = (await created.json()) as { id: string };
  const guildId = ctx.scaleGuildId;

  const started = performance.now();
  const prepared = await createGuildAction(
    actions.prepareMemberJob,
    deps,
  )({
    guildId,
    action: "add_role",
    roleId: role.id,
    filters: { sort: "joined-desc", roles: [], roleMode: "any", joined: "7d", flags: [] },
  });
  if (!prepared.ok) throw new Error(prepared.error);
  const preparedAt = performance.now();
  const ids = { guildId, jobId: prepared.data.jobId };
  const start = await createGuildAction(actions.startMemberJob, deps)(ids);
  if (!start.ok) throw new Error(start.error);
  const chunk = createGuildAction(actions.memberJobChunks.add_role, deps);
  const chunkTimes: number[] = [];
  let done = 0;
  for (;;) {
    const t0 = performance.now();
    const result = await chunk(ids);
    chunkTimes.push(performance.now() - t0);
    if (!result.ok) throw new Error(result.error);
    done = result.data.counts.done;
    if (result.data.status !== "running") break;
  }
  const total = performance.now() - started;
  console.log(
    `  bulk role add: ${done.toLocaleString("en-US")} members in ${(total / 1000).toFixed(2)} s ` +
      `(prepare ${((preparedAt - started) / 1000).toFixed(2)} s, ${chunkTimes.length} chunks, ` +
      `median chunk ${summarize(chunkTimes, 1).p50.toFixed(0)} ms)`,
  );
  return { requestsPerSecond: (done / total) * 1000, p50: total, p99: total };
}

export const memberScenarios: Scenario[] = [
  {
    name: "members-search: joined in 7 days + role, newest first, 100 (server time)",
    target: "median ≤ 20 ms",
    run: async (ctx) => {
      const role = (await scaleGuildRoles(ctx)).find((r) => r.name === "Regular")!;
      return serverTimedSearches(ctx, () => ({
        limit: 100,
        sort: 1,
        and_query: { guild_joined_at: { range: { gte: Date.now() - 7 * DAY } }, role_ids: { or_query: [role.id] } },
      }));
    },
  },
  {
    name: "members-search: name substring, common (server time)",
    target: "median ≤ 50 ms",
    run: (ctx) => serverTimedSearches(ctx, () => ({ limit: 100, sort: 1, and_query: { query: ctx.commonSubstring } })),
  },
  {
    name: "members-search: name substring, rare (server time)",
    target: "median ≤ 50 ms",
    run: (ctx) => serverTimedSearches(ctx, () => ({ limit: 100, sort: 1, and_query: { query: ctx.rareSubstring } })),
  },
  {
    name: "members-search: account age, oldest first, 100 (server time)",
    run: (ctx) => serverTimedSearches(ctx, () => ({ limit: 100, sort: 4 })),
  },
  {
    // p50 and p99 are the whole job's time (one run); req/s is members changed per second.
    name: "bulk role add, ~10,000 members (prepare + chunks, whole job ms)",
    target: "≤ 10,000 ms",
    run: (ctx) => bulkRoleAdd(ctx),
  },
];

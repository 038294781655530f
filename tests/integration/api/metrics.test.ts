// GET /metrics counts what the API did: N Get Guild calls are N more in the histogram's count for that operation and
// status, an unknown guild is counted under its 404, and Node's process metrics are there for the soak and Grafana.
// Then what the rest of the process did: a 429 by the limit that refused it, a gateway session and the events fanned
// out to it, the job queues' backlog read at scrape time, and the store's statements and transactions.
import { GatewayIntentBits as I, Routes } from "discord-api-types/v10";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { RawGatewayClient } from "./gateway-client";

let server: TestServer;
let onPostgresql = false;
beforeAll(async () => {
  // Discord's limits on (the harness's default): one test below is refused by a route's bucket on purpose.
  server = await startTestServer({ gateway: { identifyIntervalMs: 0 } });
  onPostgresql = (await import("@/lib/guild-api/store/db")).storeOnPostgresql();
});
afterAll(() => server?.close());

async function metricsText(): Promise<string> {
  const response = await fetch(`${server.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

/** The value of the sample `name{labels}` (or `name` alone) in the text (0 when the series does not exist yet). */
function sample(text: string, name: string, labels = ""): number {
  const series = labels ? `${name}{${labels}} ` : `${name} `;
  const line = text.split("\n").find((l) => l.startsWith(series));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

/** Whether the text has the series at all. */
const hasSeries = (text: string, name: string, labels: string) => text.includes(`${name}{${labels}} `);

test("N Get Guild calls are N more in the operation's count; an unknown guild counts under 404", async () => {
  const count = "guildhall_api_request_duration_seconds_count";
  const before = await metricsText();
  for (let i = 0; i < 7; i++) await server.rest("owner").get(Routes.guild(server.world.guildId));
  await expect(server.rest("owner").get(Routes.guild("1234567890123456789"))).rejects.toThrow();
  const after = await metricsText();
  const ok = 'operation="Get Guild",status="200"';
  const unknown = 'operation="Get Guild",status="404"';
  expect(sample(after, count, ok) - sample(before, count, ok)).toBe(7);
  expect(sample(after, count, unknown) - sample(before, count, unknown)).toBe(1);
  // Buckets are cumulative: the last one holds every call.
  expect(sample(after, "guildhall_api_request_duration_seconds_bucket", `le="+Inf",${ok}`)).toBe(
    sample(after, count, ok),
  );
});

test("Node's process metrics: resident memory, heap used, event-loop delay, handles", async () => {
  const text = await metricsText();
  for (const name of [
    "process_resident_memory_bytes",
    "nodejs_heap_size_used_bytes",
    "nodejs_eventloop_lag_p99_seconds",
    "nodejs_active_handles_total",
  ])
    expect(text).toMatch(new RegExp(`^${name} \\d`, "m"));
});

test("a request a route's bucket refuses is one more 429 counted under scope route", async () => {
  const refusals = "guildhall_rate_limit_refusals_total";
  const before = await metricsText();
  // Get Guild Prune Count's bucket takes 5 per 5 seconds: the sixth call in a row is refused.
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) {
    const response = await fetch(`${server.baseUrl}/api/v10/guilds/${server.world.guildId}/prune?days=30`, {
      headers: { authorization: `Bot ${server.botToken}` },
    });
    statuses.push(response.status);
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  const after = await metricsText();
  expect(sample(after, refusals, 'scope="route"') - sample(before, refusals, 'scope="route"')).toBe(1);
  expect(sample(after, refusals, 'scope="global"')).toBe(sample(before, refusals, 'scope="global"'));
});

test("a connected gateway session is counted; a role created is one GUILD_ROLE_CREATE fanned out, once", async () => {
  const dispatches = "guildhall_gateway_dispatches_total";
  const roleCreate = 'type="GUILD_ROLE_CREATE"';
  const client = await RawGatewayClient.connect(server.baseUrl.replace(/^http/, "ws"));
  try {
    await client.identify(server.botToken, I.Guilds);
    const before = await metricsText();
    expect(sample(before, "guildhall_gateway_sessions")).toBeGreaterThanOrEqual(1);
    await server.rest("owner").post(Routes.guildRoles(server.world.guildId), { body: { name: "metrics" } });
    await client.dispatch("GUILD_ROLE_CREATE");
    const after = await metricsText();
    expect(sample(after, dispatches, roleCreate) - sample(before, dispatches, roleCreate)).toBe(1);
    const fanOuts = "guildhall_gateway_fanout_duration_seconds_count";
    expect(sample(after, fanOuts)).toBeGreaterThan(sample(before, fanOuts));
  } finally {
    client.close();
  }
});

test("the job queues' gauges read the tables at scrape time: a paused bulk ban is depth 1 and has an age", async () => {
  const { prisma } = await import("@/lib/dashboard/db");
  const depth = "guildhall_job_queue_depth";
  const age = "guildhall_job_queue_oldest_age_seconds";
  const queues = ["bulk_bans", "member_jobs", "target_users", "prunes", "scheduled_actions"];
  const before = await metricsText();
  for (const queue of queues) expect(hasSeries(before, depth, `queue="${queue}"`)).toBe(true);
  expect(sample(before, depth, 'queue="bulk_bans"')).toBe(0);
  expect(sample(before, age, 'queue="bulk_bans"')).toBe(0);

  const job = await prisma.bulkBanJob.create({
    data: {
      guildId: server.world.guildId,
      actorId: server.world.users.owner,
      actorName: "owner",
      status: "paused",
      createdAt: new Date(Date.now() - 60_000),
    },
  });
  try {
    const during = await metricsText();
    expect(sample(during, depth, 'queue="bulk_bans"')).toBe(1);
    expect(sample(during, age, 'queue="bulk_bans"')).toBeGreaterThanOrEqual(60);
    // A members-page job is another queue.
    expect(sample(during, depth, 'queue="member_jobs"')).toBe(0);
  } finally {
    await prisma.bulkBanJob.delete({ where: { id: job.id } });
  }
  expect(sample(await metricsText(), depth, 'queue="bulk_bans"')).toBe(0);
});

test("the store counts its statements, their time and its write transactions", async () => {
  const before = await metricsText();
  await server.rest("owner").post(Routes.guildRoles(server.world.guildId), { body: { name: "statements" } });
  const after = await metricsText();
  for (const name of ["guildhall_store_statements_total", "guildhall_store_statement_seconds_total"])
    expect(sample(after, name)).toBeGreaterThan(sample(before, name));
  const writes = "guildhall_store_transaction_duration_seconds_count";
  expect(sample(after, writes, 'kind="write"')).toBeGreaterThan(sample(before, writes, 'kind="write"'));
  expect(sample(after, "guildhall_store_connection_up")).toBe(1);
  // PostgreSQL: a request's read scope begins by hearing other instances' commits (one round trip, shared).
  if (onPostgresql) expect(sample(after, "guildhall_store_catchups_total")).toBeGreaterThan(0);
});

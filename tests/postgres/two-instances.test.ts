// Two Guildhall processes (A and B, the guild API of server.ts) on one PostgreSQL database and one Redis, as behind a
// load balancer:
//   - a bulk-ban job runs its chunks through A; A is killed with SIGKILL while a chunk's request is in flight; the job
//     is finished through B, and every id is banned exactly once (one GUILD_BAN_ADD per id in the outbox);
//   - a gateway session on B receives, in order, the events of changes written through A;
//   - one bot token's rate limit is spent across A and B together;
//   - a target-users CSV job started on A, which is killed with SIGKILL mid-job, is finished by B once A's lease runs
//     out, every id written once (A is started again after).
// The dashboard's job actions run in this test's process (the dashboard part of whichever instance the browser's next
// request reaches), with its job tables in the same PostgreSQL database.
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, expect, inject, test } from "vitest";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import { snowflakeAt } from "@/lib/discord/snowflake";
import { copySqliteToPostgresql } from "@/scripts/copy-sqlite-to-postgresql";
import { RawGatewayClient } from "../integration/api/gateway-client";
import { actionAs } from "../integration/dashboard/harness";
import type { TestServer } from "../integration/harness";
import { startRedis, type RedisProcess } from "../integration/redis-server";
import { startServerProcess, type ServerProcess } from "../integration/server-process";
import { newPostgresDatabase } from "./databases";

let url: string;
let redis: RedisProcess;
let a: ServerProcess;
let b: ServerProcess;
let client: pg.Client;
let secrets: { botToken: string; guildId: string };
const TARGETS = 450;
let targets: string[];
let modId: string;
let env: Record<string, string>;

beforeAll(async () => {
  url = await newPostgresDatabase(null);
  const template = inject("sqliteDemoTemplate");
  await copySqliteToPostgresql({ from: template, to: url });
  // Both instances and this process find the demo's secrets beside the database's name.
  process.env.GUILDHALL_SECRETS_DIR = fs.mkdtempSync(path.join(inject("scratchDirectory"), "two-instances-"));
  process.env.DATABASE_URL = url;
  const { secretsPathBase } = await import("@/lib/db/database-url");
  fs.copyFileSync(`${template}.secrets.json`, `${secretsPathBase(url)}.secrets.json`);
  secrets = JSON.parse(fs.readFileSync(`${template}.secrets.json`, "utf8")) as typeof secrets;

  client = new pg.Client({ connectionString: url });
  await client.connect();
  modId = String((await client.query<{ id: string }>("SELECT id FROM users WHERE username = 'mod'")).rows[0].id);
  // Users nobody has met, for the job to ban.
  const base = snowflakeAt(Date.UTC(2025, 0, 1));
  targets = Array.from({ length: TARGETS }, (_, i) => String(base + BigInt(i + 1) * 4_194_304n));
  await client.query(
    "INSERT INTO users (id, username, created_at) SELECT id, 'two_instances_' || n, 0 FROM unnest($1::bigint[]) WITH ORDINALITY AS t(id, n)",
    [targets],
  );

  redis = await startRedis();
  env = {
    REDIS_URL: redis.url,
    RATE_LIMITS: "on",
    GUILDHALL_SECRETS_DIR: process.env.GUILDHALL_SECRETS_DIR,
  };
  [a, b] = await Promise.all([startServerProcess(url, env), startServerProcess(url, env)]);
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.stop();
  await client?.end();
});

test("a gateway session on B receives, in order, the events of changes written through A", async () => {
  const gateway = await RawGatewayClient.connect(b.url.replace("http", "ws"));
  try {
    await gateway.identify(secrets.botToken, 1 /* GUILDS */);
    await gateway.dispatch("GUILD_CREATE", (d: { id: string }) => d.id === secrets.guildId);
    const names = ["Relay One", "Relay Two", "Relay Three"];
    for (const name of names) {
      const created = await fetch(`${a.url}/api/v10/guilds/${secrets.guildId}/roles`, {
        method: "POST",
        headers: { authorization: `Bot ${secrets.botToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name }),
      });
      expect(created.status).toBe(200);
    }
    for (const name of names) {
      const event = await gateway.dispatch("GUILD_ROLE_CREATE", () => true, 10_000);
      expect((event.d as { role: { name: string } }).role.name).toBe(name);
    }
  } finally {
    gateway.close();
  }
});

test("one token's rate limit holds across A and B: five prune counts in five seconds in all", async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) {
    const instance = i % 2 === 0 ? a : b;
    const answer = await fetch(`${instance.url}/api/v10/guilds/${secrets.guildId}/prune?days=7`, {
      headers: { authorization: `Bot ${secrets.botToken}` },
    });
    statuses.push(answer.status);
  }
  expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
});

test("a target-users job survives A's SIGKILL mid-job: B takes it over once A's lease runs out, every id written once", async () => {
  const total = 60_000;
  const base = snowflakeAt(Date.UTC(2021, 5, 1));
  const ids = Array.from({ length: total }, (_, i) => String(base + BigInt(i + 1) * 4_194_304n));
  await client.query(
    "INSERT INTO users (id, username, created_at) SELECT id, 'csv_target_' || n, 0 FROM unnest($1::bigint[]) WITH ORDINALITY AS t(id, n)",
    [ids],
  );
  const bot = { authorization: `Bot ${secrets.botToken}` };
  const channel = (
    await client.query<{ id: string }>("SELECT id FROM channels WHERE guild_id = $1 AND name = 'general'", [
      secrets.guildId,
    ])
  ).rows[0].id;
  const invite = (await (
    await fetch(`${a.url}/api/v10/channels/${channel}/invites`, {
      method: "POST",
      headers: { ...bot, "content-type": "application/json" },
      body: JSON.stringify({ unique: true }),
    })
  ).json()) as { code: string };
  const form = new FormData();
  form.append("target_users_file", new Blob([`user_id\n${ids.join("\n")}\n`], { type: "text/csv" }), "users.csv");
  const upload = await fetch(`${a.url}/api/v10/invites/${invite.code}/target-users`, {
    method: "PUT",
    headers: bot,
    body: form,
  });
  expect(upload.status).toBe(204);
  const progress = async () =>
    (
      await client.query<{ status: number; processed_users: number; lease_owner: string }>(
        "SELECT status, processed_users, lease_owner FROM invite_target_users_jobs WHERE invite_code = $1",
        [invite.code],
      )
    ).rows[0];
  // Killed mid-job: some chunks written and recorded, the rest not.
  while ((await progress()).processed_users === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  a.signal("SIGKILL");
  await new Promise<void>((resolve) => a.child.once("exit", () => resolve()));
  const cutShort = await progress();
  expect(cutShort.status).toBe(1);
  expect(cutShort.processed_users).toBeLessThan(total);

  // B takes the job over within A's lease (15 s) and its own sweep (5 s), and finishes it.
  const started = Date.now();
  let done = await progress();
  while (done.status === 1 && Date.now() - started < 40_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    done = await progress();
  }
  expect(done.status).toBe(2);
  expect(done.processed_users).toBe(total);
  expect(done.lease_owner).not.toBe(cutShort.lease_owner);
  const written = await client.query<{ n: string; distinct: string }>(
    "SELECT count(*) AS n, count(DISTINCT user_id) AS distinct FROM invite_target_users WHERE invite_code = $1",
    [invite.code],
  );
  expect(written.rows[0]).toEqual({ n: String(total), distinct: String(total) });
  a = await startServerProcess(url, env);
}, 90_000);

test("a bulk-ban job survives A's SIGKILL mid-chunk: B finishes it and every id is banned exactly once", async () => {
  const actions = await import("@/lib/dashboard/actions/bans");
  const jobs = await import("@/lib/dashboard/jobs/bulk-ban/jobs");
  const { prisma } = await import("@/lib/dashboard/db");
  // Which instance the load balancer sends the dashboard's API requests to.
  let target = a;
  let killDuringChunk = 0;
  const routed: typeof fetch = async (input, init) => {
    const resolved = String(input instanceof Request ? input.url : input).replace("http://instance", target.url);
    const request = fetch(resolved, init);
    if (init?.method === "POST" && resolved.includes("/bulk-ban") && killDuringChunk > 0 && --killDuringChunk === 0) {
      // The chunk is being written (200 bans take A longer than this): A freezes before it can answer, then dies
      // without a word. Its transaction either committed or is rolled back with its connection: B must find out which.
      await new Promise((resolve) => setTimeout(resolve, 10));
      a.signal("SIGSTOP");
      setTimeout(() => a.signal("SIGKILL"), 200);
    }
    return request;
  };
  const server = {
    baseUrl: "http://instance",
    botToken: secrets.botToken,
    world: { users: { mod: modId } },
  } as unknown as TestServer;
  const run = <S extends Parameters<typeof actionAs>[3]["schema"], R>(definition: GuildActionDefinition<S, R>) =>
    actionAs(server, "mod", "bot", definition, { fetch: routed }).run;
  const guildId = secrets.guildId;

  const preview = await run(actions.previewBulkBanAction.definition)({
    guildId,
    text: targets.join(" "),
    delete_message_seconds: 0,
    reason: "raid wave",
  });
  if (!preview.ok) throw new Error(preview.error);
  const jobId = preview.data.jobId;
  expect(preview.data.toBan).toBe(TARGETS);
  expect((await run(actions.startBulkBanJobAction.definition)({ guildId, jobId })).ok).toBe(true);
  const pending = async () =>
    (await jobs.getJob(guildId, jobId))!.items.filter((item) => item.state === "pending").map((item) => item.userId);
  const chunk = (userIds: string[]) =>
    run(actions.runBulkBanChunkAction.definition)({ guildId, jobId, userIds, reason: "raid wave" });

  expect((await chunk((await pending()).slice(0, 200))).ok).toBe(true);
  killDuringChunk = 1;
  expect((await chunk((await pending()).slice(0, 200))).ok).toBe(false);
  await new Promise<void>((resolve) =>
    a.child.exitCode !== null || a.child.signalCode ? resolve() : a.child.once("exit", () => resolve()),
  );
  expect(a.child.signalCode).toBe("SIGKILL");
  let job = (await jobs.getJob(guildId, jobId))!;
  expect(job.status).toBe("paused");
  expect(job.counts.sending).toBe(200);

  // The claim's lease runs out (SENDING_STALE_MS after sending); then B checks each id instead of resending it.
  await prisma.bulkBanItem.updateMany({
    where: { jobId, state: "sending" },
    data: { detail: `sent at ${new Date(Date.now() - jobs.SENDING_STALE_MS - 1000).toISOString()}` },
  });
  target = b;
  const resumed = await run(actions.startBulkBanJobAction.definition)({ guildId, jobId });
  expect(resumed.ok && resumed.data.reconciled).toBe(200);
  for (let left = await pending(); left.length > 0; left = await pending())
    expect((await chunk(left.slice(0, 200))).ok).toBe(true);
  job = (await jobs.getJob(guildId, jobId))!;
  expect(job.status).toBe("completed");
  expect(job.counts).toMatchObject({ banned: TARGETS, pending: 0, sending: 0 });

  // Exactly once: one ban row and one GUILD_BAN_ADD event per id, whichever instance wrote it.
  const bans = await client.query<{ n: string }>(
    "SELECT count(*) AS n FROM bans WHERE guild_id = $1 AND user_id = ANY($2::bigint[])",
    [guildId, targets],
  );
  expect(Number(bans.rows[0].n)).toBe(TARGETS);
  const events = await client.query<{ user_id: string; n: string }>(
    `SELECT payload::json->'user'->>'id' AS user_id, count(*) AS n FROM gateway_events
     WHERE type = 'GUILD_BAN_ADD' AND payload::json->'user'->>'id' = ANY($1::text[]) GROUP BY 1`,
    [targets],
  );
  expect(events.rows.length).toBe(TARGETS);
  expect(events.rows.every((row) => Number(row.n) === 1)).toBe(true);
});

// npm run bench:gateway [-- --idle N] [-- --window S] [-- --fanout N] [-- --events N] [-- --warmup N]
//   [-- --compressed-events N] [-- --burst N]
// (also the last pass of `npm run bench`). The gateway's figures, on its own demo database, with the server (API only,
// rate limits off) and the sessions each in their own process, on 127.0.0.1:
//   1. N idle sessions (default 10,000): the server's resident memory per session, and its CPU while they only
//      heartbeat, over one heartbeat interval (goals: ≤ 20 KB per session, ≤ 5% of a core);
//   2. fan-out of one event to 1,000 sessions, p50 and p99 over repeated events (200, after 5 unmeasured ones: the
//      first events after the sessions open run the delivery code cold, which a running server has long compiled;
//      with 200 samples the p99 is not simply the worst one): from its commit (when the committing
//      transaction wrote the outbox row, its created_at) to its last delivery (goal: p99 ≤ 50 ms), and, stricter, from
//      just before the REST call that commits it (the request's own time included); then the same to 1,000 sessions
//      connected with compress=zlib-stream (as discord.py connects: one zlib stream per session, inflated by the client);
//   3. a burst of 1,000 member updates (10 requests at a time) reaching a discord.js client: how many arrive, and
//      whether in the outbox's commit order.
// Figures are printed, never asserted.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startProcess, stop } from "../processes";
import { sessionsProcess } from "./sessions-process";

const args = process.argv.slice(2);
const argNumber = (name: string, fallback: number) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const IDLE = argNumber("--idle", 10_000);
const FANOUT = argNumber("--fanout", 1_000);
const EVENTS = argNumber("--events", 200);
const WARMUP = argNumber("--warmup", 5);
const COMPRESSED_EVENTS = argNumber("--compressed-events", 50);
const BURST = argNumber("--burst", 1_000);
const HEARTBEAT_MS = 41_250;
const WINDOW_S = argNumber("--window", HEARTBEAT_MS / 1000);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-gateway-bench-"));
const dbFile = path.join(dir, "gateway.db");
process.env.DATABASE_URL = `file:${dbFile}`;

const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resident memory (bytes) and CPU time (seconds) of a process, from /proc. */
function usage(pid: number): { rss: number; cpu: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const rss = Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime are fields 14 and 15 of stat; after "pid (comm) " they are the 12th and 13th.
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { rss, cpu: ticks / 100 };
}

async function main(): Promise<void> {
  const { seed } = await import("../../scripts/seed");
  seed({ reset: true, quiet: true });
  const { readDemoSecrets } = await import("@/lib/seed/demo-secrets");
  const { issueAccessToken } = await import("@/lib/guild-api/services/access-tokens");
  const { DEVELOPMENT_TOKEN_SCOPES } = await import("@/lib/guild-api/services/oauth2");
  const { db } = await import("@/lib/guild-api/store/db");
  const secrets = readDemoSecrets()!;
  const ownerId = (db().prepare("SELECT id FROM users WHERE username = 'owner'").get() as { id: bigint }).id;
  const ownerToken = (await issueAccessToken(BigInt(secrets.applicationId), ownerId, DEVELOPMENT_TOKEN_SCOPES))
    .access_token;

  const server = await startProcess(
    process.execPath,
    ["--import", "tsx", "server.ts"],
    {
      PORT: "0",
      HOST: "127.0.0.1",
      GUILDHALL_API_ONLY: "1",
      RATE_LIMITS: "off",
      DATABASE_URL: `file:${dbFile}`,
      GATEWAY_IDENTIFY_INTERVAL_MS: "0",
      GATEWAY_SESSION_START_LIMIT: "1000000",
      GATEWAY_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_MS),
    },
    /ready on http:\/\/127\.0\.0\.1:(\d+)/,
  );
  const apiUrl = `http://127.0.0.1:${server.port}`;
  const gatewayUrl = `ws://127.0.0.1:${server.port}/gateway`;
  const pid = server.child.pid!;
  const rows: Array<[string, string, string]> = [];
  const api = (method: string, route: string, body: unknown) =>
    fetch(`${apiUrl}/api/v10${route}`, {
      method,
      headers: { authorization: `Bearer ${ownerToken}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
  const sessions = await sessionsProcess();
  console.log(`Load average at the start: ${os.loadavg()[0].toFixed(2)} on ${os.cpus().length} cores`);
  const open = (count: number, intents: number, compress = false) =>
    sessions.ask({ cmd: "open", url: gatewayUrl, token: secrets.botToken, intents, count, parallel: 50, compress });

  try {
    // Warm up the server's gateway code, then measure from a settled baseline.
    await open(20, 1);
    await sessions.ask({ cmd: "close" });
    await sleep(2_000);
    const before = usage(pid);

    // ── 1. idle sessions ─────────────────────────────────────────────────────────────────────────────────────────
    console.log(`Opening ${fmt(IDLE)} sessions (GUILDS intent, READY and GUILD_CREATE each)…`);
    const openedAt = Date.now();
    await open(IDLE, 1);
    console.log(`  opened in ${fmt((Date.now() - openedAt) / 1000, 1)} s; settling, then ${WINDOW_S} s of heartbeats`);
    await sleep(5_000);
    const idle = usage(pid);
    const perSession = (idle.rss - before.rss) / IDLE;
    rows.push([`${fmt(IDLE)} idle sessions: server RSS per session`, `${fmt(perSession / 1024, 1)} KB`, "≤ 20 KB"]);
    await sleep(WINDOW_S * 1000);
    const beat = usage(pid);
    const cpuShare = (beat.cpu - idle.cpu) / WINDOW_S;
    rows.push([`${fmt(IDLE)} idle sessions: heartbeat CPU`, `${fmt(cpuShare * 100, 2)}% of a core`, "≤ 5%"]);
    await sessions.ask({ cmd: "close" });
    await sleep(1_000);

    // ── 2. fan-out ───────────────────────────────────────────────────────────────────────────────────────────────
    console.log(`Fan-out: ${EVENTS} role updates to ${fmt(FANOUT)} sessions, after ${WARMUP} unmeasured…`);
    await open(FANOUT, 1);
    const roleId = (
      db().prepare("SELECT id FROM roles WHERE guild_id = ? AND name = 'Regular'").get(BigInt(secrets.guildId)) as {
        id: bigint;
      }
    ).id;
    const lastDelivery: number[] = [];
    const fromRecorded: number[] = [];
    const deliveries: number[] = [];
    // When the committing transaction wrote the event (ms, the server's clock): the gateway's own part starts there.
    const recordedAt = db().prepare(
      "SELECT created_at FROM gateway_events WHERE type = 'GUILD_ROLE_UPDATE' ORDER BY rowid DESC LIMIT 1",
    );
    const answers: number[] = [];
    // The server's CPU time per event (REST call, commit and delivery): what a loaded machine's wall times hide.
    let cpuBefore = 0;
    for (let i = -WARMUP; i < EVENTS; i++) {
      if (i === 0) cpuBefore = usage(pid).cpu;
      const name = i < 0 ? `warmup-${-i}` : `fanout-${i}`;
      const watched = sessions.ask({ cmd: "watch", marker: `"name":"${name}"`, sessions: FANOUT });
      await watched;
      const result = sessions.ask(null);
      const started = performance.timeOrigin + performance.now();
      const response = await api("PATCH", `/guilds/${secrets.guildId}/roles/${roleId}`, { name });
      if (response.status !== 200) throw new Error(`role update answered ${response.status}`);
      if (i < 0) {
        await result;
        continue;
      }
      answers.push(performance.timeOrigin + performance.now() - started);
      const times = (await result).watched as number[];
      lastDelivery.push(Math.max(...times) - started);
      fromRecorded.push(Math.max(...times) - Number((recordedAt.get() as { created_at: bigint }).created_at));
      for (const time of times) deliveries.push(time - started);
    }
    const cpuPerEvent = ((usage(pid).cpu - cpuBefore) / EVENTS) * 1000;
    lastDelivery.sort((a, b) => a - b);
    fromRecorded.sort((a, b) => a - b);
    deliveries.sort((a, b) => a - b);
    rows.push([
      `fan-out to ${fmt(FANOUT)} sessions: commit (outbox row written) → last delivery`,
      `p50 ${fmt(percentile(fromRecorded, 0.5), 1)} ms, p99 ${fmt(percentile(fromRecorded, 0.99), 1)} ms, max ${fmt(fromRecorded[fromRecorded.length - 1], 1)} ms`,
      "p99 ≤ 50 ms",
    ]);
    rows.push([
      `fan-out to ${fmt(FANOUT)} sessions: REST call sent → last delivery`,
      `p50 ${fmt(percentile(lastDelivery, 0.5), 1)} ms, p99 ${fmt(percentile(lastDelivery, 0.99), 1)} ms`,
      "",
    ]);
    rows.push([
      `fan-out to ${fmt(FANOUT)} sessions: each delivery`,
      `p50 ${fmt(percentile(deliveries, 0.5), 1)} ms, p99 ${fmt(percentile(deliveries, 0.99), 1)} ms`,
      "",
    ]);
    rows.push([
      `fan-out to ${fmt(FANOUT)} sessions: the server's CPU per event (REST call included)`,
      `${fmt(cpuPerEvent, 1)} ms`,
      "",
    ]);
    answers.sort((a, b) => a - b);
    rows.push([
      "the REST call that commits each event: its answer",
      `p50 ${fmt(percentile(answers, 0.5), 1)} ms, p99 ${fmt(percentile(answers, 0.99), 1)} ms`,
      "",
    ]);
    await sessions.ask({ cmd: "close" });

    // ── 2b. fan-out to compressed sessions (compress=zlib-stream, as discord.py connects) ───────────────────────────
    if (COMPRESSED_EVENTS > 0) {
      console.log(`Fan-out: ${COMPRESSED_EVENTS} role updates to ${fmt(FANOUT)} zlib-stream sessions…`);
      await open(FANOUT, 1, true);
      const compressed: number[] = [];
      for (let i = -WARMUP; i < COMPRESSED_EVENTS; i++) {
        const name = i < 0 ? `zwarmup-${-i}` : `zfanout-${i}`;
        await sessions.ask({ cmd: "watch", marker: `"name":"${name}"`, sessions: FANOUT });
        const result = sessions.ask(null);
        const response = await api("PATCH", `/guilds/${secrets.guildId}/roles/${roleId}`, { name });
        if (response.status !== 200) throw new Error(`role update answered ${response.status}`);
        const times = (await result).watched as number[];
        if (i >= 0)
          compressed.push(Math.max(...times) - Number((recordedAt.get() as { created_at: bigint }).created_at));
      }
      compressed.sort((a, b) => a - b);
      rows.push([
        `fan-out to ${fmt(FANOUT)} zlib-stream sessions: commit → last delivery (inflated)`,
        `p50 ${fmt(percentile(compressed, 0.5), 1)} ms, p99 ${fmt(percentile(compressed, 0.99), 1)} ms, max ${fmt(compressed[compressed.length - 1], 1)} ms`,
        "",
      ]);
      await sessions.ask({ cmd: "close" });
    }

    // ── 3. burst to discord.js ───────────────────────────────────────────────────────────────────────────────────
    console.log(`Burst: ${fmt(BURST)} member updates to a discord.js client…`);
    rows.push(...(await burstToDiscordJs(apiUrl, secrets.botToken, secrets.guildId, api)));
  } finally {
    sessions.child.kill();
    stop(server.child);
    fs.rmSync(dir, { recursive: true, force: true });
  }

  const widths = [0, 1, 2].map((i) =>
    Math.max(...rows.map((r) => r[i].length), ["figure", "measured", "goal"][i].length),
  );
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join("  ");
  console.log(`\n${line(["figure", "measured", "goal"])}`);
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
  // The machine is shared: latency figures mean little without the load they were measured under.
  console.log(
    `\nLoad average at the end (1, 5, 15 min): ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(", ")} on ${os.cpus().length} cores`,
  );
}

async function burstToDiscordJs(
  apiUrl: string,
  botToken: string,
  guildId: string,
  api: (method: string, route: string, body: unknown) => Promise<Response>,
): Promise<Array<[string, string, string]>> {
  const { Client, Events, GatewayIntentBits } = await import("discord.js");
  const { db } = await import("@/lib/guild-api/store/db");
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildMembers],
    rest: { api: `${apiUrl}/api` },
  });
  const ready = new Promise((resolve) => client.once(Events.ClientReady, resolve));
  await client.login(botToken);
  await ready;
  const guild = client.guilds.cache.get(guildId)!;
  await guild.members.fetch();
  // Plain members, whom the owner may rename.
  const targets = (
    db()
      .prepare(
        "SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id WHERE m.guild_id = ? AND m.role_count = 0 AND u.bot = 0 AND u.username != 'owner' ORDER BY m.user_id LIMIT 10",
      )
      .all(BigInt(guildId)) as Array<{ user_id: bigint }>
  ).map((row) => String(row.user_id));
  const received: string[] = [];
  client.on(Events.GuildMemberUpdate, (_old, member) => {
    if (member.nickname?.startsWith("burst-")) received.push(member.nickname);
  });
  const head = (db().prepare("SELECT COALESCE(MAX(rowid), 0) AS head FROM gateway_events").get() as { head: bigint })
    .head;
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < BURST) {
      const i = next++;
      const response = await api("PATCH", `/guilds/${guildId}/members/${targets[i % targets.length]}`, {
        nick: `burst-${i}`,
      });
      if (response.status !== 200) throw new Error(`member update answered ${response.status}`);
    }
  };
  await Promise.all(Array.from({ length: 10 }, worker));
  for (const deadline = Date.now() + 30_000; received.length < BURST && Date.now() < deadline;) await sleep(20);
  const elapsed = performance.now() - started;
  // Commit order: the outbox's rowid order.
  const committed = (
    db()
      .prepare("SELECT payload FROM gateway_events WHERE rowid > ? AND type = 'GUILD_MEMBER_UPDATE' ORDER BY rowid")
      .all(head) as Array<{ payload: string }>
  )
    .map((row) => (JSON.parse(row.payload) as { nick: string | null }).nick)
    .filter((nick): nick is string => nick?.startsWith("burst-") ?? false);
  await client.destroy();
  const inOrder = received.length === committed.length && received.every((nick, i) => nick === committed[i]);
  return [
    [
      `burst of ${fmt(BURST)} member updates → discord.js guildMemberUpdate`,
      `${fmt(received.length)} of ${fmt(BURST)} received, ${inOrder ? "in commit order" : "OUT OF ORDER"}, ${fmt(elapsed)} ms`,
      "all, in order",
    ],
  ];
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    fs.rmSync(dir, { recursive: true, force: true });
    process.exit(1);
  },
);

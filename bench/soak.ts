// npm run bench:soak [-- --minutes N] [-- --window M] [-- --sessions S] [-- --members N] [-- --no-build] [-- --no-tour]
// An hour (default) of mixed traffic in one Guildhall process, as a running community puts on it: API reads and writes
// from three tokens (the owner's, a moderator's, the bot's) at a steady pace, Chromium clicking through the dashboard's
// sections every few seconds (bench/dashboard-use.ts), S gateway sessions (default 1,000) receiving the writes' events
// (bench/gateway/sessions.ts), and a bulk ban of 200 followed by their unbans every five minutes. It prints a row per
// M-minute window (default 5): req/s, p50 and p99 per kind of traffic (with the p99's 95 % interval: how far the same
// traffic's p99 moves by chance), and the process's resident memory, heap used,
// event-loop delay p99 and open handles (read from its GET /metrics). Then the drift against the second window (the
// first warms up) and what the process holds once the browser and the sessions have gone.
// Goals (issue #31): no window's throughput or p99 more than 10 % worse than the second window's; resident memory flat
// (± 10 %) after the first 10 minutes; no growth in handles; memory given back when sessions and pages end. Figures are
// measured, never asserted; written to bench/results/.
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { GatewayIntentBits } from "discord-api-types/v10";
import { CLIENT_NICENESS_ENV } from "./client-niceness";
import { openDashboard } from "./dashboard-use";
import { cpuShares, readMachineCpu, type ProcessStat } from "./machine-cpu";
import { median, startSpeedProbe } from "./machine-speed";
import { sessionsProcess } from "./gateway/sessions-process";
import { summarize } from "./load";
import { stop } from "./processes";
import { argValue, fmt, hasFlag, openBenchDatabase, prepareBench, startGuildhall } from "./setup";

const minutes = Number(argValue("--minutes") ?? 60);
const windowMinutes = Number(argValue("--window") ?? 5);
const sessionCount = Number(argValue("--sessions") ?? 1_000);
const members = Number(argValue("--members") ?? 100_000);
/**
 * Chromium opens the dashboard and stays on the demo guild's members page (live, refreshed as events come) without
 * clicking through the sections: what the tour's page renders cost the API's figures is the difference.
 */
const tour = !hasFlag("--no-tour");
const benchDb = openBenchDatabase(members);
process.env.PUBLIC_URL ??= "http://localhost:3000";

/** Requests of one kind in the current window: their times (ms) and failures. */
class KindWindow {
  times: number[] = [];
  failures = 0;
  /** The first failure's message, to say why. */
  firstError?: string;
}

let current = new Map<string, KindWindow>();
const windowOf = (kind: string) => {
  let found = current.get(kind);
  if (!found) current.set(kind, (found = new KindWindow()));
  return found;
};
const record = (kind: string, ms: number) => windowOf(kind).times.push(ms);
const fail = (kind: string, error: unknown) => {
  const w = windowOf(kind);
  w.failures++;
  w.firstError ??= error instanceof Error ? error.message : String(error);
};

/** How long after the sessions drop the last figures are read: their resume window (3 min), the sweep, 30 s more. */
const AFTER_RESUME_WINDOW_MS = 3.5 * 60_000;
/** The niceness of the gateway sessions' process (bench/client-niceness.ts). */
const CLIENT_NICENESS = 10;
/** How many routes a window names: those that took most of the server's page time. */
const TOP_ROUTES = 4;

/**
 * The load's HTTP client: node:http on kept-alive connections. fetch (undici) spent about 1.4 ms of this process's CPU
 * per request and held its event loop 20 ms and more 20 to 50 times a minute: requests answered meanwhile were timed
 * late, and the figures blamed the server. No cap on sockets: a request waiting in the agent would be timed as the
 * server's.
 */
const keptAlive = new http.Agent({ keepAlive: true });
/** A request not answered in this long fails (and frees its place in flight). */
const REQUEST_TIMEOUT_MS = 60_000;

function request(url: string, method: string, headers: Record<string, string>, body?: unknown) {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise<{ status: number; json(): unknown }>((resolve, reject) => {
    const outgoing = http.request(url, { method, headers, agent: keptAlive }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () =>
        resolve({ status: response.statusCode ?? 0, json: () => JSON.parse(Buffer.concat(chunks).toString()) }),
      );
      response.on("error", reject);
    });
    outgoing.setTimeout(REQUEST_TIMEOUT_MS, () => outgoing.destroy(new Error(`no answer in ${REQUEST_TIMEOUT_MS} ms`)));
    outgoing.on("error", reject);
    outgoing.end(payload);
  });
}

/** At most this many of one kind in flight: a server that stalls shows as fewer requests, not as a pile in the client. */
const MAX_IN_FLIGHT = 32;

/** Calls `once` `perSecond` times a second (open loop: not waiting for the previous call), timing each. */
function paced(kind: string, perSecond: number, once: (i: number) => Promise<unknown>): () => void {
  let inFlight = 0;
  let i = 0;
  const timer = setInterval(() => {
    if (inFlight >= MAX_IN_FLIGHT) return fail(kind, new Error(`${MAX_IN_FLIGHT} still in flight`));
    inFlight++;
    const started = performance.now();
    once(i++)
      .then(
        () => record(kind, performance.now() - started),
        (error: unknown) => fail(kind, error),
      )
      .finally(() => inFlight--);
  }, 1000 / perSecond);
  return () => clearInterval(timer);
}

interface ProcessFigures {
  rssMb: number;
  heapUsedMb: number;
  eventLoopP99Ms: number;
  handles: number;
  /** Running totals, compared between windows: the process's CPU, its collections, its page and API answers. */
  cpuSeconds: number;
  gc: Record<"major" | "minor" | "incremental", { count: number; seconds: number }>;
  pages: { count: number; seconds: number };
  /** The same by route pattern (lib/server/page-metrics.ts). */
  pagesByRoute: Map<string, { count: number; seconds: number }>;
  /** API answers (routing to the answer written) per histogram bound, in seconds: how many took at most that long. */
  apiAtMost: Map<number, number>;
}

/** The sum of a metric's samples over all its label sets, those whose labels match `labels` if given. */
function metricSum(text: string, name: string, labels?: RegExp): number {
  let sum = 0;
  for (const match of text.matchAll(new RegExp(`^${name}(\\{[^}]*\\})? ([\\d.e+-]+)$`, "gm")))
    if (!labels || labels.test(match[1] ?? "")) sum += Number(match[2]);
  return sum;
}

/** The process's own figures from its /metrics (the event-loop delay since the previous read: prom-client resets it). */
async function processFigures(appUrl: string): Promise<ProcessFigures> {
  const text = await (await fetch(`${appUrl}/metrics`)).text();
  const gcOf = (kind: string) => ({
    count: metricSum(text, "nodejs_gc_duration_seconds_count", new RegExp(`kind="${kind}"`)),
    seconds: metricSum(text, "nodejs_gc_duration_seconds_sum", new RegExp(`kind="${kind}"`)),
  });
  const apiAtMost = new Map<number, number>();
  for (const match of text.matchAll(
    /^guildhall_api_request_duration_seconds_bucket\{[^}]*le="([^"]+)"[^}]*\} (\d+)$/gm,
  )) {
    const bound = match[1] === "+Inf" ? Infinity : Number(match[1]);
    apiAtMost.set(bound, (apiAtMost.get(bound) ?? 0) + Number(match[2]));
  }
  const pagesByRoute = new Map<string, { count: number; seconds: number }>();
  for (const match of text.matchAll(
    /^guildhall_page_request_duration_seconds_(count|sum)\{[^}]*route="([^"]+)"[^}]*\} ([\d.e+-]+)$/gm,
  )) {
    const route = pagesByRoute.get(match[2]) ?? { count: 0, seconds: 0 };
    route[match[1] === "count" ? "count" : "seconds"] += Number(match[3]);
    pagesByRoute.set(match[2], route);
  }
  return {
    rssMb: metricSum(text, "process_resident_memory_bytes") / 2 ** 20,
    heapUsedMb: metricSum(text, "nodejs_heap_size_used_bytes") / 2 ** 20,
    // The main thread's, which answers the API (the dashboard's thread, if any, labels its own `thread`).
    eventLoopP99Ms: metricSum(text, "nodejs_eventloop_lag_p99_seconds", /^(?![^]*thread=)/) * 1000,
    handles: metricSum(text, "nodejs_active_handles_total"),
    cpuSeconds: metricSum(text, "process_cpu_seconds_total"),
    gc: { major: gcOf("major"), minor: gcOf("minor"), incremental: gcOf("incremental") },
    pages: {
      count: metricSum(text, "guildhall_page_request_duration_seconds_count"),
      seconds: metricSum(text, "guildhall_page_request_duration_seconds_sum"),
    },
    pagesByRoute,
    apiAtMost,
  };
}

interface KindFigures {
  perSecond: number;
  p50: number;
  p99: number;
  /** Where the p99 of the same traffic would fall 95 times in 100 (p99Interval): the spread its sample allows. */
  p99Low: number;
  p99High: number;
  failures: number;
  firstError?: string;
}

/** A p99's 95 % interval as the rows print it. */
const intervalText = (k: KindFigures) => `${fmt(k.p99Low, 1)}–${fmt(k.p99High, 1)}`;

interface WindowRow {
  window: number;
  kinds: Record<string, KindFigures>;
  figures: ProcessFigures;
  /** The window's difference of the running totals. */
  during: WindowActivity;
  /** The machine's speed during the window: the fixed work's median CPU time, ms (bench/machine-speed.ts). */
  machineSpeed: { computeMs: number; memoryMs: number };
  /** This load generator's own event-loop delay p99, ms: a request answered while it was held is timed late. */
  benchLoopP99Ms: number;
}

interface WindowActivity {
  serverCpuPercent: number;
  gc: Record<"major" | "minor" | "incremental", { count: number; ms: number }>;
  pages: number;
  pageMeanMs: number;
  /** The routes that took most of the server's page time, most first: requests and mean time. */
  topRoutes: Array<{ route: string; count: number; meanMs: number }>;
  /** The smallest histogram bound at least 99 % of the window's API answers took no longer than (server side). */
  apiP99AtMostMs: number;
  /** Each part of the machine's CPU, % of one core; the machine's own is every core's busy time. */
  cpu: Record<string, number>;
  loadAverage: number;
}

function activityBetween(
  before: ProcessFigures,
  after: ProcessFigures,
  cpu: Record<string, number>,
  seconds: number,
): WindowActivity {
  const gcOf = (kind: "major" | "minor" | "incremental") => ({
    count: after.gc[kind].count - before.gc[kind].count,
    ms: (after.gc[kind].seconds - before.gc[kind].seconds) * 1000,
  });
  const pages = after.pages.count - before.pages.count;
  const topRoutes = [...after.pagesByRoute]
    .map(([route, now]) => {
      const then = before.pagesByRoute.get(route) ?? { count: 0, seconds: 0 };
      return { route, count: now.count - then.count, seconds: now.seconds - then.seconds };
    })
    .filter((route) => route.count > 0)
    .sort((a, b) => b.seconds - a.seconds)
    .slice(0, TOP_ROUTES)
    .map(({ route, count, seconds }) => ({ route, count, meanMs: (seconds / count) * 1000 }));
  const bounds = [...after.apiAtMost.keys()].sort((a, b) => a - b);
  const answered = (bound: number) => (after.apiAtMost.get(bound) ?? 0) - (before.apiAtMost.get(bound) ?? 0);
  const total = answered(Infinity);
  // No answer in the window: no p99 (Infinity would say some took longer than the last bound).
  const p99Bound = total ? bounds.find((bound) => answered(bound) >= total * 0.99)! : NaN;
  return {
    serverCpuPercent: ((after.cpuSeconds - before.cpuSeconds) / seconds) * 100,
    gc: { major: gcOf("major"), minor: gcOf("minor"), incremental: gcOf("incremental") },
    pages,
    pageMeanMs: pages ? ((after.pages.seconds - before.pages.seconds) / pages) * 1000 : NaN,
    topRoutes,
    apiP99AtMostMs: p99Bound * 1000,
    cpu,
    loadAverage: os.loadavg()[0],
  };
}

async function main(): Promise<void> {
  await prepareBench(benchDb, members, !hasFlag("--no-build"));
  const app = await startGuildhall("localhost", {
    RATE_LIMITS: "off",
    GATEWAY_IDENTIFY_INTERVAL_MS: "0",
    GATEWAY_SESSION_START_LIMIT: "1000000",
  });
  const appUrl = `http://127.0.0.1:${app.port}`;
  const ctx = await (await import("./context")).createBenchContext(appUrl);
  const stops: Array<() => void> = [];
  // The sessions run at nice 10: on a deployment they are other machines (bench/client-niceness.ts).
  const sessions = await sessionsProcess({ [CLIENT_NICENESS_ENV]: String(CLIENT_NICENESS) });
  let speedProbe: Awaited<ReturnType<typeof startSpeedProbe>> | undefined;
  try {
    speedProbe = await startSpeedProbe();
    const atStart = await processFigures(appUrl);
    const headers = {
      owner: { authorization: `Bearer ${ctx.tokenFor("owner")}`, "content-type": "application/json" },
      mod: { authorization: `Bearer ${ctx.tokenFor("mod")}`, "content-type": "application/json" },
      bot: { authorization: `Bot ${ctx.botToken}`, "content-type": "application/json" },
    };
    const api = async (who: keyof typeof headers, method: string, route: string, body?: unknown) => {
      const response = await request(`${appUrl}/api/v10${route}`, method, headers[who], body);
      // A redirect (to sign-in) or an error is no answer to time.
      if (response.status < 200 || response.status > 299)
        throw new Error(`${method} ${route}: HTTP ${response.status}`);
      return response;
    };

    console.log(`Opening ${fmt(sessionCount)} gateway sessions (the bot's token, demo guild events)…`);
    await sessions.ask({
      cmd: "open",
      url: `ws://127.0.0.1:${app.port}/gateway`,
      token: ctx.botToken,
      intents: GatewayIntentBits.Guilds | GatewayIntentBits.GuildModeration,
      count: sessionCount,
      parallel: 50,
    });
    const dashboard = await openDashboard(
      app.url,
      await ctx.dashboardCookie(),
      { demo: ctx.demoGuildId, scale: ctx.scaleGuildId },
      tour ? { everyMs: 3_000, onClick: (ms) => record("dashboard: click to section", ms) } : undefined,
    );
    stops.push(() => dashboard.close());

    const demo = ctx.demoGuildId;
    const scale = ctx.scaleGuildId;
    const memberId = await demoMemberId(appUrl, headers.owner, demo);
    stops.push(
      paced("read: Get Guild (owner)", 40, () => api("owner", "GET", `/guilds/${demo}`)),
      paced("read: members ?limit=100 (owner, scale)", 20, () =>
        api("owner", "GET", `/guilds/${scale}/members?limit=100&after=${ctx.midMemberId}`),
      ),
      paced("read: roles (mod)", 20, () => api("mod", "GET", `/guilds/${demo}/roles`)),
      paced("read: bans ?limit=100 (bot)", 10, () => api("bot", "GET", `/guilds/${demo}/bans?limit=100`)),
      paced("write: nickname (mod)", 2, (i) =>
        api("mod", "PATCH", `/guilds/${demo}/members/${memberId}`, { nick: i % 2 ? `soak ${i % 100}` : null }),
      ),
      paced("write: role created and deleted (owner)", 1, async () => {
        const role = (await api("owner", "POST", `/guilds/${demo}/roles`, { name: "soak" })).json() as { id: string };
        await api("owner", "DELETE", `/guilds/${demo}/roles/${role.id}`);
      }),
    );
    stops.push(bulkBansEvery(5 * 60_000, ctx, api, demo));

    const rows: WindowRow[] = [];
    const windowMs = windowMinutes * 60_000;
    const windows = Math.max(1, Math.round(minutes / windowMinutes));
    console.log(
      `Soak: ${minutes} min in ${windows} windows of ${windowMinutes} min, in one process; ` +
        `the sessions' process at nice ${CLIENT_NICENESS}${tour ? "" : "; no tour of the dashboard"}.\n`,
    );
    // Whose CPU it was: the server's process group, Chromium, the sessions' process, this load generator, the rest.
    const partOf = (p: ProcessStat) =>
      /chrom/i.test(p.comm)
        ? "Chromium"
        : p.pgrp === app.child.pid
          ? "server"
          : p.pid === sessions.child.pid
            ? "sessions"
            : p.pid === process.pid
              ? "bench"
              : undefined;
    let lastFigures = await processFigures(appUrl); // the event-loop delay counts from here
    let lastCpu = readMachineCpu(partOf);
    await speedProbe.take(); // from here
    const benchLoop = monitorEventLoopDelay({ resolution: 5 });
    benchLoop.enable();
    for (let window = 1; window <= windows; window++) {
      await new Promise((resolve) => setTimeout(resolve, windowMs));
      const ended = current;
      current = new Map();
      const figures = await processFigures(appUrl);
      const cpu = readMachineCpu(partOf);
      const during = activityBetween(lastFigures, figures, cpuShares(lastCpu, cpu, windowMs / 1000), windowMs / 1000);
      [lastFigures, lastCpu] = [figures, cpu];
      const speed = await speedProbe.take();
      const machineSpeed = { computeMs: median(speed.computeMs), memoryMs: median(speed.memoryMs) };
      const benchLoopP99Ms = benchLoop.percentile(99) / 1e6;
      benchLoop.reset();
      const row: WindowRow = { window, kinds: {}, figures, during, machineSpeed, benchLoopP99Ms };
      for (const [kind, w] of [...ended].sort(([a], [b]) => a.localeCompare(b))) {
        const summary = summarize(w.times, windowMs / 1000);
        row.kinds[kind] = {
          perSecond: summary.requestsPerSecond,
          // No request of the kind succeeded in the window: no time to show.
          p50: summary.p50 ?? NaN,
          p99: summary.p99 ?? NaN,
          p99Low: summary.p99Interval?.low ?? NaN,
          p99High: summary.p99Interval?.high ?? NaN,
          failures: w.failures,
          firstError: w.firstError,
        };
      }
      rows.push(row);
      printWindow(row);
    }
    for (const stopTraffic of stops.splice(0)) stopTraffic();
    await sessions.ask({ cmd: "close" });
    // Let closed sockets, streams and the last jobs end, then see what the process gives back: 30 s after, and once
    // the dropped sessions' resume window (3 min) and idle keep-alive connections (65 s) have passed.
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    const soonAfter = await processFigures(appUrl);
    await new Promise((resolve) => setTimeout(resolve, AFTER_RESUME_WINDOW_MS - 30_000));
    const atEnd = await processFigures(appUrl);
    printDrift(rows, atStart, soonAfter, atEnd);
    fs.mkdirSync("bench/results", { recursive: true });
    fs.writeFileSync(
      path.join("bench/results", `soak-${new Date().toISOString().replace(/[:.]/g, "-")}.json`),
      JSON.stringify(
        { minutes, windowMinutes, sessionCount, atStart, rows, soonAfter, atEnd },
        // The per-bound and per-route figures are Maps: written as objects, not as {}.
        (_key, value: unknown) => (value instanceof Map ? Object.fromEntries(value) : value),
        2,
      ),
    );
  } finally {
    for (const stopTraffic of stops) stopTraffic();
    sessions.child.kill();
    speedProbe?.stop();
    stop(app.child);
  }
}

/** A member of the demo guild the moderator may rename (no roles, not a bot, not the owner). */
async function demoMemberId(appUrl: string, headers: Record<string, string>, guildId: string): Promise<string> {
  const read = async <T>(route: string) => (await (await fetch(`${appUrl}/api/v10${route}`, { headers })).json()) as T;
  const { owner_id } = await read<{ owner_id: string }>(`/guilds/${guildId}`);
  const list = await read<Array<{ user: { id: string; bot?: boolean }; roles: string[] }>>(
    `/guilds/${guildId}/members?limit=1000`,
  );
  const member = list.find((m) => m.roles.length === 0 && !m.user.bot && m.user.id !== owner_id);
  if (!member) throw new Error("no member without roles in the demo guild");
  return member.user.id;
}

/** Every `everyMs`: bulk-ban 200 users (members of the scale guild, not of the demo guild), then unban them, 20 a second. */
function bulkBansEvery(
  everyMs: number,
  ctx: Awaited<ReturnType<typeof import("./context").createBenchContext>>,
  api: (who: "owner", method: string, route: string, body?: unknown) => Promise<unknown>,
  guildId: string,
): () => void {
  let batch = 0;
  let stopped = false;
  const run = async () => {
    const ids = ctx.unbannedMemberIds(batch++ % 40, 200);
    const started = performance.now();
    await api("owner", "POST", `/guilds/${guildId}/bulk-ban`, { user_ids: ids }).then(
      () => record("job: bulk ban of 200", performance.now() - started),
      (error: unknown) => fail("job: bulk ban of 200", error),
    );
    for (const id of ids) {
      if (stopped) return;
      const one = performance.now();
      await api("owner", "DELETE", `/guilds/${guildId}/bans/${id}`).then(
        () => record("write: unban (owner)", performance.now() - one),
        (error: unknown) => fail("write: unban (owner)", error),
      );
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const first = setTimeout(() => void run(), 30_000);
  const timer = setInterval(() => void run(), everyMs);
  return () => {
    stopped = true;
    clearTimeout(first);
    clearInterval(timer);
  };
}

const ordinal = (n: number) =>
  `${fmt(n)}${n % 100 >= 11 && n % 100 <= 13 ? "th" : (["th", "st", "nd", "rd"][n % 10] ?? "th")}`;

function printWindow(row: WindowRow): void {
  const from = (row.window - 1) * windowMinutes;
  const f = row.figures;
  console.log(
    `window ${row.window} (${from}–${from + windowMinutes} min): RSS ${fmt(f.rssMb)} MB, heap used ${fmt(f.heapUsedMb)} MB, ` +
      `event-loop delay p99 ${fmt(f.eventLoopP99Ms, 1)} ms, handles ${fmt(f.handles)}`,
  );
  const d = row.during;
  const gc = (kind: keyof WindowActivity["gc"]) => `${fmt(d.gc[kind].count)} ${kind} (${fmt(d.gc[kind].ms)} ms)`;
  console.log(
    `  server: CPU ${fmt(d.serverCpuPercent)} % of a core; collections ${gc("major")}, ${gc("incremental")}, ` +
      `${gc("minor")}; ${fmt(d.pages)} page requests, mean ${fmt(d.pageMeanMs)} ms; ` +
      `API answers' p99 ≤ ${fmt(d.apiP99AtMostMs, 1)} ms inside the server`,
  );
  console.log(
    `  machine: busy ${fmt(d.cpu.machine)} % of a core (` +
      ["server", "Chromium", "sessions", "bench", "other"]
        .map((part) => `${part} ${fmt(d.cpu[part] ?? 0)}`)
        .join(", ") +
      `), 1-minute load average at its end ${fmt(d.loadAverage, 2)}; its fixed work took ` +
      `${fmt(row.machineSpeed.computeMs, 1)} ms (compute) and ${fmt(row.machineSpeed.memoryMs, 1)} ms (memory); ` +
      `this load generator's event-loop delay p99 ${fmt(row.benchLoopP99Ms, 1)} ms (5 ms resolution included)`,
  );
  console.log(
    `  pages by route (most time first): ` +
      d.topRoutes.map((r) => `${r.route} ${fmt(r.count)} × ${fmt(r.meanMs)} ms`).join(", "),
  );
  for (const [kind, k] of Object.entries(row.kinds))
    console.log(
      `  ${kind.padEnd(42)} ${fmt(k.perSecond, 1).padStart(7)}/s  p50 ${fmt(k.p50, 1).padStart(7)} ms  p99 ${fmt(k.p99, 1).padStart(7)} ms (${intervalText(k)})${k.failures ? `  ${fmt(k.failures)} failed (${k.firstError})` : ""}`,
    );
}

/** Each window against the second, the memory after the first ten minutes, and what the end gave back. */
function printDrift(
  rows: readonly WindowRow[],
  atStart: ProcessFigures,
  soonAfter: ProcessFigures,
  atEnd: ProcessFigures,
): void {
  const reference = rows[1];
  if (!reference) console.log("\nDrift: needs at least two windows (the first warms up).");
  else console.log(`\nDrift against window ${reference.window} (goal: no window more than 10 % worse):`);
  for (const kind of Object.keys(reference?.kinds ?? {})) {
    const ref = reference.kinds[kind];
    const worst = rows
      .slice(1)
      .reduce((a, b) => ((b.kinds[kind]?.p99 ?? Infinity) > (a.kinds[kind]?.p99 ?? Infinity) ? b : a));
    const worstP99 = (worst.kinds[kind]?.p99 ?? Infinity) / ref.p99;
    const interval = (k: KindFigures | undefined) => (k ? `${intervalText(k)} ms` : "none");
    // A job runs on a timer (one or two fall in a window): its rate says nothing, its time does.
    const worstRate = kind.startsWith("job:")
      ? "scheduled"
      : `${fmt(Math.min(...rows.slice(1).map((r) => (r.kinds[kind]?.perSecond ?? 0) / ref.perSecond)) * 100)} %`;
    // How many of the kind a window has: its p99 is the n-th slowest of them, so a kind with few is a few requests.
    const perWindow = Math.round(ref.perSecond * windowMinutes * 60);
    const nth = Math.max(1, Math.ceil(perWindow / 100));
    console.log(
      `  ${kind.padEnd(42)} worst req/s ${worstRate}, worst p99 ${fmt(worstP99 * 100)} % ` +
        `(${fmt(perWindow)} a window: the p99 is the ${ordinal(nth)} slowest; 95 % interval ` +
        (worst === reference
          ? `${interval(ref)})`
          : `${interval(worst.kinds[kind])} in window ${worst.window}, ${interval(ref)} in window ${reference.window})`),
    );
  }
  if (reference) {
    const slowest = (part: "computeMs" | "memoryMs") =>
      fmt(Math.max(...rows.slice(1).map((r) => r.machineSpeed[part] / reference.machineSpeed[part])) * 100);
    // Every process's figures move with the machine's: the same fixed work taking longer is not the server's doing.
    console.log(
      `  the machine (fixed work, bench/machine-speed.ts)   slowest compute ${slowest("computeMs")} %, ` +
        `slowest memory ${slowest("memoryMs")} % of window ${reference.window}'s time`,
    );
  }
  const settled = rows.filter((r) => r.window * windowMinutes > 10).map((r) => r.figures.rssMb);
  if (settled.length)
    console.log(
      `Resident memory after 10 min: ${fmt(Math.min(...settled))}–${fmt(Math.max(...settled))} MB ` +
        `(${fmt(((Math.max(...settled) - Math.min(...settled)) / Math.min(...settled)) * 100, 1)} % apart; goal ≤ 10 %)`,
    );
  const handles = rows.map((r) => r.figures.handles);
  console.log(`Open handles per window: ${handles.map((h) => fmt(h)).join(", ")}`);
  const figures = (f: ProcessFigures) =>
    `RSS ${fmt(f.rssMb)} MB, heap used ${fmt(f.heapUsedMb)} MB, ${fmt(f.handles)} handles`;
  console.log(`Before the traffic (no page rendered yet): ${figures(atStart)}.`);
  console.log(`At the end of window 1 (warmed up, everything open): ${figures(rows[0].figures)}.`);
  console.log(`30 s after the traffic stopped and the browser and the sessions closed: ${figures(soonAfter)}.`);
  console.log(`3.5 min after (the sessions' resume window and idle keep-alives over): ${figures(atEnd)}.`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);

// Running Guildhall as a service (issue #36): one request id from a dashboard action through the API calls it makes
// to the gateway events they write, every one of them on the log; and a graceful shutdown (SIGTERM) in the middle of
// a bulk-ban job: the chunk in flight is answered, gateway sessions are told to reconnect (op 7), the process exits 0,
// and the job, resumed on another instance, bans every id exactly once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertStrangers, startTestServer, type TestServer } from "../harness";
import { startServerProcess, type ServerProcess } from "../server-process";
import { RawGatewayClient } from "../api/gateway-client";
import { actionAs } from "./harness";

let server: TestServer;
let actions: typeof import("@/lib/dashboard/actions/bans");
let jobs: typeof import("@/lib/dashboard/jobs/bulk-ban/jobs");
let logs: typeof import("@/lib/server/logger");
let requestIds: typeof import("@/lib/server/request-id");
let fresh: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { enabled: false } });
  actions = await import("@/lib/dashboard/actions/bans");
  jobs = await import("@/lib/dashboard/jobs/bulk-ban/jobs");
  logs = await import("@/lib/server/logger");
  requestIds = await import("@/lib/server/request-id");
  fresh = await insertStrangers(601, Date.UTC(2025, 2, 1), "ops_target");
});
afterAll(() => server?.close());

const guildId = () => server.world.guildId;

describe("a request id", () => {
  it("flows from a server action into the API's log line and the gateway's line for the event it wrote", async () => {
    const lines: Array<Record<string, unknown>> = [];
    const untap = logs.tapLogs((line) => lines.push(line));
    const restoreLevel = logs.setLogLevel("info");
    const target = fresh[600];
    try {
      const ban = actionAs(server, "mod", "user", actions.banUserByIdAction.definition).run;
      // The one-port server runs every page and action request under its id (lib/server/create-server.ts).
      const result = await requestIds.withRequestId("action-7f3a", () =>
        ban({ guildId: guildId(), userId: target, delete_message_seconds: 0, reason: "spam" }),
      );
      expect(result.ok).toBe(true);
      await expect.poll(() => lines.some((line) => line.component === "gateway"), { timeout: 5_000 }).toBe(true);
    } finally {
      untap();
      restoreLevel();
    }
    const ours = lines.filter((line) => line.request_id === "action-7f3a");
    expect(ours).toContainEqual(
      expect.objectContaining({
        component: "api",
        operation: "Create Guild Ban",
        method: "PUT",
        status: 204,
        guild_id: guildId(),
      }),
    );
    expect(ours).toContainEqual(
      expect.objectContaining({ component: "gateway", dispatch: "GUILD_BAN_ADD", guild_id: guildId(), count: 1 }),
    );
    // The action's reads (who the target is) are logged at debug only, under the same id when they are.
    expect(ours.filter((line) => line.component === "api" && line.method === "GET")).toEqual([]);
  });

  it("is answered as x-request-id: the caller's when it is a plain token, a new one otherwise", async () => {
    const route = `/guilds/${guildId()}`;
    const given = await server.api("bot", "GET", route, undefined, { "x-request-id": "proxy-42.a:b" });
    expect(given.headers.get("x-request-id")).toBe("proxy-42.a:b");
    const unsafe = await server.api("bot", "GET", route, undefined, { "x-request-id": "a b\u00e9" });
    expect(unsafe.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    const none = await server.api("bot", "GET", route);
    expect(none.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(none.headers.get("x-request-id")).not.toBe(unsafe.headers.get("x-request-id"));
  });
});

describe("SIGTERM during a bulk-ban job", () => {
  let instance: ServerProcess | null = null;
  afterAll(() => instance?.stop());

  it("answers the chunk in flight, tells gateway sessions to reconnect, exits 0, and loses no id", async () => {
    const database = process.env.DATABASE_URL!.replace(/^file:/, "");
    instance = await startServerProcess(database, { RATE_LIMITS: "off", SHUTDOWN_GRACE_MS: "10000" });
    const leaving = instance;
    // "close", not "exit": by then everything it printed has been read.
    const exited = new Promise<number | null>((resolve) => leaving.child.once("close", (code) => resolve(code)));
    // A bot session on the instance that will stop.
    const gateway = await RawGatewayClient.connect(leaving.url.replace(/^http/, "ws"));
    await gateway.identify(server.botToken, 1 | (1 << 2));

    const targets = fresh.slice(0, 600);
    const preview = await actionAs(server, "mod", "user", actions.previewBulkBanAction.definition).run({
      guildId: guildId(),
      text: targets.join("\n"),
      delete_message_seconds: 0,
      reason: "raid wave",
    });
    if (!preview.ok) throw new Error(preview.error);
    const jobId = preview.data.jobId;
    const start = actionAs(server, "mod", "user", actions.startBulkBanJobAction.definition).run;
    expect((await start({ guildId: guildId(), jobId })).ok).toBe(true);

    // Chunks through the instance that stops: SIGTERM goes out as the second chunk's Bulk Guild Ban is sent.
    let bulkBans = 0;
    let signalledAt = Infinity;
    let secondAnsweredAt = -Infinity;
    const signalling: typeof fetch = (input, init) => {
      const answer = fetch(input, init);
      if (String(input).endsWith("/bulk-ban") && ++bulkBans === 2) {
        setTimeout(() => {
          signalledAt = performance.now();
          leaving.signal("SIGTERM");
        }, 5);
        void answer.then(() => (secondAnsweredAt = performance.now()));
      }
      return answer;
    };
    const remote = { ...server, baseUrl: leaving.url };
    const runChunk = actionAs(remote, "mod", "user", actions.runBulkBanChunkAction.definition, {
      fetch: signalling,
    }).run;
    const chunk = (ids: string[]) => runChunk({ guildId: guildId(), jobId, userIds: ids, reason: "raid wave" });
    const pending = async () =>
      (await jobs.getJob(guildId(), jobId))!.items.filter((i) => i.state === "pending").map((i) => i.userId);

    const first = await chunk((await pending()).slice(0, 200));
    expect(first.ok && first.data.banned).toHaveLength(200);
    const second = await chunk((await pending()).slice(0, 200));
    // In flight when the signal came: answered in full.
    expect(second.ok && second.data.banned).toHaveLength(200);

    expect(await exited).toBe(0);
    expect(leaving.output().slice(-2000), "the instance's last lines").toMatch(/server: shut down/);
    // The signal went out while the second chunk's request was unanswered (the server sees it once that request's
    // transaction, synchronous in SQLite, lets its event loop turn).
    expect(signalledAt).toBeLessThan(secondAnsweredAt);
    const reconnect = gateway.received.find((payload) => payload.op === 7);
    expect(reconnect).toEqual({ op: 7, d: null });
    expect((await gateway.closed).code).toBe(4000);

    // The third chunk finds no server: nothing of it is sent, and the job waits.
    const third = await chunk((await pending()).slice(0, 200));
    expect(third.ok, "a chunk sent to the stopped instance").toBe(false);

    // Resumed on the instance that stays: every id banned once, none failed, none left.
    const resumed = await start({ guildId: guildId(), jobId });
    expect(resumed, `the job resumed: ${JSON.stringify(resumed)}`).toMatchObject({ ok: true });
    const runLocal = actionAs(server, "mod", "user", actions.runBulkBanChunkAction.definition).run;
    for (let left = await pending(); left.length > 0; left = await pending()) {
      const result = await runLocal({ guildId: guildId(), jobId, userIds: left.slice(0, 200), reason: "raid wave" });
      expect(result, "a chunk on the instance that stays").toMatchObject({ ok: true });
    }
    const job = (await jobs.getJob(guildId(), jobId))!;
    expect(job.status).toBe("completed");
    expect(job.counts).toMatchObject({ banned: 600, failed: 0, pending: 0, sending: 0 });
    const bans = await server.api("bot", "GET", `/guilds/${guildId()}/bans?limit=1000`);
    const banned = new Set(((await bans.json()) as Array<{ user: { id: string } }>).map((ban) => ban.user.id));
    expect(targets.filter((id) => !banned.has(id))).toEqual([]);
  });
});

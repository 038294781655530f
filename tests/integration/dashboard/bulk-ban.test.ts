// The bulk-ban job against a real server, through the same action client the app uses (the moderator's own token):
// the preview's verdicts, chunks of at most 200 each one Bulk Guild Ban request and one audit entry, claims that
// refuse to send an id twice, a refused request put back and paused, an unanswered one checked (never resent) on
// resume, and undo giving back exactly what the job banned.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import type { NewAuditEntry } from "@/lib/dashboard/audit/history";
import { snowflakeAt } from "@/lib/discord/snowflake";
import { insertStrangers, startTestServer, type TestServer } from "../harness";
import { actionAs } from "./harness";

let server: TestServer;
// Imported once the harness has pointed DATABASE_URL at this file's database: the job store's Prisma client binds to it.
let actions: typeof import("@/lib/dashboard/actions/bans");
let jobs: typeof import("@/lib/dashboard/jobs/bulk-ban/jobs");
let prisma: typeof import("@/lib/dashboard/db").prisma;
let fresh: string[] = [];

beforeAll(async () => {
  // Hundreds of bans and prunes on purpose, in the strictest buckets: see TestServerOptions.rateLimits.
  server = await startTestServer({ rateLimits: { enabled: false } });
  actions = await import("@/lib/dashboard/actions/bans");
  jobs = await import("@/lib/dashboard/jobs/bulk-ban/jobs");
  ({ prisma } = await import("@/lib/dashboard/db"));
  fresh = await insertStrangers(322, Date.UTC(2025, 0, 1), "bulk_target");
});
afterAll(() => server?.close());

const audit: NewAuditEntry[] = [];

const asMod = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  definition: GuildActionDefinition<S, R>,
  fetchImpl?: typeof fetch,
  mode: "user" | "bot" = "user",
) => actionAs(server, "mod", mode, definition, { fetch: fetchImpl, audit }).run;

const guildId = () => server.world.guildId;
const banStatus = async (userId: string) =>
  (await server.api("bot", "GET", `/guilds/${guildId()}/bans/${userId}`)).status;
async function seededBans(): Promise<string[]> {
  const response = await server.api("bot", "GET", `/guilds/${guildId()}/bans?limit=1000`);
  return ((await response.json()) as Array<{ user: { id: string } }>).map((b) => b.user.id);
}

async function preview(text: string, reason = "raid wave") {
  const result = await asMod(actions.previewBulkBanAction.definition)({
    guildId: guildId(),
    text,
    delete_message_seconds: 0,
    reason,
  });
  if (!result.ok) throw new Error(result.error);
  return (await jobs.getJob(guildId(), result.data.jobId))!;
}

const start = (jobId: string, fetchImpl?: typeof fetch) =>
  asMod(actions.startBulkBanJobAction.definition, fetchImpl)({ guildId: guildId(), jobId });
const runChunk = (jobId: string, userIds: string[], fetchImpl?: typeof fetch) =>
  asMod(
    actions.runBulkBanChunkAction.definition,
    fetchImpl,
  )({ guildId: guildId(), jobId, userIds, reason: "raid wave" });
const pendingIds = async (jobId: string) =>
  (await jobs.getJob(guildId(), jobId))!.items.filter((i) => i.state === "pending").map((i) => i.userId);

describe("preview", () => {
  it("dedupes, lists non-ids, and skips the owner, the moderator, members above them and the already banned", async () => {
    const { users } = server.world;
    const banned = (await seededBans())[0];
    const unknown = String(snowflakeAt(Date.UTC(2025, 5, 1)) + 7n);
    const text = [
      users.owner,
      users.admin,
      users.mod,
      banned,
      fresh[0],
      fresh[1],
      fresh[0],
      "not-an-id",
      unknown,
      "12x",
    ].join(", ");
    const job = await preview(text);
    const state = (id: string) => job.items.find((i) => i.userId === id);
    expect(job.status).toBe("ready");
    expect(job.invalid).toEqual(["not-an-id", "12x"]);
    expect(job.counts).toMatchObject({ total: 7, skipped: 4, pending: 3 });
    expect(state(users.owner)).toMatchObject({ state: "skipped", detail: "server owner" });
    expect(state(users.admin)).toMatchObject({
      state: "skipped",
      detail: "member's highest role is above or equal to yours",
    });
    expect(state(users.mod)).toMatchObject({ state: "skipped", detail: "that's you" });
    expect(state(banned)).toMatchObject({ state: "skipped", detail: "already banned" });
    expect(state(fresh[0])).toMatchObject({ state: "pending" });
    expect(state(unknown)).toMatchObject({ state: "pending" });
    expect(audit.at(-1)).toMatchObject({
      action: "Prepare bulk ban",
      status: "success",
      request: { ids: 7, invalid: 2, duplicates: 1 },
    });
    // Nothing is banned by a preview.
    expect(await banStatus(fresh[0])).toBe(404);
    await asMod(actions.cancelBulkBanJobAction.definition)({ guildId: guildId(), jobId: job.id });
  });
});

describe("a job of 301 ids", () => {
  let jobId: string;
  let bansBefore: string[];
  const unknown = String(snowflakeAt(Date.UTC(2025, 6, 1)) + 3n);
  const targets = () => fresh.slice(0, 300);

  it("runs in chunks of at most 200, one Bulk Guild Ban and one audit entry each, with every id's result", async () => {
    bansBefore = await seededBans();
    const job = await preview([...targets(), unknown].join("\n"));
    jobId = job.id;
    expect(job.counts.pending).toBe(301);

    // A chunk before the job is started is refused, and nothing is sent.
    const early = await runChunk(jobId, targets().slice(0, 2));
    expect(early).toMatchObject({ ok: false, status: 409 });
    expect(await banStatus(targets()[0])).toBe(404);

    expect((await start(jobId)).ok).toBe(true);
    // More than 200 ids in one call never reaches the API.
    expect(await runChunk(jobId, (await pendingIds(jobId)).slice(0, 201))).toMatchObject({ ok: false, status: 400 });

    const before = audit.length;
    const first = await runChunk(jobId, (await pendingIds(jobId)).slice(0, 200));
    expect(first.ok).toBe(true);
    // The same ids again (a second tab): refused before any request.
    const again = await runChunk(jobId, (first.ok ? first.data.banned : []).slice(0, 5));
    expect(again).toMatchObject({ ok: false, status: 409 });

    const rest = await pendingIds(jobId);
    expect(rest).toHaveLength(101);
    const second = await runChunk(jobId, rest);
    expect(second.ok && second.data.status).toBe("completed");

    const chunkEntries = audit.slice(before).filter((e) => e.action === "Bulk Guild Ban");
    expect(chunkEntries.map((e) => e.status)).toEqual(["success", "error", "success"]);
    expect((chunkEntries[0].request as { user_ids: string[] }).user_ids).toHaveLength(200);
    expect((chunkEntries[2].request as { user_ids: string[] }).user_ids).toHaveLength(101);

    const done = (await jobs.getJob(guildId(), jobId))!;
    expect(done.status).toBe("completed");
    expect(done.counts).toMatchObject({ banned: 300, failed: 1, pending: 0, sending: 0 });
    expect(done.items.find((i) => i.userId === unknown)).toMatchObject({
      state: "failed",
      detail: "refused by the API: unknown user",
    });
    for (const id of [targets()[0], targets()[199], targets()[299]]) expect(await banStatus(id)).toBe(200);
  });

  it("undo gives back exactly the ids the job banned", async () => {
    const seeded = bansBefore;
    expect((await asMod(actions.beginUndoBulkBanAction.definition)({ guildId: guildId(), jobId })).ok).toBe(true);
    const undo = asMod(actions.undoBulkBanChunkAction.definition);
    // Only ids this job banned: a seeded ban is not this job's to give back.
    expect(await undo({ guildId: guildId(), jobId, userIds: [seeded[0]], reason: "undo" })).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(await undo({ guildId: guildId(), jobId, userIds: targets().slice(0, 51), reason: "undo" })).toMatchObject({
      ok: false,
      status: 400,
    });

    let job = (await jobs.getJob(guildId(), jobId))!;
    let calls = 0;
    for (;;) {
      const next = job.items
        .filter((i) => i.state === "banned")
        .slice(0, 50)
        .map((i) => i.userId);
      if (next.length === 0) break;
      const result = await undo({ guildId: guildId(), jobId, userIds: next, reason: "undo" });
      expect(result.ok).toBe(true);
      calls++;
      job = (await jobs.getJob(guildId(), jobId))!;
    }
    expect(calls).toBe(6);
    expect(job.status).toBe("undone");
    expect(job.counts).toMatchObject({ unbanned: 300, banned: 0, failed: 1 });
    for (const id of [targets()[0], targets()[150], targets()[299]]) expect(await banStatus(id)).toBe(404);
    expect((await seededBans()).sort()).toEqual([...seeded].sort());
  });
});

describe("failures are never resent on their own, but a short 429 is waited out", () => {
  const rateLimited = (retryAfter: number) =>
    new Response(JSON.stringify({ message: "You are being rate limited.", retry_after: retryAfter, global: false }), {
      status: 429,
      headers: { "content-type": "application/json" },
    });

  it("a short 429 is sat out: the chunk is sent again after the wait (a 429 was never applied) and bans", async () => {
    const ids = fresh.slice(320, 322);
    const job = await preview(ids.join(" "));
    expect((await start(job.id)).ok).toBe(true);
    let posts = 0;
    const limitedOnce: typeof fetch = async (input, init) => {
      if (init?.method === "POST" && posts++ === 0) return rateLimited(0.05);
      return fetch(input, init);
    };
    const result = await runChunk(job.id, ids, limitedOnce);
    expect(result.ok).toBe(true);
    expect(posts).toBe(2);
    for (const id of ids) expect(await banStatus(id)).toBe(200);
  });

  it("a chunk limited for longer than the client waits is put back and the job paused, after exactly one request", async () => {
    const ids = fresh.slice(300, 305);
    const job = await preview(ids.join(" "));
    expect((await start(job.id)).ok).toBe(true);
    let posts = 0;
    const limited: typeof fetch = async (input, init) => {
      if (init?.method === "POST") {
        posts++;
        return rateLimited(60);
      }
      return fetch(input, init);
    };
    const result = await runChunk(job.id, ids, limited);
    expect(result).toMatchObject({ ok: false, status: 429 });
    expect(posts).toBe(1);
    const after = (await jobs.getJob(guildId(), job.id))!;
    expect(after.status).toBe("paused");
    expect(after.counts.pending).toBe(5);
    expect(await banStatus(ids[0])).toBe(404);
    await asMod(actions.cancelBulkBanJobAction.definition)({ guildId: guildId(), jobId: job.id });
  });

  it("an unanswered chunk stays 'sending'; resume checks each id with the API instead of resending", async () => {
    const ids = fresh.slice(305, 310);
    const job = await preview(ids.join(" "));
    expect((await start(job.id)).ok).toBe(true);
    // The request reaches the API and bans, but the answer is lost on the way back.
    let posts = 0;
    const lost: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === "POST") {
        posts++;
        throw new TypeError("socket hang up");
      }
      return response;
    };
    const result = await runChunk(job.id, ids, lost);
    expect(result.ok).toBe(false);
    expect(posts).toBe(1);
    let stored = (await jobs.getJob(guildId(), job.id))!;
    expect(stored.status).toBe("paused");
    expect(stored.counts.sending).toBe(5);

    // Too soon: the request might still be on its way.
    expect(await start(job.id)).toMatchObject({ ok: false, status: 409 });

    await prisma.bulkBanItem.updateMany({
      where: { jobId: job.id, state: "sending" },
      data: { detail: `sent at ${new Date(Date.now() - jobs.SENDING_STALE_MS - 1000).toISOString()}` },
    });
    let resumedPosts = 0;
    const counting: typeof fetch = async (input, init) => {
      if (init?.method === "POST") resumedPosts++;
      return fetch(input, init);
    };
    const resumed = await start(job.id, counting);
    expect(resumed.ok && resumed.data.reconciled).toBe(5);
    expect(resumedPosts).toBe(0);
    stored = (await jobs.getJob(guildId(), job.id))!;
    // Nothing left to send: resuming finished the job.
    expect(stored.status).toBe("completed");
    expect(stored.counts).toMatchObject({ banned: 5, sending: 0, pending: 0 });
    expect(stored.items[0].detail).toBe("confirmed after an interrupted request");
  });

  it("pause stops the next chunk; a cancelled job sends nothing more", async () => {
    const ids = fresh.slice(310, 320);
    const job = await preview(ids.join(" "));
    expect((await start(job.id)).ok).toBe(true);
    expect((await asMod(actions.pauseBulkBanJobAction.definition)({ guildId: guildId(), jobId: job.id })).ok).toBe(
      true,
    );
    expect(await runChunk(job.id, ids.slice(0, 5))).toMatchObject({
      ok: false,
      status: 409,
      error: expect.stringContaining("paused"),
    });
    expect((await start(job.id)).ok).toBe(true);
    expect((await runChunk(job.id, ids.slice(0, 5))).ok).toBe(true);
    expect((await asMod(actions.cancelBulkBanJobAction.definition)({ guildId: guildId(), jobId: job.id })).ok).toBe(
      true,
    );
    expect(await runChunk(job.id, ids.slice(5))).toMatchObject({ ok: false, status: 409 });
    expect(await banStatus(ids[0])).toBe(200);
    expect(await banStatus(ids[9])).toBe(404);
    const stored = (await jobs.getJob(guildId(), job.id))!;
    expect(stored).toMatchObject({ status: "cancelled", counts: { banned: 5, pending: 5 } });
  });
});

describe("bot mode", () => {
  it("holds every id of a chunk against the moderator's own place in the hierarchy before the bot bans", async () => {
    const { users } = server.world;
    const job = await preview(fresh.slice(0, 2).join(" "));
    const run = asMod(actions.runBulkBanChunkAction.definition, undefined, "bot");
    const result = await run({
      guildId: guildId(),
      jobId: job.id,
      userIds: [fresh[0], users.admin],
      reason: "raid wave",
    });
    expect(result).toMatchObject({
      ok: false,
      status: 403,
      error: `You can't do this: ${users.admin}: member's highest role is above or equal to yours.`,
    });
    expect(await run({ guildId: guildId(), jobId: job.id, userIds: [users.mod], reason: "raid wave" })).toMatchObject({
      ok: false,
      status: 403,
      error: "You can't do this: you can't ban yourself.",
    });
    // The bot could have: the dashboard stopped it.
    expect((await server.api("bot", "GET", `/guilds/${guildId()}/members/${users.admin}`)).status).toBe(200);
    expect(await banStatus(fresh[0])).toBe(404);
  });
});

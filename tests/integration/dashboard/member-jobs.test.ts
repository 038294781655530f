// Bulk member actions from the members page, against a real server through the action client the app uses (the
// moderator's own token, and bot mode): the preview's verdicts (owner, hierarchy, nothing to do), chunks the server
// picks, each member's result, a long rate limit handing members back for later, one audit entry per job, and bans
// going to a bulk-ban job.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import type { NewAuditEntry } from "@/lib/dashboard/audit/history";
import type { MemberListFilters } from "@/lib/dashboard/data/member-filters";
import { startTestServer, type TestServer } from "../harness";
import { actionAs, apiClientAs } from "./harness";

let server: TestServer;
let actions: typeof import("@/lib/dashboard/actions/member-jobs");
let jobs: typeof import("@/lib/dashboard/jobs/member-actions/jobs");
let banJobs: typeof import("@/lib/dashboard/jobs/bulk-ban/jobs");
let resultPages: typeof import("@/lib/dashboard/jobs/result-pages");
/** Every member of a job with its result, as the job page's results list reads them (one page holding them all). */
const itemsOf = async (jobId: string) =>
  (await resultPages.getJobResultsPage(guildId(), jobId, "all", 1, 100_000)).rows;
/** Plain members (no roles, not the owner), oldest account first: each test takes its own slice. */
let pool: string[] = [];

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { enabled: false } });
  actions = await import("@/lib/dashboard/actions/member-jobs");
  jobs = await import("@/lib/dashboard/jobs/member-actions/jobs");
  banJobs = await import("@/lib/dashboard/jobs/bulk-ban/jobs");
  resultPages = await import("@/lib/dashboard/jobs/result-pages");
  const answer = await (
    await apiClientAs(server, "owner")
  ).members.searchV2(server.world.guildId, {
    and_query: { has_no_roles: true, is_bot: false },
    sort: 4,
    limit: 1000,
  });
  pool = answer.members.map((m) => m.member.user.id).filter((id) => id !== server.world.users.owner);
});
afterAll(() => server?.close());

const guildId = () => server.world.guildId;
const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  definition: GuildActionDefinition<S, R>,
  audit: NewAuditEntry[],
  options: { mode?: "user" | "bot"; fetch?: typeof fetch } = {},
) => actionAs(server, "mod", options.mode ?? "user", definition, { audit, fetch: options.fetch }).run;

const plainMembers = (count: number, skip: number) => pool.slice(skip, skip + count);

async function drive(
  kind: "add_role" | "remove_role" | "timeout" | "remove_timeout" | "kick",
  jobId: string,
  audit: NewAuditEntry[],
  options: { mode?: "user" | "bot"; fetch?: typeof fetch } = {},
) {
  const chunkDefinitions = {
    add_role: actions.runBulkAddRoleChunkAction,
    remove_role: actions.runBulkRemoveRoleChunkAction,
    timeout: actions.runBulkTimeoutChunkAction,
    remove_timeout: actions.runBulkRemoveTimeoutChunkAction,
    kick: actions.runBulkKickChunkAction,
  };
  const started = await as(actions.startMemberJobAction.definition, audit, options)({ guildId: guildId(), jobId });
  if (!started.ok) throw new Error(started.error);
  // The runner sends the job's own reason with every chunk.
  const reason = (await jobs.getMemberJob(guildId(), jobId))!.reason ?? undefined;
  const results = [];
  for (let i = 0; i < 50; i++) {
    const result = await as(chunkDefinitions[kind].definition, audit, options)({ guildId: guildId(), jobId, reason });
    results.push(result);
    if (!result.ok || result.data.status !== "running" || result.data.retryAfter) break;
  }
  return results;
}

const member = async (userId: string) => (await apiClientAs(server, "owner")).members.get(guildId(), userId);

describe("bulk timeout", () => {
  it("previews (owner and members above the moderator skipped), times out the rest, explains each, one audit entry", async () => {
    const audit: NewAuditEntry[] = [];
    const targets = plainMembers(3, 0);
    const { owner, admin } = server.world.users;
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const prepared = await as(
      actions.prepareMemberJobAction.definition,
      audit,
    )({
      guildId: guildId(),
      action: "timeout",
      until,
      reason: "cleanup",
      userIds: [...targets, owner, admin],
    });
    if (!prepared.ok) throw new Error(prepared.error);
    expect(prepared.data).toMatchObject({
      toDo: 3,
      skipped: 2,
      href: `/guilds/${guildId()}/members/jobs/${prepared.data.jobId}`,
    });
    const job = (await jobs.getMemberJob(guildId(), prepared.data.jobId))!;
    expect(job.kind).toBe("timeout");
    const items = await itemsOf(job.id);
    expect(items.find((i) => i.userId === owner)).toMatchObject({
      state: "skipped",
      detail: expect.stringContaining("owner"),
    });
    expect(items.find((i) => i.userId === admin)).toMatchObject({
      state: "skipped",
      detail: "member's highest role is above or equal to yours",
    });
    // Preparing changes nothing in the guild and writes no history.
    expect((await member(targets[0])).communication_disabled_until ?? null).toBeNull();
    expect(audit).toEqual([]);

    const results = await drive("timeout", prepared.data.jobId, audit);
    expect(results.at(-1)).toMatchObject({
      ok: true,
      data: { status: "completed", counts: { done: 3, skipped: 2, failed: 0 } },
    });
    for (const id of targets)
      expect(Date.parse((await member(id)).communication_disabled_until!)).toBe(Date.parse(until));
    const after = await itemsOf(prepared.data.jobId);
    expect(
      after
        .filter((i) => i.state === "done")
        .map((i) => i.userId)
        .sort(),
    ).toEqual([...targets].sort());
    expect(after.every((i) => i.name)).toBe(true);
    // One entry for the whole job, with its reason and what it did.
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "Bulk timeout",
      reason: "cleanup",
      status: "success",
      target: { type: "member-job", id: prepared.data.jobId },
      after: { status: "completed", done: 3, failed: 0, skipped: 2, not_sent: 0 },
    });

    // Removing the timeout: those not timed out are skipped ("nothing to do").
    const removal = await as(
      actions.prepareMemberJobAction.definition,
      audit,
    )({
      guildId: guildId(),
      action: "remove_timeout",
      userIds: [...targets, plainMembers(1, 3)[0]],
    });
    if (!removal.ok) throw new Error(removal.error);
    expect(removal.data).toMatchObject({ toDo: 3, skipped: 1 });
    await drive("remove_timeout", removal.data.jobId, audit);
    for (const id of targets) expect((await member(id)).communication_disabled_until ?? null).toBeNull();
  });
});

describe("rate limits", () => {
  it("a 429 longer than the client waits hands the member back and says how long to wait; the next chunk finishes", async () => {
    const audit: NewAuditEntry[] = [];
    const targets = plainMembers(2, 10);
    const prepared = await as(
      actions.prepareMemberJobAction.definition,
      audit,
    )({
      guildId: guildId(),
      action: "add_role",
      roleId: server.world.roles.regular,
      userIds: targets,
    });
    if (!prepared.ok) throw new Error(prepared.error);
    let limited = 0;
    const limitedFetch: typeof fetch = async (input, init) => {
      if (init?.method === "PUT" && String(input).includes(`/members/${targets[0]}/roles/`) && limited++ === 0)
        return new Response(
          JSON.stringify({ message: "You are being rate limited.", retry_after: 30, global: false, code: 0 }),
          {
            status: 429,
            headers: { "content-type": "application/json", "retry-after": "30", "x-ratelimit-scope": "user" },
          },
        );
      return fetch(input, init);
    };
    const first = await drive("add_role", prepared.data.jobId, audit, { fetch: limitedFetch });
    expect(first.at(-1)).toMatchObject({ ok: true, data: { status: "running", retryAfter: 30 } });
    expect((await itemsOf(prepared.data.jobId)).find((i) => i.userId === targets[0])).toMatchObject({
      state: "pending",
    });
    expect(audit).toEqual([]);
    const second = await drive("add_role", prepared.data.jobId, audit);
    expect(second.at(-1)).toMatchObject({ ok: true, data: { status: "completed", counts: { done: 2 } } });
    for (const id of targets) expect((await member(id)).roles).toContain(server.world.roles.regular);
  });
});

describe("bot mode and bans", () => {
  it("in bot mode the moderator's own standing is judged (Discord judges only the bot)", async () => {
    const audit: NewAuditEntry[] = [];
    const target = plainMembers(1, 12)[0];
    const prepared = await as(actions.prepareMemberJobAction.definition, audit, { mode: "bot" })({
      guildId: guildId(),
      action: "kick",
      userIds: [target, server.world.users.admin],
      reason: "bot mode",
    });
    if (!prepared.ok) throw new Error(prepared.error);
    expect(prepared.data).toMatchObject({ toDo: 1, skipped: 1 });
    const results = await drive("kick", prepared.data.jobId, audit, { mode: "bot" });
    expect(results.at(-1)).toMatchObject({ ok: true, data: { status: "completed", counts: { done: 1, skipped: 1 } } });
    const kicked = await (
      await apiClientAs(server, "owner")
    ).members
      .get(guildId(), target)
      .catch((e: { status: number }) => e.status);
    expect(kicked).toBe(404);
    expect(audit).toEqual([expect.objectContaining({ action: "Bulk kick", reason: "bot mode" })]);
  });

  it("ban from the members page prepares a bulk-ban job with the same verdicts", async () => {
    const target = plainMembers(1, 14)[0];
    const prepared = await as(
      actions.prepareMemberJobAction.definition,
      [],
    )({
      guildId: guildId(),
      action: "ban",
      userIds: [target, server.world.users.owner],
      reason: "raid",
    });
    if (!prepared.ok) throw new Error(prepared.error);
    expect(prepared.data.href).toBe(`/guilds/${guildId()}/bans/bulk/${prepared.data.jobId}`);
    const job = (await banJobs.getJob(guildId(), prepared.data.jobId))!;
    expect(job.items.map((i) => [i.userId, i.state])).toEqual(
      expect.arrayContaining([
        [target, "pending"],
        [server.world.users.owner, "skipped"],
      ]),
    );
    // A member job's page does not open a ban job, nor the reverse.
    expect(await jobs.getMemberJob(guildId(), prepared.data.jobId)).toBeNull();
  });

  it("bad input: no members, no role, a past time", async () => {
    const run = as(actions.prepareMemberJobAction.definition, []);
    expect(await run({ guildId: guildId(), action: "kick", userIds: [] })).toMatchObject({
      ok: false,
      fieldErrors: { userIds: expect.anything() },
    });
    expect(await run({ guildId: guildId(), action: "add_role", userIds: ["1"] })).toMatchObject({
      ok: false,
      fieldErrors: { roleId: expect.anything() },
    });
    expect(
      await run({
        guildId: guildId(),
        action: "timeout",
        until: new Date(Date.now() - 1000).toISOString(),
        userIds: ["1"],
      }),
    ).toMatchObject({ ok: false, fieldErrors: { until: ["Pick a time in the future."] } });
  });
});

describe("bulk role add to every member matching a filter", () => {
  const noRoles: MemberListFilters = { sort: "joined-desc", roles: [], roleMode: "any", flags: ["noroles"] };

  it("adds the role to each member the filter matches, in chunks the server picks", async () => {
    const audit: NewAuditEntry[] = [];
    const api = await apiClientAs(server, "owner");
    const before = await api.members.searchV2(guildId(), { and_query: { has_no_roles: true }, limit: 1 });
    const prepared = await as(
      actions.prepareMemberJobAction.definition,
      audit,
    )({
      guildId: guildId(),
      action: "add_role",
      roleId: server.world.roles.member,
      filters: noRoles,
      reason: "everyone gets Member",
    });
    if (!prepared.ok) throw new Error(prepared.error);
    // The owner has no roles but is out of reach: skipped.
    expect(prepared.data.toDo + prepared.data.skipped).toBe(before.total_result_count);
    expect(prepared.data.skipped).toBeGreaterThanOrEqual(1);
    const results = await drive("add_role", prepared.data.jobId, audit);
    expect(results.at(-1)).toMatchObject({ ok: true, data: { status: "completed" } });
    expect(results.length).toBeGreaterThan(0);
    const left = await api.members.searchV2(guildId(), { and_query: { has_no_roles: true }, limit: 10 });
    expect(left.members.map((m) => m.member.user.id)).toEqual(
      (await itemsOf(prepared.data.jobId)).filter((i) => i.state === "skipped").map((i) => i.userId),
    );
    expect(audit.map((e) => e.action)).toEqual(["Bulk add role"]);
  });

  it("refuses a role at or above the moderator's highest role before anything is stored", async () => {
    const result = await as(
      actions.prepareMemberJobAction.definition,
      [],
    )({
      guildId: guildId(),
      action: "add_role",
      roleId: server.world.roles.admin,
      userIds: plainMembers(1, 0),
    });
    expect(result).toMatchObject({ ok: false, error: expect.stringContaining("Admin") });
  });

  it("skips members who already have the role, and explains it", async () => {
    const target = plainMembers(1, 5)[0] ?? server.world.users.member;
    const prepared = await as(
      actions.prepareMemberJobAction.definition,
      [],
    )({
      guildId: guildId(),
      action: "add_role",
      roleId: server.world.roles.member,
      userIds: [server.world.users.member, target],
    });
    if (!prepared.ok) throw new Error(prepared.error);
    expect((await itemsOf(prepared.data.jobId)).find((i) => i.userId === server.world.users.member)).toMatchObject({
      state: "skipped",
      detail: "already has the role",
    });
  });
});

describe("the job page's results", () => {
  it("reach every member of a 10,000-member job, a page of 100 at a time, filtered by outcome", async () => {
    const stateOf = (i: number) => (i % 7 === 0 ? "failed" : i % 11 === 0 ? "skipped" : i < 9_000 ? "done" : "pending");
    const items = Array.from({ length: 10_000 }, (_, i) => ({
      userId: String(2_000_000_000_000_000_000n + BigInt(i)),
      name: `member ${i}`,
      state: stateOf(i) as "failed" | "skipped" | "done" | "pending",
      detail: stateOf(i) === "failed" ? "not a member any more" : null,
    }));
    const jobId = await jobs.createMemberJob({
      guildId: guildId(),
      kind: "add_role",
      params: { roleId: "1", roleName: "Synthetic" },
      actor: { id: server.world.users.mod, name: "mod" },
      reason: null,
      items,
    });
    const expected = (state: string | null) => items.filter((i) => state === null || i.state === state);
    const first = await resultPages.getJobResultsPage(guildId(), jobId, "all", 1);
    expect(first.counts).toEqual({
      all: 10_000,
      done: expected("done").length,
      failed: expected("failed").length,
      skipped: expected("skipped").length,
      unsent: expected("pending").length,
      unbanned: 0,
    });
    expect(first.pageCount).toBe(100);
    expect(first.rows).toHaveLength(100);
    // The last page holds the last members; a page past the end shows the last page.
    const last = await resultPages.getJobResultsPage(guildId(), jobId, "all", 100);
    expect(last.rows.at(-1)).toMatchObject({ userId: items.at(-1)!.userId, name: "member 9999", state: "skipped" });
    expect((await resultPages.getJobResultsPage(guildId(), jobId, "all", 500)).page).toBe(100);
    // Walking the failed ones page by page reaches each exactly once, with its reason.
    const failed = await resultPages.getJobResultsPage(guildId(), jobId, "failed", 1);
    const walked = [...failed.rows];
    for (let page = 2; page <= failed.pageCount; page++)
      walked.push(...(await resultPages.getJobResultsPage(guildId(), jobId, "failed", page)).rows);
    expect(walked.map((r) => r.userId)).toEqual(expected("failed").map((i) => i.userId));
    expect(walked.every((r) => r.state === "failed" && r.detail === "not a member any more")).toBe(true);
    const unsent = await resultPages.getJobResultsPage(guildId(), jobId, "unsent", 2);
    expect(unsent.rows.every((r) => r.state === "pending")).toBe(true);
  });
});

// The dashboard's own tables on PostgreSQL: with a postgres:// DATABASE_URL, lib/dashboard/db.ts gives the dashboard
// the PostgreSQL client over the pg driver adapter, and the dashboard's code behaves as on SQLite: next-auth's users,
// accounts and sessions (cascading deletes), the audit history's filters and paging, bulk-ban jobs with their items.
import pg from "pg";
import { beforeAll, expect, test } from "vitest";
import { newPostgresDatabase } from "./databases";

let url: string;
let dashboard: {
  db: typeof import("@/lib/dashboard/db");
  history: typeof import("@/lib/dashboard/audit/history");
  jobs: typeof import("@/lib/dashboard/jobs/bulk-ban/jobs");
  adapter: typeof import("@/lib/dashboard/auth/adapter");
};

beforeAll(async () => {
  url = await newPostgresDatabase();
  process.env.DATABASE_URL = url;
  // Tokens are encrypted with this secret; without it the dashboard keeps one beside a SQLite file.
  process.env.NEXTAUTH_SECRET = "test-secret-for-the-postgresql-dashboard-tables";
  dashboard = {
    db: await import("@/lib/dashboard/db"),
    history: await import("@/lib/dashboard/audit/history"),
    jobs: await import("@/lib/dashboard/jobs/bulk-ban/jobs"),
    adapter: await import("@/lib/dashboard/auth/adapter"),
  };
});

async function rowsIn(table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n);
  } finally {
    await client.end();
  }
}

test("the dashboard's client is PostgreSQL's, writing to the database DATABASE_URL names", async () => {
  const { prisma } = dashboard.db;
  await prisma.guildAuditLogSync.create({ data: { guildId: "1", newestId: "5" } });
  expect(await rowsIn("guild_audit_log_syncs")).toBe(1);
  const [{ version }] = await prisma.$queryRawUnsafe<Array<{ version: string }>>("SELECT version()");
  expect(version).toMatch(/^PostgreSQL/);
});

test("next-auth's users, accounts and sessions, and their cascading delete", async () => {
  const adapter = dashboard.adapter.dashboardAdapter(dashboard.db.prisma);
  const user = await adapter.createUser!({ name: "Mod", email: "mod@example.test", emailVerified: null, image: null });
  await adapter.linkAccount!({
    userId: user.id,
    type: "oauth",
    provider: "guildhall",
    providerAccountId: "42",
    access_token: "secret-access-token",
    expires_at: 1_900_000_000,
    token_type: "Bearer",
  });
  const expires = new Date(Date.now() + 86_400_000);
  await adapter.createSession!({ sessionToken: "session-1", userId: user.id, expires });
  const found = await adapter.getSessionAndUser!("session-1");
  expect(found?.user).toMatchObject({ id: user.id, name: "Mod", email: "mod@example.test" });
  expect(found?.session.expires.toISOString()).toBe(expires.toISOString());
  expect(await adapter.getUserByAccount!({ provider: "guildhall", providerAccountId: "42" })).toMatchObject({
    id: user.id,
  });
  // Stored encrypted, never as sent.
  const account = await dashboard.db.prisma.dashboardAccount.findFirstOrThrow({ where: { userId: user.id } });
  expect(account.access_token).not.toContain("secret-access-token");

  await adapter.deleteUser!(user.id);
  expect(await rowsIn("dashboard_accounts")).toBe(0);
  expect(await rowsIn("dashboard_sessions")).toBe(0);
});

test("the audit history's filters and paging", async () => {
  const { recordAuditEntry, listAuditEntries } = dashboard.history;
  for (const [i, actor] of ["Mod", "Admin", "Moderator Jo"].entries())
    await recordAuditEntry({
      guildId: "7",
      actor: { id: String(100 + i), name: actor },
      action: "Create Guild Ban",
      target: { type: "user", id: String(200 + i), name: `Target ${i}` },
      reason: i === 2 ? "Spam LINKS everywhere" : null,
      request: { delete_message_seconds: 0, id: 2n ** 60n },
      status: "success",
      httpStatus: 204,
    });
  const all = await listAuditEntries("7", {}, { limit: 10 });
  expect(all.entries.map((e) => e.actorName)).toEqual(["Moderator Jo", "Admin", "Mod"]);
  expect(all.entries[0].request).toEqual({ delete_message_seconds: 0, id: "1152921504606846976" });

  // "Part of their name", as on SQLite, whose LIKE ignores the case of ASCII letters.
  const byActor = await listAuditEntries("7", { actor: "MOD" }, { limit: 10 });
  expect(byActor.entries.map((e) => e.actorName)).toEqual(["Moderator Jo", "Mod"]);
  const byReason = await listAuditEntries("7", { q: "links" }, { limit: 10 });
  expect(byReason.entries.map((e) => e.actorName)).toEqual(["Moderator Jo"]);
  const byTarget = await listAuditEntries("7", { target: "target 1" }, { limit: 10 });
  expect(byTarget.entries.map((e) => e.targetId)).toEqual(["201"]);

  const first = await listAuditEntries("7", {}, { limit: 2 });
  const second = await listAuditEntries("7", {}, { limit: 2, cursor: first.nextCursor! });
  expect([...first.entries, ...second.entries].map((e) => e.actorName)).toEqual(["Moderator Jo", "Admin", "Mod"]);
  expect(second.nextCursor).toBeNull();
  const today = new Date().toISOString().slice(0, 10);
  expect((await listAuditEntries("7", { from: today, to: today }, { limit: 10 })).entries).toHaveLength(3);
  expect((await listAuditEntries("7", { to: "2000-01-01" }, { limit: 10 })).entries).toHaveLength(0);
});

test("a bulk-ban job with its items: created, counted, moved on, deleted with its items", async () => {
  const { createJob, getJob, listJobs, transition } = dashboard.jobs;
  const id = await createJob({
    guildId: "9",
    actor: { id: "1", name: "Mod" },
    reason: "raid",
    deleteMessageSeconds: 3600,
    invalid: ["nope"],
    items: [
      { userId: "30", state: "pending", detail: null },
      { userId: "4", state: "skipped", detail: "owner" },
      { userId: "200", state: "pending", detail: null },
    ],
  });
  const job = await getJob("9", id);
  expect(job?.items.map((i) => i.userId)).toEqual(["4", "30", "200"]);
  expect(job?.invalid).toEqual(["nope"]);
  expect((await listJobs("9"))[0].counts).toMatchObject({ total: 3, pending: 2, skipped: 1 });
  await transition("9", id, ["ready"], "running");
  expect((await getJob("9", id))?.status).toBe("running");
  await dashboard.db.prisma.bulkBanJob.delete({ where: { id } });
  expect(await rowsIn("bulk_ban_items")).toBe(0);
});

test("the audit history's guild-log turns hold across instances: a turn waits while another server holds the guild's", async () => {
  const { withGuildLogLock } = await import("@/lib/dashboard/audit/guild-log/lock");
  // Another instance, in its turn for guild 42: it holds the guild's advisory lock in an open transaction.
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    await other.query("BEGIN");
    await other.query("SELECT pg_advisory_xact_lock(hashtext($1))", ["guildhall.guild-log:42"]);
    const order: string[] = [];
    const mine = withGuildLogLock("42", async () => void order.push("this instance's turn"));
    // Another guild's turn is not held up.
    await withGuildLogLock("43", async () => void order.push("guild 43"));
    await new Promise((resolve) => setTimeout(resolve, 300));
    order.push("the other instance commits");
    await other.query("COMMIT");
    await mine;
    expect(order).toEqual(["guild 43", "the other instance commits", "this instance's turn"]);
  } finally {
    await other.end();
  }
});

test("two instances claiming a member job's next chunk at once take different members (FOR UPDATE SKIP LOCKED)", async () => {
  const { createMemberJob, claimNextChunk } = await import("@/lib/dashboard/jobs/member-actions/jobs");
  const userIds = Array.from({ length: 8 }, (_, i) => String(1_000 + i));
  const jobId = await createMemberJob({
    guildId: "77",
    kind: "add_role",
    params: { roleId: "5", roleName: "Regular" },
    actor: { id: "1", name: "Mod" },
    reason: null,
    items: userIds.map((userId) => ({ userId, name: null, state: "pending", detail: null })),
  });
  await dashboard.jobs.transition("77", jobId, ["ready"], "running", "member");

  // The other instance, mid-claim: it has taken the first four pending members and not committed yet.
  const other = new pg.Client({ connectionString: url });
  await other.connect();
  try {
    await other.query("BEGIN");
    const { rows } = await other.query<{ userId: string }>(
      `SELECT "userId" FROM bulk_ban_items WHERE "jobId" = $1 AND state = 'pending' ORDER BY "userId" LIMIT 4 FOR UPDATE SKIP LOCKED`,
      [jobId],
    );
    expect(rows.map((row) => row.userId)).toEqual(userIds.slice(0, 4));
    // This instance's claim neither waits for the other nor takes its members.
    const claimed = await claimNextChunk("77", jobId, 4);
    expect(claimed.userIds).toEqual(userIds.slice(4));
    await other.query(`UPDATE bulk_ban_items SET state = 'sending' WHERE "jobId" = $1 AND "userId" = ANY($2)`, [
      jobId,
      rows.map((row) => row.userId),
    ]);
    await other.query("COMMIT");
  } finally {
    await other.end();
  }
  const states = await dashboard.db.prisma.bulkBanItem.groupBy({
    by: ["state"],
    where: { jobId },
    _count: { _all: true },
  });
  expect(states.map((group) => [group.state, group._count._all])).toEqual([["sending", 8]]);
  expect((await claimNextChunk("77", jobId, 4)).userIds).toEqual([]);
});

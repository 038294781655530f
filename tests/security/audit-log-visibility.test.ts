// Finding (audit log visibility): the guild's own audit log reached moderators without View Audit Log through the
// dashboard's audit history. The section is open to Manage Server alone ("any of View Audit Log, Manage Server"), but
// its rows were never filtered by source, so `member` with a role of Manage Server, Ban Members, Manage Channels and
// Kick Members (no View Audit Log) read "Create Guild Ban by Mod — secret reason" and the owner's role changes in
// both modes: in bot mode the page itself imported the log with the bot's token, and in user mode the entries a
// View Audit Log moderator had imported were shown anyway. The bans page named who banned each user from the same
// history, and the prune page started the bot's import too.
//
// Now, from the policy table: the guild's log in the history is the section "audit-history/guild-log" (View Audit Log),
// who banned whom is ACTORS_REQUIREMENT (View Audit Log), and the import is Get Guild Audit Log run on the
// moderator's behalf (View Audit Log, judged by the dashboard in bot mode as the API judges a user token).
// Viewers without it see the dashboard's own entries only: rows, filter menus and CSV alike.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { beforeAll, describe, expect, test, vi } from "vitest";
import type { GuildViewer } from "@/lib/dashboard/data/viewer";
import { testServerForFile } from "../integration/harness";
import { guildViewerOf } from "../integration/dashboard/harness";

// The page's sentences read the request's locale: outside Next there is no request.
vi.mock("next/headers", () => ({ headers: async () => new Headers() }));

const server = testServerForFile();

let prisma: typeof import("@/lib/dashboard/db").prisma;
let auditLog: typeof import("@/lib/dashboard/data/audit-log");
let auditHistory: typeof import("@/lib/dashboard/data/audit-history");
let banActors: typeof import("@/lib/dashboard/data/ban-actors");
let viewers: typeof import("@/lib/dashboard/data/viewer");

const guildLogRows = () =>
  prisma.auditHistoryEntry.count({ where: { guildId: server.world.guildId, source: "guild-log" } });
const importState = () => prisma.guildAuditLogSync.findUnique({ where: { guildId: server.world.guildId } });

/** What one page of the audit history shows the viewer (every page, with a filter). */
async function historyPage(viewer: GuildViewer, filter: import("@/lib/dashboard/audit/history").AuditFilter = {}) {
  const page = await auditHistory.getAuditHistoryPage(viewer, filter, { limit: 200 });
  return { ...page, entries: page.rows.map((row) => row.entry) };
}

let banned: string;
let dashboardEntryReason: string;

beforeAll(async () => {
  process.env.GUILD_API_URL = `${server.baseUrl}/api`;
  process.env.GUILD_API_BOT_TOKEN = server.botToken;
  ({ prisma } = await import("@/lib/dashboard/db"));
  auditLog = await import("@/lib/dashboard/data/audit-log");
  auditHistory = await import("@/lib/dashboard/data/audit-history");
  banActors = await import("@/lib/dashboard/data/ban-actors");
  viewers = await import("@/lib/dashboard/data/viewer");
  const { guildId, users } = server.world;

  // The owner gives `member` a role that opens the audit history, bans, channels and prune, without View Audit Log.
  const role = await server.api("owner", "POST", `/guilds/${guildId}/roles`, {
    name: "Server managers",
    permissions: String(P.ManageGuild | P.BanMembers | P.ManageChannels | P.KickMembers),
  });
  expect(role.status).toBe(200);
  const { id: roleId } = (await role.json()) as { id: string };
  expect((await server.api("owner", "PUT", `/guilds/${guildId}/members/${users.member}/roles/${roleId}`)).status).toBe(
    204,
  );

  // Mod bans someone outside the dashboard, with a reason only View Audit Log may read.
  banned = users.outsider;
  const ban = await server.api(
    "mod",
    "PUT",
    `/guilds/${guildId}/bans/${banned}`,
    {},
    { "x-audit-log-reason": "secret reason" },
  );
  expect(ban.status).toBe(204);

  // A change made through the dashboard: its own history, which Manage Server viewers were promised.
  const { recordAuditEntry } = await import("@/lib/dashboard/audit/history");
  dashboardEntryReason = "new welcome text (dashboard)";
  await recordAuditEntry({
    guildId,
    actor: { id: users.admin, name: "Admin" },
    action: "Modify Guild Welcome Screen",
    target: { type: "guild", id: guildId, name: "HQ" },
    reason: dashboardEntryReason,
    status: "success",
    httpStatus: 200,
  });
});

describe("a viewer without View Audit Log starts no import of the guild's audit log", () => {
  test("bot mode: the history, the bans page's actors and the prune page's sync run nothing for member", async () => {
    const member = await guildViewerOf(server, "member", "bot");
    expect(viewers.can(member, P.ManageGuild) && !viewers.can(member, P.ViewAuditLog)).toBe(true);

    await historyPage(member);
    expect(await banActors.getBanActors(member, [banned])).toEqual({});
    // The prune page's (and the export's) call, waiting for any import already running to finish.
    expect(await auditLog.syncAuditLog(member, 10_000)).toMatchObject({ ok: false });

    expect(await importState()).toBeNull();
    expect(await guildLogRows()).toBe(0);
  });
});

describe("the guild's log, once imported by a moderator with View Audit Log", () => {
  beforeAll(async () => {
    const mod = await guildViewerOf(server, "mod", "bot");
    expect(await auditLog.syncAuditLog(mod, 10_000)).toMatchObject({ ok: true, pending: false });
    expect(await guildLogRows()).toBeGreaterThan(0);
  });

  test("mod (View Audit Log) sees it: the ban with its reason, and who banned whom", async () => {
    for (const mode of ["user", "bot"] as const) {
      const mod = await guildViewerOf(server, "mod", mode);
      const { entries } = await historyPage(mod, { source: "guild-log" });
      expect(entries.find((e) => e.action === "Create Guild Ban" && e.targetId === banned)).toMatchObject({
        actorId: server.world.users.mod,
        reason: "secret reason",
      });
      const actors = await banActors.getBanActors(mod, [banned]);
      expect(actors[banned]).toMatchObject({ source: "guild-log", by: { id: server.world.users.mod } });
    }
  });

  for (const mode of ["user", "bot"] as const) {
    test(`${mode} mode: member sees only the dashboard's own entries — rows, filters, facets and CSV`, async () => {
      const member = await guildViewerOf(server, "member", mode);
      const everything = await historyPage(member);
      expect(everything.entries.length).toBeGreaterThan(0);
      expect(everything.entries.every((e) => e.source === "dashboard")).toBe(true);
      expect(everything.entries.map((e) => e.reason)).toContain(dashboardEntryReason);
      expect(JSON.stringify(everything.rows)).not.toContain("secret reason");
      expect(everything.sync).toMatchObject({ ok: false });

      // Asking for the guild's log by name, by its actor or its reason finds nothing.
      expect((await historyPage(member, { source: "guild-log" })).entries).toEqual([]);
      expect((await historyPage(member, { q: "secret" })).entries).toEqual([]);
      expect((await historyPage(member, { actor: server.world.users.owner })).entries).toEqual([]);
      expect((await historyPage(member, { action: "Create Guild Ban" })).entries).toEqual([]);

      // The filter menus name only the dashboard's actors and actions.
      const facets = await auditHistory.getAuditFacets(member);
      expect(facets.actors.map((a) => a.id)).toEqual([server.world.users.admin]);
      expect(facets.actions).not.toContain("Ban");

      // The CSV export: the same rows.
      const exported = await auditHistory.exportAuditHistory(member, {});
      expect(exported.length).toBeGreaterThan(0);
      expect(exported.every((e) => e.source === "dashboard")).toBe(true);
      expect(await auditHistory.exportAuditHistory(member, { source: "guild-log" })).toEqual([]);

      // The bans page: nobody named as the banner.
      expect(await banActors.getBanActors(member, [banned])).toEqual({});
      expect(banActors.banActorsHidden(member)).toBe("needs View Audit Log");
    });
  }

  test("the owner still sees everything (the owner holds every permission)", async () => {
    const owner = await guildViewerOf(server, "owner", "user");
    const { entries } = await historyPage(owner, { source: "guild-log" });
    expect(entries.some((e) => e.reason === "secret reason")).toBe(true);
    expect(banActors.banActorsHidden(owner)).toBeNull();
  });
});

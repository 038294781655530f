// The prune, safety and integrations actions against a real server and the dashboard's own tables: a prune runs only
// on a fresh preview with the same days and roles and the count typed back, once, never resent; the outcome lands
// next to its preview. Incident pauses keep the other pause as it stands; features switch one at a time.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import type { PrunePreviewView } from "@/lib/dashboard/actions/schemas/prune";
import { startTestServer, type TestServer } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { DAY, seedPruneGuild } from "../prune-guild";
import { actionAs } from "./harness";

let server: TestServer;
let prisma: typeof import("@/lib/dashboard/db").prisma;
let actions: typeof import("@/lib/dashboard/actions/prune") &
  typeof import("@/lib/dashboard/actions/safety") &
  typeof import("@/lib/dashboard/actions/integrations");

const GUILD = 8_000_000_000n;
const ROLE = { LURKER: 8_000_000_001n, KEEPER: 8_000_000_002n, MOD: 8_000_000_003n, BOT: 8_000_000_004n };
/** name → [roles, ms since last activity] */
const FIXTURE: Record<string, [bigint[], number]> = {
  idle_none: [[], 40 * DAY],
  idle_lurker: [[ROLE.LURKER], 45 * DAY],
  idle_lurker_keeper: [[ROLE.LURKER, ROLE.KEEPER], 45 * DAY],
  recent_none: [[], 10 * DAY],
  active_lurker: [[ROLE.LURKER], 0],
};
let userIds: Record<string, bigint> = {};

beforeAll(async () => {
  server = await startTestServer();
  ({ prisma } = await import("@/lib/dashboard/db"));
  actions = {
    ...(await import("@/lib/dashboard/actions/prune")),
    ...(await import("@/lib/dashboard/actions/safety")),
    ...(await import("@/lib/dashboard/actions/integrations")),
  };
  const user = (name: keyof TestServer["world"]["users"]) => BigInt(server.world.users[name]);
  userIds = await seedPruneGuild({
    guildId: GUILD,
    name: "Prune Desk",
    ownerId: user("owner"),
    roles: [
      [ROLE.LURKER, "Lurker", 0n],
      [ROLE.KEEPER, "Keeper", 0n],
      [ROLE.MOD, "Mod", P.ManageGuild | P.KickMembers | P.ViewAuditLog],
      [ROLE.BOT, "Bot", P.Administrator],
    ],
    staff: [
      [user("owner"), "owner"],
      [user("mod"), "mod", [ROLE.MOD]],
      [BigInt(server.world.botUserId), "guildhall-demo", [ROLE.BOT]],
      // helper: a member with no permission here.
      [user("helper"), "helper", [ROLE.KEEPER]],
    ],
    idle: FIXTURE,
    firstUserId: 8_100_000_000n,
  });
});
afterAll(() => server?.close());

type Who = "owner" | "mod" | "helper";

const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: Who,
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
  fetchImpl?: typeof fetch,
) => actionAs(server, who, mode, definition, { fetch: fetchImpl });

const guildId = String(GUILD);
const lurker = String(ROLE.LURKER);
const isMember = async (name: string) =>
  Boolean(await sql.get("SELECT 1 FROM members WHERE guild_id = ? AND user_id = ?", GUILD, userIds[name]));
const storedPreview = (id: string) => prisma.prunePreview.findUniqueOrThrow({ where: { id } });

async function preview(days: number, includeRoles: string[] = []) {
  const result = await as("mod", "user", actions.previewPruneAction.definition).run({ guildId, days, includeRoles });
  if (!result.ok) throw new Error(result.error);
  return result.data;
}

/** Begin Guild Prune's input on preview `p` as the form sends it: the preview's parameters and its count typed back. */
const runInput = (
  p: Pick<PrunePreviewView, "id" | "days" | "roleIds" | "count">,
  changes: { computePruneCount?: boolean; confirmation?: string; reason?: string } = {},
) => ({
  guildId,
  previewId: p.id,
  days: p.days,
  includeRoles: p.roleIds,
  computePruneCount: true,
  confirmation: String(p.count),
  reason: "cleanup",
  ...changes,
});

describe("prune", () => {
  it("stores a preview with the count, who asked and when; the history records the read", async () => {
    const { run, audit } = as("mod", "user", actions.previewPruneAction.definition);
    const result = await run({ guildId, days: 30, includeRoles: [lurker] });
    expect(result).toMatchObject({ ok: true, message: "2 members would be removed." });
    if (!result.ok) return;
    const row = await storedPreview(result.data.id);
    expect(row).toMatchObject({
      guildId,
      days: 30,
      includeRoles: lurker,
      count: 2,
      actorId: server.world.users.mod,
      actorName: "Mod",
      ranAt: null,
      runStatus: null,
    });
    expect(Date.now() - row.createdAt.getTime()).toBeLessThan(10_000);
    expect(audit[0]).toMatchObject({
      action: "Preview prune",
      status: "success",
      request: { days: 30, include_roles: [lurker] },
      after: { pruned: 2 },
    });
  });

  it("refuses to run on parameters other than the preview's, a wrong count, or a preview that is not there; nobody is removed", async () => {
    const p = await preview(30, [lurker]);
    const { run, audit } = as("mod", "user", actions.beginPruneAction.definition);
    const base = runInput(p);
    expect(await run({ ...base, confirmation: "3" })).toMatchObject({
      ok: false,
      status: 409,
      fieldErrors: { confirmation: ["Type 2, the number of members the preview found, to confirm."] },
    });
    expect(await run({ ...base, days: 20 })).toMatchObject({
      ok: false,
      fieldErrors: { days: [expect.stringContaining("The preview was for 30 days")] },
    });
    expect(await run({ ...base, includeRoles: [] })).toMatchObject({
      ok: false,
      fieldErrors: { includeRoles: ["The roles changed since the preview. Preview again."] },
    });
    expect(await run({ ...base, previewId: "nope" })).toMatchObject({
      ok: false,
      error: "There is no such preview for this server. Preview the prune first.",
    });
    expect(await run({ ...base, reason: " " })).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { reason: ["Give a reason: it goes to the audit log."] },
    });
    expect((await Promise.all(["idle_none", "idle_lurker"].map(isMember))).every(Boolean)).toBe(true);
    expect((await storedPreview(p.id)).runStatus).toBeNull();
    // Each refusal is in the history as an error (the zod one never reaches it: the form shows it).
    expect(audit.map((a) => a.status)).toEqual(["error", "error", "error", "error"]);
  });

  it("refuses a preview older than ten minutes", async () => {
    const p = await preview(30, [lurker]);
    await prisma.prunePreview.update({
      where: { id: p.id },
      data: { createdAt: new Date(Date.now() - 10 * 60_000 - 1000) },
    });
    const result = await as("mod", "user", actions.beginPruneAction.definition).run(runInput(p));
    expect(result).toMatchObject({ ok: false, error: "This preview is older than 10 minutes. Preview again." });
    expect(await isMember("idle_none")).toBe(true);
  });

  it("refuses a preview the server has moved on from: a member joined since (the count), a member's roles changed (the guild's log)", async () => {
    const { insertMember } = await import("@/lib/guild-api/store/membership");
    const run = (previewId: string) =>
      as("mod", "user", actions.beginPruneAction.definition).run({
        guildId,
        previewId,
        days: 30,
        includeRoles: [lurker],
        computePruneCount: true,
        confirmation: "2",
        reason: "cleanup",
      });
    const joined = await preview(30, [lurker]);
    expect((await storedPreview(joined.id)).memberCount).toBeGreaterThan(0);
    const before = (await storedPreview(joined.id)).memberCount!;
    await sql.run(
      "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, 'newcomer', '0', FALSE, 0)",
      8_200_000_000n,
    );
    await insertMember({ guildId: GUILD, userId: 8_200_000_000n, username: "newcomer", now: Date.now() });
    expect(await run(joined.id)).toMatchObject({
      ok: false,
      error: `This preview is out of date: members joined or left (${before} → ${before + 1}). Preview again.`,
    });

    const roles = await preview(30, [lurker]);
    const put = await server.api(
      "bot",
      "PUT",
      `/guilds/${guildId}/members/${server.world.users.helper}/roles/${lurker}`,
    );
    expect(put.status).toBe(204);
    // The guild's entry is imported once it has settled (the dashboard may still be recording its own).
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    expect(await run(roles.id)).toMatchObject({
      ok: false,
      error: "This preview is out of date: 1 role change since. Preview again.",
    });
    expect((await Promise.all(["idle_none", "idle_lurker"].map(isMember))).every(Boolean)).toBe(true);
    expect((await storedPreview(roles.id)).runStatus).toBeNull();
    await server.api("bot", "DELETE", `/guilds/${guildId}/members/${server.world.users.helper}/roles/${lurker}`);
  });

  it("sends Begin Guild Prune once, even when the API fails, and uses up the preview", async () => {
    const p = await preview(30, [lurker]);
    let posts = 0;
    const failing: typeof fetch = async (input, init) => {
      if (init?.method === "POST" && String(input).endsWith("/prune")) {
        posts++;
        return new Response(JSON.stringify({ message: "Service unavailable", code: 0 }), {
          status: 503,
          headers: { "content-type": "application/json" },
        });
      }
      return fetch(input, init);
    };
    const { run, audit } = as("mod", "user", actions.beginPruneAction.definition, failing);
    const input = runInput(p);
    expect(await run(input)).toMatchObject({ ok: false, status: 503 });
    expect(posts).toBe(1);
    expect(await storedPreview(p.id)).toMatchObject({ runStatus: "error", pruned: null, ranBy: "Mod" });
    expect(audit[0]).toMatchObject({ action: "Begin Guild Prune", status: "error", httpStatus: 503 });
    expect(await run(input)).toMatchObject({ ok: false, error: expect.stringContaining("already used") });
    expect(posts).toBe(1);
  });

  it("runs on a fresh confirmed preview, removes exactly the previewed members, and records the outcome beside the preview", async () => {
    const p = await preview(30, [lurker]);
    const { run, audit } = as("mod", "user", actions.beginPruneAction.definition);
    const input = runInput(p, { confirmation: " 2 ", reason: "quarterly cleanup" });
    const result = await run(input);
    expect(result).toMatchObject({ ok: true, message: "Pruned 2 members." });
    expect(await isMember("idle_none")).toBe(false);
    expect(await isMember("idle_lurker")).toBe(false);
    expect(
      (await Promise.all(["idle_lurker_keeper", "recent_none", "active_lurker"].map(isMember))).every(Boolean),
    ).toBe(true);
    const row = await storedPreview(p.id);
    expect(row).toMatchObject({ runStatus: "success", pruned: 2, computeCount: true, ranBy: "Mod", runError: null });
    expect(row.ranAt).toBeInstanceOf(Date);
    expect(audit[0]).toMatchObject({
      action: "Begin Guild Prune",
      status: "success",
      reason: "quarterly cleanup",
      after: { pruned: 2, previewCount: 2 },
      request: { days: 30, compute_prune_count: true },
    });
    // MEMBER_PRUNE = 21, with the reason as sent.
    const log = (await (
      await server.api("bot", "GET", `/guilds/${guildId}/audit-logs?action_type=21&limit=1`)
    ).json()) as { audit_log_entries: Array<{ reason: string; options: { members_removed: string } }> };
    expect(log.audit_log_entries[0]).toMatchObject({ reason: "quarterly cleanup", options: { members_removed: "2" } });
    // Used once only.
    expect(await run(input)).toMatchObject({ ok: false, error: expect.stringContaining("already used") });
  });

  it("without compute_prune_count, the outcome has no number", async () => {
    const p = await preview(5);
    expect(p.count).toBe(1); // recent_none
    const result = await as("mod", "user", actions.beginPruneAction.definition).run(
      runInput(p, { computePruneCount: false }),
    );
    expect(result).toMatchObject({ ok: true, message: "Prune started without counting (the preview found 1 member)." });
    expect(await storedPreview(p.id)).toMatchObject({ runStatus: "success", pruned: null, computeCount: false });
    expect(await isMember("recent_none")).toBe(false);
  });

  it("refuses a preview with nothing to prune", async () => {
    const p = await preview(30);
    expect(p.count).toBe(0);
    const result = await as("mod", "user", actions.beginPruneAction.definition).run(runInput(p, { reason: "x" }));
    expect(result).toMatchObject({ ok: false, error: "The preview found nobody to prune." });
  });

  it("in bot mode, checks the moderator's own permissions before previewing", async () => {
    const { run, audit } = as("helper", "bot", actions.previewPruneAction.definition);
    expect(await run({ guildId, days: 7, includeRoles: [] })).toMatchObject({
      ok: false,
      status: 403,
      error: "You can't do this: needs Manage Server and Kick Members.",
    });
    expect(audit[0]).toMatchObject({ status: "error", httpStatus: 403 });
    expect(
      await as("mod", "bot", actions.previewPruneAction.definition).run({
        guildId,
        days: 7,
        includeRoles: [String(ROLE.BOT)],
      }),
    ).toMatchObject({ ok: false, status: 403 });
  });
});

describe("safety", () => {
  const hq = () => server.world.guildId;
  type Incidents = { invites_disabled_until: string | null; dms_disabled_until: string | null };
  // The guild carries incidents_data null once nothing is paused.
  const incidents = async (): Promise<Incidents> =>
    ((await (await server.api("bot", "GET", `/guilds/${hq()}`)).json()) as { incidents_data: Incidents | null })
      .incidents_data ?? { invites_disabled_until: null, dms_disabled_until: null };

  it("pauses invites for a preset (invite creation is refused), keeps the DM pause as it stands, and lifts early", async () => {
    const { run, audit } = as("mod", "user", actions.modifyGuildIncidentActionsAction.definition);
    const started = Date.now();
    expect(await run({ guildId: hq(), action: "invites", hours: 1, reason: "raid" })).toMatchObject({
      ok: true,
      message: "Invites paused for 1 hour.",
    });
    const paused = await incidents();
    expect(Date.parse(paused.invites_disabled_until!) - started).toBeGreaterThanOrEqual(3_600_000 - 1000);
    expect(Date.parse(paused.invites_disabled_until!) - started).toBeLessThanOrEqual(3_600_000 + 5000);
    expect(paused.dms_disabled_until).toBeNull();
    const invite = await server.api("bot", "POST", `/channels/${server.world.channels.general}/invites`, {
      max_age: 60,
    });
    expect(invite.status).toBe(400);

    expect(await run({ guildId: hq(), action: "dms", hours: 24 })).toMatchObject({ ok: true });
    const both = await incidents();
    expect(both.invites_disabled_until).toBe(paused.invites_disabled_until);
    expect(Date.parse(both.dms_disabled_until!) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);

    expect(await run({ guildId: hq(), action: "invites", hours: 0 })).toMatchObject({
      ok: true,
      message: "Invites are no longer paused.",
    });
    const lifted = await incidents();
    expect(lifted.invites_disabled_until).toBeNull();
    expect(lifted.dms_disabled_until).toBe(both.dms_disabled_until);
    expect(await run({ guildId: hq(), action: "dms", hours: 0 })).toMatchObject({ ok: true });
    expect((await incidents()).dms_disabled_until).toBeNull();
    expect(
      (await server.api("bot", "POST", `/channels/${server.world.channels.general}/invites`, { max_age: 60 })).status,
    ).toBe(200);

    expect(audit[0]).toMatchObject({
      action: "Modify Guild Incident Actions",
      status: "success",
      reason: "raid",
      before: { invites_disabled_until: null },
      request: { invites_disabled_until: "1 h from now" },
    });
    expect(await run({ guildId: hq(), action: "invites", hours: 25 })).toMatchObject({
      ok: false,
      fieldErrors: { hours: ["At most 24 hours."] },
    });
  });

  it("switches raid alerts without touching the other features", async () => {
    const features = async () =>
      ((await (await server.api("bot", "GET", `/guilds/${hq()}`)).json()) as { features: string[] }).features;
    const before = await features();
    const { run, audit } = as("mod", "user", actions.setGuildFeatureAction.definition);
    expect(await run({ guildId: hq(), feature: "RAID_ALERTS_DISABLED", enabled: true })).toMatchObject({
      ok: true,
      message: "Raid alerts are off.",
    });
    expect((await features()).sort()).toEqual([...before, "RAID_ALERTS_DISABLED"].sort());
    expect(await run({ guildId: hq(), feature: "RAID_ALERTS_DISABLED", enabled: false })).toMatchObject({
      ok: true,
      message: "Raid alerts are on.",
    });
    expect((await features()).sort()).toEqual([...before].sort());
    expect(audit[0]).toMatchObject({
      action: "Modify Guild",
      before: { RAID_ALERTS_DISABLED: false },
      after: { RAID_ALERTS_DISABLED: true },
    });
    // bot mode: a member without Manage Server is refused by the dashboard.
    expect(
      await as("helper", "bot", actions.setGuildFeatureAction.definition).run({
        guildId: hq(),
        feature: "RAID_ALERTS_DISABLED",
        enabled: true,
      }),
    ).toMatchObject({ ok: false, status: 403 });
  });
});

describe("integrations", () => {
  it("deletes a bot integration: the bot is kicked, and the history keeps what it was", async () => {
    const hq = server.world.guildId;
    const list = (await (await server.api("mod", "GET", `/guilds/${hq}/integrations`)).json()) as Array<{
      id: string;
      name: string;
      type: string;
    }>;
    const bot = list.find((i) => i.type === "discord")!;
    const { run, audit } = as("mod", "user", actions.deleteGuildIntegrationAction.definition);
    expect(await run({ guildId: hq, integrationId: bot.id, reason: "unused" })).toMatchObject({
      ok: true,
      message: `Deleted ${bot.name}.`,
    });
    const after = (await (await server.api("mod", "GET", `/guilds/${hq}/integrations`)).json()) as Array<{
      id: string;
    }>;
    expect(after.map((i) => i.id)).not.toContain(bot.id);
    expect((await server.api("mod", "GET", `/guilds/${hq}/members/${server.world.botUserId}`)).status).toBe(404);
    expect(audit[0]).toMatchObject({
      action: "Delete Guild Integration",
      target: { type: "integration", id: bot.id, name: bot.name },
      before: { type: "discord", bot: "guildhall-demo" },
      after: null,
    });
  });
});

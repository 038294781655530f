// Findings (bulk jobs, guards):
// B. A bulk add/remove-role job's role was judged once, against whoever prepared it: a chunk's guard asked only
//    whether the moderator running it may add roles at all, so in bot mode Moderator ran a job the owner prepared for
//    a role above Moderator's own and the bot gave it out. The chunk and the start now judge the job's role against
//    the moderator running them.
// C. Jobs are rows in the dashboard's own tables: in user mode no API call judged who prepared one, and the reads a
//    preview makes (Get Guild Member; Get Guild Ban) do not need Bulk Guild Ban's permissions, so Helper (Kick Members)
//    stored a bulk ban ready for a real moderator to start. Actions that change only the dashboard's tables now run
//    their guard in both modes (the moderator's standing read with their own token in user mode).
// D. Starting a bulk ban in user mode asked only Get Guild Bans (Ban Members), where the policy table says Bulk Guild
//    Ban; starting a member job asked only Search Guild Members v2, whatever the job does.
import { beforeAll, describe, expect, it } from "vitest";
import { PermissionFlagsBits } from "discord-api-types/v10";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import type { PrepareMemberJobInput } from "@/lib/dashboard/actions/schemas/member-jobs";
import { insertStrangers, testServerForFile } from "../integration/harness";
import { actionAs, apiClientAs, type DemoUser } from "../integration/dashboard/harness";

const server = testServerForFile({ rateLimits: { enabled: false } });

let prisma: typeof import("@/lib/dashboard/db").prisma;
let bans: typeof import("@/lib/dashboard/actions/bans");
let memberJobs: typeof import("@/lib/dashboard/actions/member-jobs");
let banStore: typeof import("@/lib/dashboard/jobs/bulk-ban/jobs");

/** A role above Moderator and below the bot: the owner may give it, Moderator may not, the bot could. */
let elite: string;
/** HQ's plain members (no roles, not the owner): each test takes its own slice. */
let plain: string[] = [];
/** Users nobody has met, to put in bulk bans. */
let fresh: string[] = [];

const hq = () => server.world.guildId;

beforeAll(async () => {
  ({ prisma } = await import("@/lib/dashboard/db"));
  bans = await import("@/lib/dashboard/actions/bans");
  memberJobs = await import("@/lib/dashboard/actions/member-jobs");
  banStore = await import("@/lib/dashboard/jobs/bulk-ban/jobs");
  const owner = await apiClientAs(server, "owner");
  elite = (await owner.roles.create(hq(), { name: "Elite", permissions: "0" })).id;
  await owner.roles.setPositions(hq(), [{ id: elite, position: 5 }]);
  const roles = await owner.roles.list(hq());
  const position = (id: string) => roles.find((r) => r.id === id)!.position;
  expect(position(elite)).toBeGreaterThan(position(server.world.roles.moderator));
  expect(position(elite)).toBeLessThan(position(server.world.roles.bot));
  // Member, with Ban Members and nothing else: Get Guild Bans and Get Guild Ban answer them, Bulk Guild Ban would not.
  const banner = await owner.roles.create(hq(), {
    name: "Banner",
    permissions: String(PermissionFlagsBits.BanMembers),
  });
  await owner.members.addRole(hq(), server.world.users.member, banner.id);

  const answer = await owner.members.searchV2(hq(), { and_query: { has_no_roles: true, is_bot: false }, limit: 30 });
  plain = answer.members.map((m) => m.member.user.id).filter((id) => id !== server.world.users.owner);
  fresh = await insertStrangers(6, Date.UTC(2025, 3, 1), "guards_target");
});

const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: DemoUser,
  mode: "user" | "bot",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition).run;

const rolesOf = async (userId: string) => (await (await apiClientAs(server, "owner")).members.get(hq(), userId)).roles;
const statusOf = async (jobId: string) =>
  (await prisma.bulkBanJob.findUniqueOrThrow({ where: { id: jobId }, select: { status: true } })).status;
const statesOf = async (jobId: string) =>
  (await prisma.bulkBanItem.findMany({ where: { jobId }, select: { state: true } })).map((i) => i.state);

/** A member job prepared as `who` (user mode). */
async function prepared(who: DemoUser, input: Omit<PrepareMemberJobInput, "guildId">): Promise<string> {
  const result = await as(who, "user", memberJobs.prepareMemberJobAction.definition)({ guildId: hq(), ...input });
  if (!result.ok) throw new Error(result.error);
  return result.data.jobId;
}

/** The chunk action of a role job. */
const roleChunk = (kind: "add_role" | "remove_role") =>
  kind === "add_role"
    ? memberJobs.runBulkAddRoleChunkAction.definition
    : memberJobs.runBulkRemoveRoleChunkAction.definition;

describe("B: a bulk role job runs only for a moderator who may give or take its role", () => {
  it.each(["add_role", "remove_role"] as const)(
    "%s of Elite, prepared by the owner: Moderator's chunk (bot mode) is refused",
    async (action) => {
      const targets = action === "add_role" ? plain.slice(0, 2) : plain.slice(2, 4);
      const owner = await apiClientAs(server, "owner");
      if (action === "remove_role") for (const id of targets) await owner.members.addRole(hq(), id, elite);
      const jobId = await prepared("owner", { action, roleId: elite, userIds: targets, reason: "elite" });
      const started = await as("owner", "user", memberJobs.startMemberJobAction.definition)({ guildId: hq(), jobId });
      expect(started.ok).toBe(true);

      const result = await as("mod", "bot", roleChunk(action))({ guildId: hq(), jobId, reason: "elite" });
      expect(result).toMatchObject({ ok: false, status: 403, error: expect.stringContaining("Elite") });
      for (const id of targets) expect((await rolesOf(id)).includes(elite)).toBe(action === "remove_role");
      expect(await statesOf(jobId)).toEqual(["pending", "pending"]);

      // The owner, who may, runs it.
      const own = await as("owner", "bot", roleChunk(action))({ guildId: hq(), jobId, reason: "elite" });
      expect(own).toMatchObject({ ok: true, data: { status: "completed" } });
      for (const id of targets) expect((await rolesOf(id)).includes(elite)).toBe(action === "add_role");
    },
  );

  it.each(["user", "bot"] as const)("%s mode: Moderator cannot start an Elite job the owner prepared", async (mode) => {
    const targets = mode === "user" ? plain.slice(4, 5) : plain.slice(5, 6);
    const jobId = await prepared("owner", { action: "add_role", roleId: elite, userIds: targets });
    const result = await as("mod", mode, memberJobs.startMemberJobAction.definition)({ guildId: hq(), jobId });
    expect(result).toMatchObject({ ok: false, status: 403, error: expect.stringContaining("Elite") });
    expect(await statusOf(jobId)).toBe("ready");
  });

  it("a timeout the owner prepared: Moderator's chunk (bot mode) skips a member above Moderator, as the API would", async () => {
    const [high, low] = plain.slice(6, 8);
    await (await apiClientAs(server, "owner")).members.addRole(hq(), high, elite);
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const jobId = await prepared("owner", { action: "timeout", until, userIds: [high, low] });
    expect((await as("owner", "user", memberJobs.startMemberJobAction.definition)({ guildId: hq(), jobId })).ok).toBe(
      true,
    );
    const result = await as("mod", "bot", memberJobs.runBulkTimeoutChunkAction.definition)({ guildId: hq(), jobId });
    expect(result).toMatchObject({ ok: true, data: { done: [low], failed: [{ userId: high }] } });
    const member = async (id: string) => (await apiClientAs(server, "owner")).members.get(hq(), id);
    expect((await member(high)).communication_disabled_until ?? null).toBeNull();
    expect(Date.parse((await member(low)).communication_disabled_until!)).toBe(Date.parse(until));
  });
});

describe("C: a bulk ban is stored only for a moderator who may Bulk Guild Ban (user mode)", () => {
  const jobsBy = (who: DemoUser) => prisma.bulkBanJob.count({ where: { actorId: server.world.users[who] } });

  it("Helper (Kick Members, View Audit Log) cannot prepare one from the members page", async () => {
    const result = await as(
      "helper",
      "user",
      memberJobs.prepareMemberJobAction.definition,
    )({ guildId: hq(), action: "ban", userIds: plain.slice(8, 10), reason: "raid" });
    expect(result).toMatchObject({ ok: false, status: 403 });
    expect(await jobsBy("helper")).toBe(0);
    expect((await banStore.listJobs(hq(), 100)).filter((job) => job.actorName === "Helper")).toEqual([]);
  });

  it("a member with Ban Members but not Manage Server can prepare one neither from the members page nor the bans page", async () => {
    const fromMembers = await as(
      "member",
      "user",
      memberJobs.prepareMemberJobAction.definition,
    )({ guildId: hq(), action: "ban", userIds: plain.slice(8, 10) });
    expect(fromMembers).toMatchObject({ ok: false, status: 403, error: expect.stringContaining("Manage Server") });
    const fromBans = await as(
      "member",
      "user",
      bans.previewBulkBanAction.definition,
    )({ guildId: hq(), text: fresh.slice(0, 2).join(" "), delete_message_seconds: 0 });
    expect(fromBans).toMatchObject({ ok: false, status: 403, error: expect.stringContaining("Manage Server") });
    expect(await jobsBy("member")).toBe(0);
  });

  it("Moderator (Ban Members and Manage Server) still can", async () => {
    const result = await as(
      "mod",
      "user",
      bans.previewBulkBanAction.definition,
    )({ guildId: hq(), text: fresh.slice(0, 2).join(" "), delete_message_seconds: 0 });
    expect(result.ok).toBe(true);
  });
});

describe("D: starting a job needs what the policy table says", () => {
  it.each(["user", "bot"] as const)(
    "%s mode: a member with Ban Members only cannot start a moderator's bulk ban (Bulk Guild Ban)",
    async (mode) => {
      const preview = await as(
        "mod",
        "user",
        bans.previewBulkBanAction.definition,
      )({
        guildId: hq(),
        text: (mode === "user" ? fresh.slice(2, 4) : fresh.slice(4, 6)).join(" "),
        delete_message_seconds: 0,
      });
      if (!preview.ok) throw new Error(preview.error);
      const result = await as(
        "member",
        mode,
        bans.startBulkBanJobAction.definition,
      )({ guildId: hq(), jobId: preview.data.jobId });
      expect(result).toMatchObject({ ok: false, status: 403, error: expect.stringContaining("Manage Server") });
      expect(await statusOf(preview.data.jobId)).toBe("ready");
    },
  );

  it.each(["user", "bot"] as const)(
    "%s mode: Helper cannot start Moderator's bulk role job (Add Guild Member Role needs Manage Roles)",
    async (mode) => {
      const jobId = await prepared("mod", {
        action: "add_role",
        roleId: server.world.roles.regular,
        userIds: mode === "user" ? plain.slice(10, 11) : plain.slice(11, 12),
      });
      const result = await as("helper", mode, memberJobs.startMemberJobAction.definition)({ guildId: hq(), jobId });
      expect(result).toMatchObject({ ok: false, status: 403, error: expect.stringContaining("Manage Roles") });
      expect(await statusOf(jobId)).toBe("ready");
    },
  );

  it("the job controls that change only the dashboard's tables run their guard in both modes", () => {
    for (const action of [
      bans.previewBulkBanAction,
      bans.startBulkBanJobAction,
      bans.pauseBulkBanJobAction,
      bans.cancelBulkBanJobAction,
      bans.beginUndoBulkBanAction,
      memberJobs.prepareMemberJobAction,
      memberJobs.startMemberJobAction,
      memberJobs.pauseMemberJobAction,
      memberJobs.cancelMemberJobAction,
    ])
      expect((action.definition as { dashboardOnly?: boolean }).dashboardOnly, action.definition.action).toBe(true);
  });
});

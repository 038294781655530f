// Finding (audit history, outsiders): a signed-in user who is not a member of a guild must not be able to write into
// that guild's audit history through the dashboard's actions: not with a call the API refuses (403 Missing Access),
// not with a guild the API does not know (404), not with a request the dashboard itself refuses before any API call,
// not in bot mode (where the bot could read the guild), and not with a success on a channel of another guild filed
// under this one. A member refused for lack of permission is still recorded: moderators want to see that.
// The entries go to the real history (Prisma) and are read back as the owner's history page and CSV read them.
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import { testServerForFile } from "../integration/harness";
import { seedPruneGuild } from "../integration/prune-guild";
import { actionAs, type DemoUser } from "../integration/dashboard/harness";

const server = testServerForFile();

let prisma: typeof import("@/lib/dashboard/db").prisma;
let history: typeof import("@/lib/dashboard/audit/history");
let members: typeof import("@/lib/dashboard/actions/members");
let prune: typeof import("@/lib/dashboard/actions/prune");
let channelSettings: typeof import("@/lib/dashboard/actions/channel-settings");

/** The outsider's own guild, where they are the owner: their token may change its channels. */
const OUTSIDER_GUILD = 8_700_000_000n;
/** A snowflake no guild has. */
const UNKNOWN_GUILD = "8799999999999999999";

beforeAll(async () => {
  // After the server's hook: the history's Prisma client opens the test server's database.
  ({ prisma } = await import("@/lib/dashboard/db"));
  history = await import("@/lib/dashboard/audit/history");
  members = await import("@/lib/dashboard/actions/members");
  prune = await import("@/lib/dashboard/actions/prune");
  channelSettings = await import("@/lib/dashboard/actions/channel-settings");
  await seedPruneGuild({
    guildId: OUTSIDER_GUILD,
    name: "Outsider's Den",
    ownerId: BigInt(server.world.users.outsider),
    roles: [],
    staff: [[BigInt(server.world.users.outsider), "outsider"]],
    idle: {},
    firstUserId: 8_710_000_000n,
  });
});

// Each test starts from a history without the outsider in it, so one test's leftovers never fail another.
beforeEach(async () => {
  await prisma.auditHistoryEntry.deleteMany({ where: { actorId: server.world.users.outsider } });
});

/** The action as `who` would run it from the dashboard, its entries written to the real history. */
const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: DemoUser,
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition, { record: history.recordAuditEntry });

/** Everything the guild's history shows of `userId`: the page's list and the CSV export. */
async function historyOf(guildId: string, userId: string) {
  const page = await history.listAuditEntries(guildId, { actor: userId }, { limit: 100 });
  const csv = history.auditEntriesToCsv(await history.exportAuditEntries(guildId, { actor: userId }));
  return { entries: page.entries, csvRows: csv.trim().split("\n").length - 1 };
}

describe("the audit history of a guild the caller is not a member of", () => {
  it("records nothing when the API refuses an outsider's kick (user mode, 403 Missing Access), nor invalid input", async () => {
    const hq = server.world.guildId;
    const { run } = as("outsider", "user", members.kickMemberAction.definition);
    expect(await run({ guildId: hq, userId: "not-a-snowflake" })).toMatchObject({ ok: false, status: 400 });
    const result = await run({ guildId: hq, userId: server.world.users.owner, reason: "take over" });
    expect(result).toMatchObject({ ok: false, status: 403 });
    expect((await server.api("bot", "GET", `/guilds/${hq}/members/${server.world.users.owner}`)).status).toBe(200);
    expect(await historyOf(hq, server.world.users.outsider)).toEqual({ entries: [], csvRows: 0 });
  });

  it("records nothing when the dashboard refuses an outsider before calling the API (bot mode)", async () => {
    const hq = server.world.guildId;
    const { run } = as("outsider", "bot", members.kickMemberAction.definition);
    const result = await run({ guildId: hq, userId: server.world.users.member, reason: "as the bot" });
    expect(result).toMatchObject({ ok: false });
    expect((await server.api("bot", "GET", `/guilds/${hq}/members/${server.world.users.member}`)).status).toBe(200);
    expect(await historyOf(hq, server.world.users.outsider)).toEqual({ entries: [], csvRows: 0 });
  });

  it("records nothing when the dashboard's own rules refuse an outsider (a prune preview that does not exist)", async () => {
    const hq = server.world.guildId;
    const { run } = as("outsider", "user", prune.beginPruneAction.definition);
    const result = await run({
      guildId: hq,
      days: 7,
      includeRoles: [],
      previewId: "nosuchpreview",
      computePruneCount: true,
      confirmation: "3",
      reason: "Outsider was here",
    });
    expect(result).toMatchObject({ ok: false, status: 409 });
    expect(await historyOf(hq, server.world.users.outsider)).toEqual({ entries: [], csvRows: 0 });
  });

  it("records nothing under a guild the API does not know (404)", async () => {
    const { run } = as("outsider", "user", members.kickMemberAction.definition);
    const result = await run({ guildId: UNKNOWN_GUILD, userId: server.world.users.owner });
    expect(result).toMatchObject({ ok: false });
    expect(await historyOf(UNKNOWN_GUILD, server.world.users.outsider)).toEqual({ entries: [], csvRows: 0 });
  });

  it("refuses, and files nothing under this guild, a change to a channel of another guild", async () => {
    const hq = server.world.guildId;
    const created = await server.api("outsider", "POST", `/guilds/${OUTSIDER_GUILD}/channels`, { name: "den" });
    expect(created.status).toBe(201);
    const channel = (await created.json()) as { id: string };
    const { run } = as("outsider", "user", channelSettings.modifyChannelAction.definition);
    const result = await run({
      guildId: hq,
      channelId: channel.id,
      channelType: 0,
      changes: { topic: "Signed: the owner of Guildhall HQ" },
      reason: "Outsider was here",
    });
    expect(result).toMatchObject({ ok: false, status: 404 });
    const after = (await (await server.api("outsider", "GET", `/channels/${channel.id}`)).json()) as { topic: unknown };
    expect(after.topic ?? null).toBeNull();
    expect(await historyOf(hq, server.world.users.outsider)).toEqual({ entries: [], csvRows: 0 });
  });
});

describe("the audit history of the caller's own guild", () => {
  it("still records a member's call the API refused for lack of permission", async () => {
    const hq = server.world.guildId;
    const { run } = as("helper", "user", members.banMemberAction.definition);
    const result = await run({
      guildId: hq,
      userId: server.world.users.member,
      delete_message_seconds: 0,
      reason: "helper tries",
    });
    expect(result).toMatchObject({ ok: false, status: 403 });
    const { entries, csvRows } = await historyOf(hq, server.world.users.helper);
    expect(csvRows).toBe(1);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "Create Guild Ban",
      actorId: server.world.users.helper,
      targetId: server.world.users.member,
      status: "error",
      httpStatus: 403,
      reason: "helper tries",
    });
  });
});

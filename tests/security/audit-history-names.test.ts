// Finding (audit history, names): the names the history and the toasts show come from the API (the before snapshot,
// Get User, the result), never from the browser. A caller that adds a name of its own to an action's arguments
// (userName, roleName, integrationName, targetName, as the pages used to send) changes nothing of what is recorded.
// The entries go to the real history (Prisma) and are read back as the history page and the CSV read them.
import { beforeAll, describe, expect, it } from "vitest";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import { testServerForFile } from "../integration/harness";
import { actionAs, type DemoUser } from "../integration/dashboard/harness";

const server = testServerForFile();

let history: typeof import("@/lib/dashboard/audit/history");
let bans: typeof import("@/lib/dashboard/actions/bans");
let members: typeof import("@/lib/dashboard/actions/members");
let roles: typeof import("@/lib/dashboard/actions/roles");
let integrations: typeof import("@/lib/dashboard/actions/integrations");
let channelSettings: typeof import("@/lib/dashboard/actions/channel-settings");

/** The name a caller claims for the target: never the target's own. */
const CLAIMED = "Somebody Else";

beforeAll(async () => {
  // After the server's hook: the history's Prisma client opens the test server's database.
  history = await import("@/lib/dashboard/audit/history");
  bans = await import("@/lib/dashboard/actions/bans");
  members = await import("@/lib/dashboard/actions/members");
  roles = await import("@/lib/dashboard/actions/roles");
  integrations = await import("@/lib/dashboard/actions/integrations");
  channelSettings = await import("@/lib/dashboard/actions/channel-settings");
});

const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: DemoUser,
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition, { record: history.recordAuditEntry });

/** The arguments as a browser could send them: with a name field of its choosing added. */
const claiming = <T extends object>(input: T, field: string): T => ({ ...input, [field]: CLAIMED });

/** The user's name as the API says it (global name, else username). */
async function apiName(userId: string): Promise<string> {
  const user = (await (await server.api("bot", "GET", `/users/${userId}`)).json()) as {
    username: string;
    global_name: string | null;
  };
  return user.global_name ?? user.username;
}

/** The newest entry of the guild's history for `action` (the page's list), and its CSV row. */
async function newestEntry(action: string) {
  const hq = server.world.guildId;
  const { entries } = await history.listAuditEntries(hq, { action }, { limit: 1 });
  const csv = history.auditEntriesToCsv(await history.exportAuditEntries(hq, { action }, 1));
  return { entry: entries[0], csvRow: csv.trim().split("\n")[1] ?? "" };
}

describe("names in the audit history come from the API", () => {
  it("unban: the user's name, not the one the caller sent", async () => {
    const hq = server.world.guildId;
    const outsider = server.world.users.outsider;
    expect((await server.api("bot", "PUT", `/guilds/${hq}/bans/${outsider}`, {})).status).toBe(204);
    const { run } = as("owner", "user", bans.unbanUserAction.definition);
    const result = await run(claiming({ guildId: hq, userId: outsider }, "userName"));
    const name = await apiName(outsider);
    expect(result).toMatchObject({ ok: true, message: `Unbanned ${name}.` });
    const { entry, csvRow } = await newestEntry("Remove Guild Ban");
    expect(entry).toMatchObject({ status: "success", targetId: outsider, targetName: name });
    expect(csvRow).not.toContain(CLAIMED);
  });

  it("ban of someone who is not a member: the name from Get User", async () => {
    const hq = server.world.guildId;
    const outsider = server.world.users.outsider;
    const { run } = as("owner", "user", members.banMemberAction.definition);
    const result = await run(claiming({ guildId: hq, userId: outsider, delete_message_seconds: 0 }, "userName"));
    const name = await apiName(outsider);
    expect(result).toMatchObject({ ok: true, message: `Banned ${name}.` });
    const { entry, csvRow } = await newestEntry("Create Guild Ban");
    expect(entry).toMatchObject({ status: "success", targetId: outsider, targetName: name });
    expect(csvRow).not.toContain(CLAIMED);
  });

  it("kick: the member's name from the before snapshot", async () => {
    const hq = server.world.guildId;
    const member = server.world.users.member;
    const { run } = as("mod", "user", members.kickMemberAction.definition);
    const result = await run(claiming({ guildId: hq, userId: member }, "userName"));
    const name = await apiName(member);
    expect(result).toMatchObject({ ok: true, message: `Kicked ${name}.` });
    const { entry, csvRow } = await newestEntry("Remove Guild Member");
    expect(entry).toMatchObject({ status: "success", targetId: member, targetName: name });
    expect(csvRow).not.toContain(CLAIMED);
  });

  it("role deletion: the role's name in the history and the toast", async () => {
    const hq = server.world.guildId;
    const created = (await (
      await server.api("owner", "POST", `/guilds/${hq}/roles`, { name: "Ephemeral" })
    ).json()) as {
      id: string;
    };
    const { run } = as("owner", "user", roles.deleteGuildRoleAction.definition);
    const result = await run(claiming({ guildId: hq, roleId: created.id }, "roleName"));
    expect(result).toMatchObject({ ok: true, message: "Deleted Ephemeral." });
    const { entry } = await newestEntry("Delete Guild Role");
    expect(entry).toMatchObject({ status: "success", targetId: created.id, targetName: "Ephemeral" });
  });

  it("integration deletion: the integration's name in the history and the toast", async () => {
    const hq = server.world.guildId;
    const list = (await (await server.api("owner", "GET", `/guilds/${hq}/integrations`)).json()) as Array<{
      id: string;
      name: string;
      type: string;
    }>;
    const twitch = list.find((i) => i.type === "twitch")!;
    const { run } = as("owner", "user", integrations.deleteGuildIntegrationAction.definition);
    const result = await run(claiming({ guildId: hq, integrationId: twitch.id }, "integrationName"));
    expect(result).toMatchObject({ ok: true, message: `Deleted ${twitch.name}.` });
    const { entry, csvRow } = await newestEntry("Delete Guild Integration");
    expect(entry).toMatchObject({ status: "success", targetId: twitch.id, targetName: twitch.name });
    expect(csvRow).not.toContain(CLAIMED);
  });

  it("channel permissions: no name the caller sent, in the history or the toast", async () => {
    const hq = server.world.guildId;
    const channelId = server.world.channels.general;
    const overwrite = { id: server.world.roles.regular, type: 0 as const, allow: "0", deny: "2048" };
    const edit = as("owner", "user", channelSettings.editChannelPermissionAction.definition);
    const edited = await edit.run(claiming({ guildId: hq, channelId, overwrite }, "targetName"));
    expect(edited).toMatchObject({ ok: true });
    expect(edited.ok && edited.message).not.toContain(CLAIMED);
    const remove = as("owner", "user", channelSettings.deleteChannelPermissionAction.definition);
    const removed = await remove.run(claiming({ guildId: hq, channelId, overwriteId: overwrite.id }, "targetName"));
    expect(removed).toMatchObject({ ok: true });
    expect(removed.ok && removed.message).not.toContain(CLAIMED);
    for (const action of ["Edit Channel Permissions", "Delete Channel Permission"]) {
      const { entry, csvRow } = await newestEntry(action);
      expect(entry).toMatchObject({ status: "success", targetType: "channel", targetId: channelId });
      expect([null, "general"]).toContain(entry.targetName);
      expect(csvRow).not.toContain(CLAIMED);
    }
  });
});

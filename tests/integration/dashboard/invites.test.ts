// The invites page's actions and client methods against the built-in API, through the same action client the app
// uses: Create Channel Invite, Delete Invite (with its reason), Update Target Users (every bad line back as a field
// error, nothing saved; a good file through its job to COMPLETED), Get Target Users and the job status; in bot mode,
// the dashboard's own checks (channel overwrites, the invite's guild, inviter or Manage Server).
import { describe, expect, it } from "vitest";
import { InviteTargetUsersJobStatus as JobStatus, type APIExtendedInvite } from "discord-api-types/v10";
import { GuildApiError, describeApiError } from "@/lib/api-client";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import {
  createChannelInviteAction,
  deleteInviteAction,
  updateInviteTargetUsersAction,
} from "@/lib/dashboard/actions/invites";
import { testServerForFile } from "../harness";
import { actionAs, apiClientAs } from "./harness";
import { expectOperationResponse } from "../openapi";

const server = testServerForFile();

type Who = "owner" | "mod" | "helper" | "member";

const client = async (who: Who | "bot") => await apiClientAs(server, who);
const as = <S extends Parameters<typeof actionAs>[3]["schema"], R>(
  who: Who,
  mode: "bot" | "user",
  definition: GuildActionDefinition<S, R>,
) => actionAs(server, who, mode, definition);

const guildInvites = async () =>
  (await (await client("bot")).guilds.getInvites(server.world.guildId)) as APIExtendedInvite[];

async function waitForJob(code: string) {
  for (let i = 0; i < 200; i++) {
    const job = await (await client("mod")).invites.getTargetUsersJobStatus(code);
    if (job.status !== JobStatus.Processing) return job;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`job of ${code} never finished`);
}

async function newInvite(who: Who = "mod", channel = "general") {
  const { run } = as(who, "user", createChannelInviteAction.definition);
  const result = await run({
    guildId: server.world.guildId,
    channelId: server.world.channels[channel],
    max_age: 3600,
    max_uses: 10,
    temporary: false,
    unique: true,
  });
  if (!result.ok) throw new Error(result.error);
  return result.data.code;
}

describe("create and delete", () => {
  it("creates an invite with the chosen settings, listed by Get Guild Invites, with one history entry", async () => {
    const { run, audit } = as("mod", "user", createChannelInviteAction.definition);
    const result = await run({
      guildId: server.world.guildId,
      channelId: server.world.channels.general,
      max_age: 1800,
      max_uses: 5,
      temporary: true,
      unique: true,
      reason: "for the meetup",
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expectOperationResponse("POST", "/channels/{channel_id}/invites", 200, result.data);
    expect(result.message).toBe(`Created the invite ${result.data.code}.`);
    const listed = (await guildInvites()).find((i) => i.code === result.data.code);
    expect(listed).toMatchObject({
      max_age: 1800,
      max_uses: 5,
      temporary: true,
      uses: 0,
      inviter: { id: server.world.users.mod },
      channel: { id: server.world.channels.general },
    });
    expect(Date.parse(listed!.expires_at!) - Date.parse(listed!.created_at)).toBe(1800_000);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "Create Channel Invite",
      status: "success",
      reason: "for the meetup",
      target: { type: "invite", id: result.data.code, name: `${result.data.code} → #general` },
      request: { channel_id: server.world.channels.general, max_age: 1800, max_uses: 5, temporary: true, unique: true },
      after: { code: result.data.code, max_age: 1800, max_uses: 5, temporary: true },
    });
  });

  it("refuses an expiry that is not one of the presets and a use limit above 100, before the API", async () => {
    const { run, audit } = as("mod", "user", createChannelInviteAction.definition);
    const result = await run({
      guildId: server.world.guildId,
      channelId: server.world.channels.general,
      max_age: 999,
      max_uses: 101,
      temporary: false,
      unique: false,
    });
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { max_age: ["Pick one of the expiry choices."], max_uses: ["At most 100."] },
    });
    expect(audit).toHaveLength(0);
  });

  it("deletes an invite with the reason sent as X-Audit-Log-Reason and the invite in the history's before", async () => {
    const code = await newInvite();
    const { run, audit } = as("mod", "user", deleteInviteAction.definition);
    const result = await run({ guildId: server.world.guildId, code, reason: "leaked on a forum" });
    expect(result).toMatchObject({ ok: true, message: `Deleted the invite ${code}.` });
    expect((await guildInvites()).map((i) => i.code)).not.toContain(code);
    expect((await server.api("bot", "GET", `/invites/${code}`)).status).toBe(404);
    // INVITE_DELETE = 42
    const log = (await (
      await server.api("bot", "GET", `/guilds/${server.world.guildId}/audit-logs?action_type=42&limit=1`)
    ).json()) as { audit_log_entries: Array<{ reason?: string }> };
    expect(log.audit_log_entries[0].reason).toBe("leaked on a forum");
    expect(audit[0]).toMatchObject({
      action: "Delete Invite",
      status: "success",
      before: { code, max_uses: 10, max_age: 3600 },
      after: null,
    });
  });

  it("bot mode: refuses a channel the moderator cannot see, a channel of another server, and an invite of another server", async () => {
    const create = as("member", "bot", createChannelInviteAction.definition);
    const body = { guildId: server.world.guildId, max_age: 3600, max_uses: 0, temporary: false, unique: true };
    expect(await create.run({ ...body, channelId: server.world.channels["mod-chat"] })).toMatchObject({
      ok: false,
      status: 403,
      error: "You can't do this: needs View Channels in #mod-chat.",
    });
    expect(await create.run({ ...body, channelId: "123456789012345678" })).toMatchObject({
      ok: false,
      error: "You can't do this: that channel is not in this server.",
    });
    expect(create.audit.map((e) => e.status)).toEqual(["error", "error"]);

    const remove = as("mod", "bot", deleteInviteAction.definition);
    expect(await remove.run({ guildId: server.world.guildId, code: "nosuchcode" })).toMatchObject({
      ok: false,
      error: "You can't do this: that invite is not in this server.",
    });
    const helperRemove = as("helper", "bot", deleteInviteAction.definition);
    const code = await newInvite();
    expect(await helperRemove.run({ guildId: server.world.guildId, code })).toMatchObject({
      ok: false,
      error: "You can't do this: needs Manage Server, or Manage Channels in #general.",
    });
    expect((await guildInvites()).map((i) => i.code)).toContain(code);
  });
});

describe("target users", () => {
  it("the client reads the spec's bad-file answer as field errors, one per line, and nothing is saved", async () => {
    const code = await newInvite();
    const { member, helper } = server.world.users;
    const error = await (
      await client("mod")
    ).invites
      .updateTargetUsers(code, `user_id\n${member}\nabc\n\n99999\n${helper}\n`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GuildApiError);
    const apiError = error as GuildApiError;
    expect(apiError.status).toBe(400);
    expect(apiError.code).toBe(50035);
    expect(apiError.fieldErrors).toEqual([
      { path: "target_users_file", code: "TARGET_USERS_FILE_INVALID", message: 'line 3: "abc" is not a valid user id' },
      { path: "target_users_file", code: "TARGET_USERS_FILE_INVALID", message: "line 5: user 99999 does not exist" },
    ]);
    expect(describeApiError(apiError)).toBe(
      'Invalid Form Body: target_users_file: line 3: "abc" is not a valid user id',
    );
    expect((await (await client("mod")).invites.getTargetUsersJobStatus(code)).status).toBe(JobStatus.Unspecified);
  });

  it("the action hands every bad line to the form's csv field and records the failure", async () => {
    const code = await newInvite();
    const { run, audit } = as("mod", "user", updateInviteTargetUsersAction.definition);
    const result = await run({ guildId: server.world.guildId, code, csv: "12x\n1\n", fileName: "bad.csv" });
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      code: 50035,
      fieldErrors: { csv: ['line 1: "12x" is not a valid user id', "line 2: user 1 does not exist"] },
    });
    expect(audit[0]).toMatchObject({
      action: "Update Target Users",
      status: "error",
      request: { file: "bad.csv", user_ids: 2 },
      before: { status: JobStatus.Unspecified, total_users: 0 },
    });
    expect(await (await client("mod")).invites.getTargetUsers(code)).toBe("user_id\n");
  });

  it("a good file runs to COMPLETED; Get Target Users answers the list as CSV", async () => {
    const code = await newInvite();
    const { member, outsider, helper } = server.world.users;
    const { run, audit } = as("mod", "user", updateInviteTargetUsersAction.definition);
    const result = await run({
      guildId: server.world.guildId,
      code,
      csv: `user_id\n${outsider}\n${member}\n${member}\n`,
      fileName: "good.csv",
    });
    expect(result).toMatchObject({ ok: true, message: "Uploaded 3 user ids; the list is being saved." });
    if (!result.ok) return;
    expect(result.data.job).toMatchObject({ total: 2 });
    expect([JobStatus.Processing, JobStatus.Completed]).toContain(result.data.job!.status);
    const job = await waitForJob(code);
    expect(job).toMatchObject({ status: JobStatus.Completed, total_users: 2, processed_users: 2, error_message: null });
    expect(job.completed_at).not.toBeNull();
    const ids = [member, outsider].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(await (await client("mod")).invites.getTargetUsers(code)).toBe(`user_id\n${ids.join("\n")}\n`);
    expect(audit[0]).toMatchObject({
      status: "success",
      request: { file: "good.csv", user_ids: 3 },
      after: { total_users: 2 },
    });
    // Replacing the list: the helper alone now.
    expect((await run({ guildId: server.world.guildId, code, csv: `${helper}\n` })).ok).toBe(true);
    await waitForJob(code);
    expect(await (await client("mod")).invites.getTargetUsers(code)).toBe(`user_id\n${helper}\n`);
  });

  it("the inviter or Manage Server: a helper may replace the list of their own invite only", async () => {
    const modsInvite = await newInvite("mod");
    const helpersInvite = await newInvite("helper");
    const csv = `${server.world.users.member}\n`;
    const bot = as("helper", "bot", updateInviteTargetUsersAction.definition);
    expect(await bot.run({ guildId: server.world.guildId, code: modsInvite, csv })).toMatchObject({
      ok: false,
      status: 403,
      error: "You can't do this: needs Manage Server (or to be the invite's creator).",
    });
    expect((await bot.run({ guildId: server.world.guildId, code: helpersInvite, csv })).ok).toBe(true);
    const user = as("helper", "user", updateInviteTargetUsersAction.definition);
    expect(await user.run({ guildId: server.world.guildId, code: modsInvite, csv })).toMatchObject({
      ok: false,
      status: 403,
    });
    expect((await (await client("mod")).invites.getTargetUsersJobStatus(modsInvite)).status).toBe(
      JobStatus.Unspecified,
    );
  });
});

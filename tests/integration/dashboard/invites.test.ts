// The invites page's actions and client methods against the built-in API, through the same action client the app
// uses: Create Channel Invite, Delete Invite (with its reason), Update Target Users (every bad line back as a field
// error, nothing saved; a good file through its job to COMPLETED), Get Target Users and the job status; in bot mode,
// the dashboard's own checks (channel overwrites, the invite's guild, inviter or Manage Server); and Revoke selected
// (each delete filed on its own, failures reported per invite, another guild's invite refusing the whole request).
import { describe, expect, it } from "vitest";
import { InviteTargetUsersJobStatus as JobStatus, type APIExtendedInvite } from "discord-api-types/v10";
import { GuildApiError, describeApiError } from "@/lib/api-client";
import type { GuildActionDefinition } from "@/lib/dashboard/actions/action-client";
import {
  bulkDeleteInvitesAction,
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

describe("revoke selected (Bulk delete invites)", () => {
  const guildId = () => server.world.guildId;
  const listedCodes = async () => (await guildInvites()).map((i) => i.code);

  it("deletes each invite with the reason, one Delete Invite history entry each, and says how many", async () => {
    const codes = [await newInvite(), await newInvite("mod", "help"), await newInvite()];
    const { run, audit } = as("mod", "user", bulkDeleteInvitesAction.definition);
    // A code twice is revoked once.
    const result = await run({ guildId: guildId(), codes: [...codes, codes[0]], reason: "spring cleaning" });
    expect(result).toMatchObject({ ok: true, message: "Revoked 3 invites.", data: { revoked: codes, failed: [] } });
    const left = await listedCodes();
    for (const code of codes) expect(left).not.toContain(code);
    // Each delete as the single one files it, the reason on each; no entry for the request as a whole.
    expect(audit).toHaveLength(3);
    expect(audit.map((entry) => entry.target?.id).sort()).toEqual([...codes].sort());
    for (const entry of audit)
      expect(entry).toMatchObject({
        action: "Delete Invite",
        status: "success",
        reason: "spring cleaning",
        target: { type: "invite" },
        before: { code: entry.target!.id, max_uses: 10, max_age: 3600 },
        after: null,
      });
    expect(audit.find((entry) => entry.target?.id === codes[1])?.target?.name).toBe(`${codes[1]} → #help`);
    // The guild's own log has each delete with the reason (INVITE_DELETE = 42).
    const log = (await (
      await server.api("bot", "GET", `/guilds/${guildId()}/audit-logs?action_type=42&limit=3`)
    ).json()) as { audit_log_entries: Array<{ reason?: string }> };
    expect(log.audit_log_entries.map((entry) => entry.reason)).toEqual(Array(3).fill("spring cleaning"));
  });

  it("reports each invite it could not revoke, and why, and files the failure; the others are revoked", async () => {
    const [kept, gone, fine] = [await newInvite(), await newInvite(), await newInvite()];
    expect((await server.api("bot", "DELETE", `/invites/${gone}`)).status).toBe(200);
    // The API refuses one delete (as it would a moderator with Manage Channels only, in another channel).
    const refuseOne: typeof fetch = async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (init?.method === "DELETE" && url.endsWith(`/invites/${kept}`))
        return new Response(JSON.stringify({ message: "Missing Permissions", code: 50013 }), {
          status: 403,
          headers: { "content-type": "application/json" },
        });
      return await fetch(input, init);
    };
    const { run, audit } = actionAs(server, "mod", "user", bulkDeleteInvitesAction.definition, { fetch: refuseOne });
    const result = await run({ guildId: guildId(), codes: [kept, gone, fine] });
    expect(result).toMatchObject({
      ok: true,
      message: "Revoked 1 of 3 invites; 2 could not be revoked.",
      data: {
        revoked: [fine],
        failed: [
          { code: kept, reason: "Missing Permissions" },
          { code: gone, reason: "it no longer exists (revoked or expired since the list was read)" },
        ],
      },
    });
    const left = await listedCodes();
    expect(left).toContain(kept);
    expect(left).not.toContain(fine);
    // The refused delete is in the history as the single one's would be; the one already gone was not tried.
    expect(audit.map((entry) => [entry.action, entry.target?.id, entry.status, entry.httpStatus])).toEqual(
      expect.arrayContaining([
        ["Delete Invite", kept, "error", 403],
        ["Delete Invite", fine, "success", 200],
      ]),
    );
    expect(audit).toHaveLength(2);
    expect(audit.find((entry) => entry.status === "error")).toMatchObject({
      error: "Missing Permissions",
      before: { code: kept },
    });
    await server.api("bot", "DELETE", `/invites/${kept}`);
  });

  it("refuses the whole request when one invite is another server's: nothing is deleted", async () => {
    const ours = await newInvite();
    const admin = await apiClientAs(server, "admin");
    const [sideGeneral] = await admin.channels.list(server.world.sideGuildId);
    const theirs = (await admin.channels.createInvite(sideGeneral.id, { max_age: 3600, unique: true })).code;
    for (const mode of ["user", "bot"] as const) {
      const { run, audit } = as("mod", mode, bulkDeleteInvitesAction.definition);
      expect(await run({ guildId: guildId(), codes: [ours, theirs] })).toMatchObject({
        ok: false,
        status: 404,
        error: "That invite is not in this server.",
      });
      // Filed once, under the request's own name, in this guild (mod is a member): no Delete Invite was made.
      expect(audit).toEqual([
        expect.objectContaining({ action: "Bulk delete invites", status: "error", httpStatus: 404 }),
      ]);
    }
    expect(await listedCodes()).toContain(ours);
    expect((await server.api("bot", "GET", `/invites/${theirs}`)).status).toBe(200);
    await server.api("bot", "DELETE", `/invites/${ours}`);
    await admin.invites.delete(theirs);
  });

  it("refuses a moderator without Manage Server or Manage Channels (the helper: kick, view audit log): per invite by the API, as a whole by bot mode's guard", async () => {
    const code = await newInvite();
    // User mode: the helper may list the invites (View Audit Log); the API refuses each delete, and the answer says so.
    const user = as("helper", "user", bulkDeleteInvitesAction.definition);
    expect(await user.run({ guildId: guildId(), codes: [code] })).toMatchObject({
      ok: true,
      message: "Revoked 0 of 1 invite; 1 could not be revoked.",
      data: { revoked: [], failed: [{ code, reason: "Missing Permissions" }] },
    });
    expect(user.audit).toEqual([
      expect.objectContaining({
        action: "Delete Invite",
        status: "error",
        httpStatus: 403,
        target: expect.objectContaining({ id: code }),
      }),
    ]);
    const bot = as("helper", "bot", bulkDeleteInvitesAction.definition);
    const refused = await bot.run({ guildId: guildId(), codes: [code] });
    expect(refused).toMatchObject({ ok: false, status: 403 });
    expect(!refused.ok && refused.error).toMatch(/^You can't do this: needs .*Manage (Server|Channels)/);
    expect(bot.audit).toEqual([expect.objectContaining({ action: "Bulk delete invites", status: "error" })]);
    expect(await listedCodes()).toContain(code);
    await server.api("bot", "DELETE", `/invites/${code}`);
  });

  it("bot mode: mod (Manage Server) revokes through the bot, each filed under mod with the reason", async () => {
    const codes = [await newInvite(), await newInvite()];
    const { run, audit, actor } = as("mod", "bot", bulkDeleteInvitesAction.definition);
    expect(await run({ guildId: guildId(), codes, reason: "bot mode" })).toMatchObject({
      ok: true,
      data: { revoked: codes, failed: [] },
    });
    expect(audit.map((entry) => [entry.action, entry.actor.id, entry.reason])).toEqual([
      ["Delete Invite", actor.id, "bot mode"],
      ["Delete Invite", actor.id, "bot mode"],
    ]);
    const left = await listedCodes();
    for (const code of codes) expect(left).not.toContain(code);
  });

  it("validates the list before the API: at least one, at most 1000, each a code", async () => {
    const { run, audit } = as("mod", "user", bulkDeleteInvitesAction.definition);
    expect(await run({ guildId: guildId(), codes: [] })).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { codes: ["Select at least one invite."] },
    });
    const tooMany = Array.from({ length: 1001 }, (_, i) => `code${i}`);
    expect(await run({ guildId: guildId(), codes: tooMany })).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { codes: ["At most 1000 invites at once."] },
    });
    expect(await run({ guildId: guildId(), codes: ["no/slash"] })).toMatchObject({
      ok: false,
      status: 400,
      fieldErrors: { "codes.0": ["Not a valid invite code."] },
    });
    expect(audit).toHaveLength(0);
  });
});

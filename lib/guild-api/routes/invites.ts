// Invites and target users: Create Channel Invite, Get Invite, Delete Invite, Get Guild Invites, accepting an invite,
// Get Target Users, Update Target Users, Get Target Users Job Status.
import { invalidFormBody } from "../errors";
import { noContent, ok, parseWith, preparedRoute, route, type RouteContext, type RouteDefinition } from "../http";
import { BODY_LIMITS, parseJson } from "../request-body";
import { guildAccess, snowflakeParam } from "../guards";
import {
  CreateChannelInviteBodySchema,
  formToCreateInviteBody,
  GetInviteQuerySchema,
  type CreateChannelInviteBody,
} from "../schemas/invites";
import {
  acceptInvite,
  checkCreateChannelInvite,
  createChannelInvite,
  deleteInvite,
  getGuildInvites,
  getInvite,
} from "../services/invites";
import {
  authorizeUpdateInviteTargetUsers,
  getInviteTargetUsers,
  getInviteTargetUsersJobStatus,
  parseTargetUsersFile,
  updateInviteTargetUsers,
} from "../services/target-users";

/**
 * Create Channel Invite's body in any of its three encodings: JSON; application/x-www-form-urlencoded; multipart with
 * either payload_json or plain fields, and an optional target_users_file (its File, read asynchronously by prepare).
 */
function readCreateInviteBody(ctx: RouteContext): {
  body: CreateChannelInviteBody;
  targetUsersFile: FormDataEntryValue | null;
} {
  const type = ctx.contentType;
  if (type !== "multipart/form-data" && type !== "application/x-www-form-urlencoded")
    return { body: ctx.json(CreateChannelInviteBodySchema), targetUsersFile: null };
  const form = ctx.formData();
  const payload = form.get("payload_json");
  let input: unknown = formToCreateInviteBody(form);
  if (typeof payload === "string") input = parseJson(payload, {});
  return {
    body: parseWith(CreateChannelInviteBodySchema, input),
    targetUsersFile: type === "multipart/form-data" ? form.get("target_users_file") : null,
  };
}

/** A form field holding a file (multipart) or plain text, as text. */
const entryText = (value: FormDataEntryValue): Promise<string> =>
  typeof value === "string" ? Promise.resolve(value) : value.text();

export const inviteRoutes: RouteDefinition[] = [
  // POST /channels/{channel.id}/invites: Create Channel Invite
  // A target_users_file is checked line by line before the transaction (it yields while it looks users up), after a
  // first judgement of the caller so its errors reveal nothing to callers who may not create the invite; the
  // handler judges the caller again in the transaction that writes.
  preparedRoute(
    "POST",
    "/channels/:channelId/invites",
    "Create Channel Invite",
    async (ctx) => {
      const channelId = snowflakeParam(ctx, "channelId");
      const { body, targetUsersFile } = readCreateInviteBody(ctx);
      if (targetUsersFile === null) return null;
      await checkCreateChannelInvite(ctx.caller, channelId, body);
      return parseTargetUsersFile(await entryText(targetUsersFile));
    },
    async (ctx, targetUserIds) => {
      const channelId = snowflakeParam(ctx, "channelId");
      const { body } = readCreateInviteBody(ctx);
      return ok(await createChannelInvite(ctx.caller, channelId, body, targetUserIds, ctx.auditReason));
    },
    { bodyLimit: BODY_LIMITS.upload },
  ),

  // GET /invites/{invite.code}: Get Invite (no authentication needed)
  route("GET", "/invites/:code", "Get Invite", async (ctx) =>
    ok(await getInvite(ctx.params.code, ctx.queryAs(GetInviteQuerySchema))),
  ),

  // DELETE /invites/{invite.code}: Delete Invite
  route("DELETE", "/invites/:code", "Delete Invite", async (ctx) =>
    ok(await deleteInvite(ctx.caller, ctx.params.code, ctx.auditReason)),
  ),

  // POST /invites/{invite.code}: accept an invite (Guildhall's join path for a user's Bearer token with guilds.join)
  route("POST", "/invites/:code", "Accept Invite", async (ctx) => ok(await acceptInvite(ctx.caller, ctx.params.code))),

  // GET /guilds/{guild.id}/invites: Get Guild Invites
  route("GET", "/guilds/:guildId/invites", "Get Guild Invites", async (ctx) =>
    ok(await getGuildInvites(await guildAccess(ctx))),
  ),

  // GET /invites/{invite.code}/target-users: Get Target Users
  route("GET", "/invites/:code/target-users", "Get Target Users", async (ctx) => ({
    status: 200,
    body: await getInviteTargetUsers(ctx.caller, ctx.params.code),
    contentType: "text/csv; charset=utf-8",
  })),

  // PUT /invites/{invite.code}/target-users: Update Target Users
  // The file is checked before the transaction (as above); the handler judges the caller again before writing.
  preparedRoute(
    "PUT",
    "/invites/:code/target-users",
    "Update Target Users",
    async (ctx) => {
      if (ctx.contentType !== "multipart/form-data")
        throw invalidFormBody([
          {
            path: ["target_users_file"],
            code: "CONTENT_TYPE_INVALID",
            message: "Send the file as multipart/form-data.",
          },
        ]);
      const file = ctx.formData().get("target_users_file");
      if (file === null)
        throw invalidFormBody([
          { path: ["target_users_file"], code: "BASE_TYPE_REQUIRED", message: "This field is required" },
        ]);
      await authorizeUpdateInviteTargetUsers(ctx.caller, ctx.params.code);
      return parseTargetUsersFile(await entryText(file));
    },
    async (ctx, ids) => {
      await updateInviteTargetUsers(ctx.caller, ctx.params.code, ids);
      return noContent();
    },
    { bodyLimit: BODY_LIMITS.upload },
  ),

  // GET /invites/{invite.code}/target-users/job-status: Get Target Users Job Status
  route("GET", "/invites/:code/target-users/job-status", "Get Target Users Job Status", async (ctx) =>
    ok(await getInviteTargetUsersJobStatus(ctx.caller, ctx.params.code)),
  ),
];

// Invites and target users: Create Channel Invite, Get Invite, Delete Invite, Get Guild Invites, accepting an invite,
// Get Target Users, Update Target Users, Get Target Users Job Status.
import { invalidFormBody } from "../errors";
import { noContent, ok, parseWith, route, type RouteContext, type RouteDefinition } from "../http";
import { BODY_LIMITS, parseJson } from "../request-body";
import { guildAccess, snowflakeParam } from "../guards";
import {
  CreateChannelInviteBodySchema,
  formToCreateInviteBody,
  GetInviteQuerySchema,
  type CreateChannelInviteBody,
} from "../schemas/invite";
import { acceptInvite, createChannelInvite, deleteInvite, getGuildInvites, getInvite } from "../services/invites";
import { getInviteTargetUsers, getInviteTargetUsersJobStatus, updateInviteTargetUsers } from "../services/target-users";

/** A form field holding a file (multipart) or plain text; null when absent. */
async function fileText(form: FormData, name: string): Promise<string | null> {
  const value = form.get(name);
  if (value === null) return null;
  return typeof value === "string" ? value : await value.text();
}

/**
 * Create Channel Invite's body in any of its three encodings: JSON; application/x-www-form-urlencoded; multipart with
 * either payload_json or plain fields, and an optional target_users_file.
 */
async function readCreateInviteBody(
  ctx: RouteContext,
): Promise<{ body: CreateChannelInviteBody; targetUsersFile: string | null }> {
  const type = ctx.contentType;
  if (type !== "multipart/form-data" && type !== "application/x-www-form-urlencoded")
    return { body: await ctx.json(CreateChannelInviteBodySchema), targetUsersFile: null };
  const form = await ctx.formData();
  const payload = form.get("payload_json");
  let input: unknown = formToCreateInviteBody(form);
  if (typeof payload === "string") input = parseJson(payload, {});
  return {
    body: parseWith(CreateChannelInviteBodySchema, input),
    targetUsersFile: type === "multipart/form-data" ? await fileText(form, "target_users_file") : null,
  };
}

export const inviteRoutes: RouteDefinition[] = [
  // POST /channels/{channel.id}/invites: Create Channel Invite
  route(
    "POST",
    "/channels/:channelId/invites",
    "required",
    async (ctx) => {
      const channelId = snowflakeParam(ctx, "channelId");
      const { body, targetUsersFile } = await readCreateInviteBody(ctx);
      return ok(await createChannelInvite(ctx.caller, channelId, body, targetUsersFile, ctx.auditReason));
    },
    { bodyLimit: BODY_LIMITS.upload },
  ),

  // GET /invites/{invite.code}: Get Invite (no authentication needed)
  route("GET", "/invites/:code", "optional", (ctx) =>
    ok(getInvite(ctx.params.code, ctx.queryAs(GetInviteQuerySchema))),
  ),

  // DELETE /invites/{invite.code}: Delete Invite
  route("DELETE", "/invites/:code", "required", (ctx) =>
    ok(deleteInvite(ctx.caller, ctx.params.code, ctx.auditReason)),
  ),

  // POST /invites/{invite.code}: accept an invite (Guildhall's join path for a user's Bearer token)
  route("POST", "/invites/:code", "required", (ctx) => ok(acceptInvite(ctx.caller, ctx.params.code))),

  // GET /guilds/{guild.id}/invites: Get Guild Invites
  route("GET", "/guilds/:guildId/invites", "required", (ctx) => ok(getGuildInvites(guildAccess(ctx)))),

  // GET /invites/{invite.code}/target-users: Get Target Users
  route("GET", "/invites/:code/target-users", "required", (ctx) => ({
    status: 200,
    body: getInviteTargetUsers(ctx.caller, ctx.params.code),
    contentType: "text/csv; charset=utf-8",
  })),

  // PUT /invites/{invite.code}/target-users: Update Target Users
  route(
    "PUT",
    "/invites/:code/target-users",
    "required",
    async (ctx) => {
      if (ctx.contentType !== "multipart/form-data")
        throw invalidFormBody([
          {
            path: ["target_users_file"],
            code: "CONTENT_TYPE_INVALID",
            message: "Send the file as multipart/form-data.",
          },
        ]);
      const text = await fileText(await ctx.formData(), "target_users_file");
      if (text === null)
        throw invalidFormBody([
          { path: ["target_users_file"], code: "BASE_TYPE_REQUIRED", message: "This field is required" },
        ]);
      await updateInviteTargetUsers(ctx.caller, ctx.params.code, text);
      return noContent();
    },
    { bodyLimit: BODY_LIMITS.upload },
  ),

  // GET /invites/{invite.code}/target-users/job-status: Get Target Users Job Status
  route("GET", "/invites/:code/target-users/job-status", "required", (ctx) =>
    ok(getInviteTargetUsersJobStatus(ctx.caller, ctx.params.code)),
  ),
];

// The dashboard's own route handlers for one invite (target-users download, job status): the signed-in moderator's
// session and section access, then the guild API with their token (or the bot's in bot mode), server-side only, so
// the browser never holds a token. The invite must belong to the guild in the URL: a bot token reaches every guild.
import { NextResponse, type NextRequest } from "next/server";
import { GuildApiError, describeApiError, type GuildApiClient } from "@/lib/api-client";
import { SessionExpiredError } from "@/lib/dashboard/auth/tokens";
import { findSection, sectionDisabledReason } from "@/lib/dashboard/sections";
import { inviteCodeSchema } from "@/lib/dashboard/actions/schemas/invites";
import { managementApi } from "./api";
import { getGuildViewer, type GuildViewer } from "./viewer";

export interface InviteRouteContext {
  request: NextRequest;
  viewer: GuildViewer;
  api: GuildApiClient;
  code: string;
}

type RouteParams = { params: Promise<{ guildId: string; code: string }> };

const problem = (status: number, message: string) =>
  NextResponse.json({ message }, { status, headers: { "cache-control": "no-store" } });

export function withGuildInvite(handler: (ctx: InviteRouteContext) => Promise<Response>) {
  return async (request: NextRequest, { params }: RouteParams): Promise<Response> => {
    const { guildId, code } = await params;
    if (!inviteCodeSchema.safeParse(code).success) return problem(400, "Not a valid invite code.");
    const viewer = await getGuildViewer(guildId);
    const blocked = sectionDisabledReason(findSection("invites")!, viewer.permissions);
    if (blocked) return problem(403, `Invites ${blocked}.`);
    try {
      const api = await managementApi(viewer.session);
      const invite = await api.invites.get(code).catch((error: unknown) => {
        if (error instanceof GuildApiError && error.status === 404) return null;
        throw error;
      });
      if (invite?.guild?.id !== guildId)
        return problem(404, "Unknown Invite: it expired, was deleted, or is not in this server.");
      return await handler({ request, viewer, api, code });
    } catch (error) {
      if (error instanceof SessionExpiredError) return problem(401, error.message);
      if (error instanceof GuildApiError) return problem(error.status, describeApiError(error));
      throw error;
    }
  };
}

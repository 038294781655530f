// GET /guilds/{id}/live: the guild's changes as Server-Sent Events, for the moderator's open pages. Only for a guild
// the moderator can open in the dashboard (the same read as every page: a 404 otherwise), and only while they still
// can: their session is checked again every minute, and their removal or ban from the guild ends the stream.
// Events: `state` (live, connecting, not-followed, off), `change` ({sections, actors: [{id, name}]}), `revoked`.
import { getGuildViewer } from "@/lib/dashboard/data/viewer";
import { streamGuildChanges } from "@/lib/dashboard/live/stream";
import { isSnowflake } from "@/lib/discord/snowflake";

export const dynamic = "force-dynamic";

export async function GET(request: Request, { params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  if (!isSnowflake(guildId)) return new Response("Unknown guild.", { status: 404 });
  const viewer = await getGuildViewer(guildId);
  return streamGuildChanges(viewer.session, guildId, request.signal);
}

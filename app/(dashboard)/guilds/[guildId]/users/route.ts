// GET /guilds/{id}/users?ids=1,2,3: who these ids are (avatar, name), for client lists too long to resolve when the
// page renders (a bulk-ban job's thousands of results ask for the rows they show). At most 100 ids per request; the
// lookup is the dashboard's batched, cached one, with the signed-in moderator's client.
import { NextResponse, type NextRequest } from "next/server";
import { z } from "zod";
import { isSnowflake } from "@/lib/discord/snowflake";
import { managementApi } from "@/lib/dashboard/data/api";
import { lookupUsers } from "@/lib/dashboard/data/users";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";

const USER_LOOKUP_MAX_IDS = 100;

const IdsQuerySchema = z
  .string()
  .max(USER_LOOKUP_MAX_IDS * 21)
  .transform((text) => [...new Set(text.split(",").filter(Boolean))])
  .pipe(
    z
      .array(z.string().refine(isSnowflake, "is not a snowflake"))
      .min(1, "Give at least one id.")
      .max(USER_LOOKUP_MAX_IDS, `At most ${USER_LOOKUP_MAX_IDS} ids.`),
  );

export async function GET(request: NextRequest, { params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const parsed = IdsQuerySchema.safeParse(request.nextUrl.searchParams.get("ids") ?? "");
  if (!parsed.success)
    return NextResponse.json(
      { message: `ids: ${parsed.error.issues[0]?.message ?? "invalid"}` },
      { status: 400, headers: { "cache-control": "no-store" } },
    );
  // The viewer read proves the moderator can see this guild (a 404 page otherwise).
  const viewer = await getGuildViewer(guildId);
  const users = await lookupUsers(await managementApi(viewer.session), parsed.data);
  return NextResponse.json({ users }, { headers: { "cache-control": "private, max-age=30" } });
}

// GET /guilds/{id}/bans/target?id=…: who a user id is, for the Bans page's "Ban by id" before it bans: their name, and
// whether they are a member of the server and with which roles (so the dialog can warn). Read with the moderator's
// own client; the Bans section's rule.
import { NextResponse, type NextRequest } from "next/server";
import { isSnowflake } from "@/lib/discord/snowflake";
import { findSection, sectionDisabledReason } from "@/lib/dashboard/sections";
import { managementApi } from "@/lib/dashboard/data/api";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";

export interface BanTarget {
  id: string;
  /** Global name, else username; null when the id is nobody the API knows. */
  name: string | null;
  /** The member's roles by name, highest first (none for a member without roles); null when not a member. */
  memberRoles: string[] | null;
}

const NO_STORE = { "cache-control": "no-store" };

export async function GET(request: NextRequest, { params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const id = request.nextUrl.searchParams.get("id") ?? "";
  if (!isSnowflake(id)) return NextResponse.json({ message: "id: not a user id" }, { status: 400, headers: NO_STORE });
  const viewer = await getGuildViewer(guildId);
  const blocked = sectionDisabledReason(findSection("bans")!, viewer.permissions);
  if (blocked) return NextResponse.json({ message: `Bans ${blocked}.` }, { status: 403, headers: NO_STORE });
  const api = await managementApi(viewer.session);
  const member = await api.members.get(guildId, id).catch(() => null);
  const user = member?.user ?? (await api.users.get(id).catch(() => null));
  const target: BanTarget = {
    id,
    name: user ? user.global_name || user.username : null,
    memberRoles: member
      ? viewer.roles.filter((role) => role.id !== guildId && member.roles.includes(role.id)).map((role) => role.name)
      : null,
  };
  return NextResponse.json(target, { headers: NO_STORE });
}

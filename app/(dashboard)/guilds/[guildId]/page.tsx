// /guilds/{id}: open the first section the moderator can use.
import { redirect } from "next/navigation";
import { DASHBOARD_SECTIONS, sectionDisabledReason } from "@/lib/dashboard/sections";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";

export default async function GuildIndexPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const viewer = await getGuildViewer(guildId);
  const first = DASHBOARD_SECTIONS.find((s) => !sectionDisabledReason(s, viewer.permissions)) ?? DASHBOARD_SECTIONS[0];
  redirect(`/guilds/${guildId}/${first.slug}`);
}

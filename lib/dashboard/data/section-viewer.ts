// A section page's first step: the moderator's view of the guild and whether this section is open to them, so every
// page asks the same question the sidebar and the overview's section list ask (lib/dashboard/sections.ts).
import { findSection, sectionDisabledReason, type DashboardSection } from "@/lib/dashboard/sections";
import type { SearchParams } from "@/lib/dashboard/list-params";
import { getGuildViewer, type GuildViewer } from "./viewer";

export interface SectionViewer {
  viewer: GuildViewer;
  section: DashboardSection;
  /** Why the moderator cannot use the section ("needs Ban Members"), or null when they can. */
  blocked: string | null;
}

export async function getSectionViewer(guildId: string, slug: string): Promise<SectionViewer> {
  const section = findSection(slug);
  if (!section) throw new Error(`No dashboard section is named "${slug}".`);
  const viewer = await getGuildViewer(guildId);
  return { viewer, section, blocked: sectionDisabledReason(section, viewer.permissions) };
}

/** A section page's props as Next passes them (both promises since Next 15). */
export interface GuildPageProps {
  params: Promise<{ guildId: string }>;
  searchParams: Promise<SearchParams>;
}

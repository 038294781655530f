// The guild shell: the guild's name and icon, every section (disabled with the reason when the moderator cannot
// use it, computed with the shared permission engine from their member and roles), and the section's page.
// The guild is read before the first byte (not streamed): an unknown guild, or one the moderator is not in, is a
// real 404 (guilds/not-found.tsx), which a status sent with a streamed shell could not be. The read is two API calls
// in parallel, cached for the request (the pages reuse it); each section's own reads stream behind its loading.tsx.
import type { Metadata } from "next";
import Link from "next/link";
import { Avatar } from "@/components/ui/avatar";
import { Icons } from "@/components/ui/icons";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { DASHBOARD_SECTIONS, SECTION_GROUPS, sectionDisabledReason } from "@/lib/dashboard/sections";
import { SidebarNav, type SidebarSection } from "@/components/dashboard/sidebar-nav";
import { MobileNav } from "@/components/dashboard/mobile-nav";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { UserBadge } from "@/components/dashboard/user-badge";
import { HydrationMarker } from "@/components/dashboard/hydration-marker";
import { UnsavedChangesProvider } from "@/components/dashboard/unsaved-changes";
import { LiveUpdates } from "@/components/dashboard/live-updates";
import { LocaleProvider } from "@/components/ui/locale";
import { guildIconUrl } from "@/lib/dashboard/data/cdn";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";
import { getRequestLocale } from "@/lib/dashboard/locale";

type Params = Promise<{ guildId: string }>;

/** Every page's title names its section and the guild: "Members · Guildhall HQ · Guildhall". */
export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { guild } = await getGuildViewer((await params).guildId);
  return { title: { template: `%s · ${guild.name} · Guildhall`, default: `${guild.name} · Guildhall` } };
}

export default async function GuildLayout({ children, params }: { children: React.ReactNode; params: Params }) {
  const { guildId } = await params;
  const [viewer, locale] = await Promise.all([getGuildViewer(guildId), getRequestLocale()]);
  const sections: SidebarSection[] = DASHBOARD_SECTIONS.map((s) => ({
    slug: s.slug,
    label: s.label,
    icon: s.icon,
    group: s.group,
    disabledReason: sectionDisabledReason(s, viewer.permissions),
  }));
  const guild = viewer.guild;
  const icon = guildIconUrl(guild.id, guild.icon, 96);

  const sidebar = (
    <div className="flex h-full flex-col gap-5">
      <div className="flex items-center gap-3 px-1">
        <Avatar src={icon} name={guild.name} id={guild.id} size={40} rounded="xl" />
        <div className="min-w-0">
          <p className="truncate font-semibold" data-testid="guild-name">
            {guild.name}
          </p>
          {/* Not prefetched: every live refresh of the page empties the router's cache, and the prefetch came again,
              a render of the server list (its API reads included) about once a second while a moderator watched. */}
          <Link
            href="/guilds"
            prefetch={false}
            className="inline-flex items-center gap-1 text-xs text-ink-muted hover:text-ink"
          >
            <Icons.arrowLeft className="size-3" /> All servers
          </Link>
        </div>
      </div>
      <div className="flex-1">
        <SidebarNav
          guildId={guild.id}
          sections={sections}
          groups={SECTION_GROUPS.map((g) => ({ id: g.id, label: g.label }))}
        />
      </div>
      <div className="flex items-center justify-between gap-2 border-t border-line pt-3">
        <UserBadge actor={viewer.session.actor} />
        <div className="flex items-center">
          <ThemeToggle />
          <SignOutButton compact />
        </div>
      </div>
    </div>
  );

  return (
    <LocaleProvider locale={locale}>
      <UnsavedChangesProvider>
        <div className="flex min-h-screen">
          <HydrationMarker />
          <a
            href="#content"
            className="sr-only z-50 rounded-md bg-blurple px-3 py-2 font-medium text-white focus:not-sr-only focus:fixed focus:left-3 focus:top-3"
          >
            Skip to content
          </a>
          <aside
            aria-label="Server"
            className="sticky top-0 hidden h-screen w-64 shrink-0 overflow-y-auto border-r border-line bg-surface-raised p-3 md:block"
          >
            {sidebar}
          </aside>
          <div className="min-w-0 flex-1">
            <MobileNav title={guild.name}>{sidebar}</MobileNav>
            <main
              id="content"
              tabIndex={-1}
              className="mx-auto w-full max-w-6xl px-4 py-6 outline-none md:px-8 md:py-8"
            >
              <LiveUpdates guildId={guild.id} viewerId={viewer.session.actor.id}>
                {children}
              </LiveUpdates>
            </main>
          </div>
        </div>
      </UnsavedChangesProvider>
    </LocaleProvider>
  );
}

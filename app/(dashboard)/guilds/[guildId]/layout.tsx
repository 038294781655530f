// The guild shell: the guild's name and icon, every section (disabled with the reason when the moderator cannot
// use it, computed with the shared permission engine from their member and roles), and the section's page.
import { Suspense } from "react";
import Link from "next/link";
import { Avatar } from "@/components/ui/avatar";
import { Icons } from "@/components/ui/icons";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { DASHBOARD_SECTIONS, SECTION_GROUPS, sectionDisabledReason } from "@/lib/dashboard/sections";
import { SidebarNav, type SidebarSection } from "@/components/dashboard/sidebar-nav";
import { MobileNav } from "@/components/dashboard/mobile-nav";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { UserBadge } from "@/components/dashboard/user-badge";
import { DashboardSkeleton } from "@/components/dashboard/dashboard-skeleton";
import { HydrationMarker } from "@/components/dashboard/hydration-marker";
import { guildIconUrl } from "@/lib/dashboard/data/cdn";
import { getGuildViewer } from "@/lib/dashboard/data/viewer";

export default function GuildLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ guildId: string }>;
}) {
  // The viewer (guild, member, roles) comes from the API: stream it, so the first byte does not wait for it.
  return (
    <Suspense fallback={<DashboardSkeleton />}>
      <GuildShell params={params}>{children}</GuildShell>
    </Suspense>
  );
}

async function GuildShell({ children, params }: { children: React.ReactNode; params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const viewer = await getGuildViewer(guildId);
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
          <Link href="/guilds" className="inline-flex items-center gap-1 text-xs text-ink-muted hover:text-ink">
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
    <div className="flex min-h-screen">
      <HydrationMarker />
      <aside className="sticky top-0 hidden h-screen w-64 shrink-0 overflow-y-auto border-r border-line bg-surface-raised p-3 md:block">
        {sidebar}
      </aside>
      <div className="min-w-0 flex-1">
        <MobileNav title={guild.name}>{sidebar}</MobileNav>
        <main className="mx-auto w-full max-w-6xl px-4 py-6 md:px-8 md:py-8">{children}</main>
      </div>
    </div>
  );
}

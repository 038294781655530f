"use client";

// The guild shell's section list. Sections the moderator cannot use stay visible, disabled, with the reason.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { Icons, type IconName } from "@/components/ui/icons";
import { cn } from "@/components/ui/cn";

export interface SidebarSection {
  slug: string;
  label: string;
  icon: IconName;
  group: string;
  disabledReason: string | null;
}

export function SidebarNav({
  guildId,
  sections,
  groups,
  onNavigate,
}: {
  guildId: string;
  sections: SidebarSection[];
  groups: Array<{ id: string; label: string }>;
  onNavigate?: () => void;
}) {
  const pathname = usePathname();
  const overview = `/guilds/${guildId}`;
  return (
    <nav aria-label="Server sections" className="flex flex-col gap-4">
      <Link
        href={overview}
        prefetch={false}
        onClick={onNavigate}
        aria-current={pathname === overview ? "page" : undefined}
        className={cn(
          "flex items-center gap-2.5 rounded-md px-2 py-1.5 text-sm font-medium",
          pathname === overview
            ? "bg-blurple/15 text-blurple-ink dark:bg-blurple/25 dark:text-white"
            : "text-ink-muted hover:bg-surface-sunken hover:text-ink",
        )}
      >
        <Icons.home className="size-4 shrink-0" />
        Overview
      </Link>
      {groups.map((group) => (
        <div key={group.id}>
          <p className="px-2 pb-1 text-[11px] font-semibold uppercase tracking-wider text-ink-muted">{group.label}</p>
          <ul className="flex flex-col gap-0.5">
            {sections
              .filter((section) => section.group === group.id)
              .map((section) => {
                const href = `/guilds/${guildId}/${section.slug}`;
                const active = pathname === href || pathname.startsWith(`${href}/`);
                const Icon = Icons[section.icon];
                if (section.disabledReason) {
                  return (
                    <li key={section.slug}>
                      <span
                        aria-disabled="true"
                        title={section.disabledReason}
                        className="flex cursor-not-allowed items-start gap-2.5 rounded-md px-2 py-1.5 text-sm text-ink-muted/70"
                      >
                        <Icon className="mt-0.5 size-4 shrink-0" />
                        <span className="min-w-0">
                          <span className="block">{section.label}</span>
                          <span className="flex items-center gap-1 text-[11px] leading-tight">
                            <Icons.lock className="size-3 shrink-0" />
                            {section.disabledReason}
                          </span>
                        </span>
                      </span>
                    </li>
                  );
                }
                return (
                  <li key={section.slug}>
                    <Link
                      href={href}
                      // Sections are dynamic pages without a loading state: a prefetch would fetch little but cost a
                      // request per link on every page view. A click fetches the page (tens of milliseconds).
                      prefetch={false}
                      onClick={onNavigate}
                      aria-current={active ? "page" : undefined}
                      className={cn(
                        "flex items-center gap-2.5 rounded-md px-2 py-1.5 text-sm font-medium",
                        active
                          ? "bg-blurple/15 text-blurple-ink dark:bg-blurple/25 dark:text-white"
                          : "text-ink-muted hover:bg-surface-sunken hover:text-ink",
                      )}
                    >
                      <Icon className="size-4 shrink-0" />
                      {section.label}
                    </Link>
                  </li>
                );
              })}
          </ul>
        </div>
      ))}
    </nav>
  );
}

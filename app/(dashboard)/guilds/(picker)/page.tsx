// The guild picker: the servers the moderator owns or holds a management permission in.
import type { Metadata } from "next";
import Link from "next/link";
import { Avatar } from "@/components/ui/avatar";
import { Badge } from "@/components/ui/badge";
import { EmptyState } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";
import { ThemeToggle } from "@/components/ui/theme-toggle";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { UserBadge } from "@/components/dashboard/user-badge";
import { requireDashboardSession } from "@/lib/dashboard/auth/session";
import { listManageableGuilds } from "@/lib/dashboard/data/guilds";
import { HydrationMarker } from "@/components/dashboard/hydration-marker";
import { getRequestLocale } from "@/lib/dashboard/locale";
import { plural } from "@/lib/dashboard/plural";

export const metadata: Metadata = { title: "Your servers" };

export default async function GuildsPage() {
  const session = await requireDashboardSession();
  const [{ manageable, otherCount }, locale] = await Promise.all([listManageableGuilds(session), getRequestLocale()]);
  const count = new Intl.NumberFormat(locale);
  return (
    <div className="min-h-screen bg-surface-sunken/40">
      <HydrationMarker />
      <header className="border-b border-line bg-surface-raised">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3">
          <Link prefetch={false} href="/guilds" className="flex items-center gap-2 font-bold">
            <span aria-hidden className="flex size-8 items-center justify-center rounded-lg bg-blurple text-white">
              G
            </span>
            Guildhall
          </Link>
          <div className="flex items-center gap-1">
            <UserBadge actor={session.actor} />
            <ThemeToggle />
            <SignOutButton compact />
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-4 py-8">
        <h1 className="text-2xl font-bold tracking-tight">Choose a server</h1>
        <p className="mt-1 text-sm text-ink-muted">
          Servers you own or can moderate (Manage Server, Channels or Roles; Kick, Ban or Timeout Members;
          Administrator).
        </p>
        {manageable.length === 0 ? (
          <div className="mt-8">
            <EmptyState title="No servers to manage" icon={<Icons.shield className="size-8" />}>
              <p>
                {otherCount > 0
                  ? `You're in ${otherCount} server${otherCount === 1 ? "" : "s"}, but you don't have a moderation permission in any of them.`
                  : "You're not in any server yet."}
              </p>
            </EmptyState>
          </div>
        ) : (
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Servers you can manage">
            {manageable.map((guild) => {
              const card = (
                <>
                  <Avatar src={guild.iconUrl} name={guild.name} id={guild.id} size={56} rounded="xl" />
                  <div className="min-w-0 flex-1">
                    <p className="flex items-center gap-2">
                      <span className="truncate font-semibold group-hover:text-blurple">{guild.name}</span>
                      {guild.owner && <Badge tone="warning">Owner</Badge>}
                    </p>
                    <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-ink-muted">
                      {guild.memberCount !== null && (
                        <span>{plural(guild.memberCount, "member", { format: count.format })}</span>
                      )}
                      {guild.onlineCount !== null && (
                        <span className="inline-flex items-center gap-1">
                          <span aria-hidden className="size-2 rounded-full bg-success" />
                          {count.format(guild.onlineCount)} online
                        </span>
                      )}
                    </p>
                  </div>
                </>
              );
              return (
                <li key={guild.id}>
                  {guild.botMissing ? (
                    // Bot mode: the dashboard acts through the bot, which is not in this server yet.
                    <div
                      role="group"
                      aria-label={guild.name}
                      className="flex flex-col gap-3 rounded-xl bg-surface-raised p-4 ring-1 ring-line"
                    >
                      <div className="flex items-center gap-4 opacity-70">{card}</div>
                      <p className="text-xs text-ink-muted">
                        The bot isn&apos;t in this server, so the dashboard can&apos;t manage it yet.{" "}
                        {guild.addBotUrl ? (
                          <a href={guild.addBotUrl} className="font-medium text-blurple underline">
                            Add the bot
                          </a>
                        ) : (
                          "Ask someone with Manage Server to add it."
                        )}
                      </p>
                    </div>
                  ) : (
                    <Link
                      prefetch={false}
                      href={`/guilds/${guild.id}`}
                      className="group flex items-center gap-4 rounded-xl bg-surface-raised p-4 ring-1 ring-line transition hover:-translate-y-0.5 hover:shadow-lg hover:ring-blurple/50"
                    >
                      {card}
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
        )}
        {manageable.length > 0 && otherCount > 0 && (
          <p className="mt-6 text-sm text-ink-muted">
            {otherCount} other server{otherCount === 1 ? "" : "s"} hidden: you have no moderation permission there.
          </p>
        )}
      </main>
    </div>
  );
}

// Applications: every application the signed-in user owns.
import type { Metadata } from "next";
import Link from "next/link";
import { listOwnedApplications } from "@/lib/guild-api/services/applications";
import { AppAvatar } from "../_components/app-avatar";
import { ArrowRightIcon } from "../_components/icons";
import { requireDeveloper } from "../_lib/session";

export const metadata: Metadata = { title: "Applications" };
export const dynamic = "force-dynamic";

export default async function ApplicationsPage() {
  const developer = await requireDeveloper("/developers/applications");
  const applications = await listOwnedApplications(developer.id);

  return (
    <main className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <div className="mb-8 flex flex-col gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Applications</h1>
        <p className="text-ink-muted">
          Configure OAuth2, Activities, installation and the bot of the applications you own.
        </p>
      </div>
      {applications.length === 0 ? (
        <div className="rounded-2xl border border-dashed border-line bg-surface p-10 text-center">
          <h2 className="text-lg font-semibold">No applications yet</h2>
          <p className="mt-1 text-sm text-ink-muted">
            Applications you own show up here. The demo application belongs to the user{" "}
            <span className="font-mono">owner</span>.
          </p>
        </div>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Your applications">
          {applications.map((app) => (
            <li key={app.id}>
              <Link
                href={`/developers/applications/${app.id}`}
                className="group flex h-full flex-col gap-4 rounded-2xl border border-line bg-surface p-5 shadow-sm transition hover:-translate-y-0.5 hover:border-blurple/60 hover:shadow-md"
              >
                <div className="flex items-center gap-3">
                  <AppAvatar name={app.name} className="size-12 text-xl" />
                  <div className="min-w-0">
                    <h2 className="truncate text-lg font-semibold">{app.name}</h2>
                    <p className="font-mono text-xs text-ink-muted">{app.id}</p>
                  </div>
                  <ArrowRightIcon className="ml-auto size-5 text-ink-muted transition group-hover:translate-x-0.5 group-hover:text-blurple" />
                </div>
                {app.description && <p className="line-clamp-2 text-sm text-ink-muted">{app.description}</p>}
                <div className="mt-auto flex flex-wrap gap-1.5 text-xs font-medium">
                  {app.activitiesEnabled && <Badge tone="blurple">Activities</Badge>}
                  {app.hasBot && <Badge>Bot</Badge>}
                  {app.installationContexts.includes(0) && <Badge>Guild Install</Badge>}
                  {app.installationContexts.includes(1) && <Badge>User Install</Badge>}
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}

function Badge({ children, tone }: { children: React.ReactNode; tone?: "blurple" }) {
  return (
    <span
      className={
        tone === "blurple"
          ? "rounded-full bg-blurple/10 px-2 py-0.5 text-blurple dark:bg-blurple/20 dark:text-blurple-light"
          : "rounded-full bg-surface-sunken px-2 py-0.5 text-ink-muted"
      }
    >
      {children}
    </span>
  );
}

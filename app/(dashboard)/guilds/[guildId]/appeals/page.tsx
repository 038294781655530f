// Appeals (issue #32): the server's ban appeals, the open ones first in the order they came (the queue) or the decided
// ones newest first; each with who sent it, when, the ban's reason then, their answers, and Accept (unbans, with an
// optional note) or Reject (with the message they will read). The link to share and the form's settings are a click
// away. Ban Members opens it (SECTION_POLICIES.appeals).
import type { Metadata } from "next";
import Link from "next/link";
import { PageHeader } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getAppealSettings, listAppeals } from "@/lib/dashboard/appeals/store";
import { dashboardConfig } from "@/lib/dashboard/config";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { firstParam, pageNumber } from "@/lib/dashboard/list-params";
import { AppealCard } from "./_components/appeal-card";

export const metadata: Metadata = { title: "Appeals" };

export default async function AppealsPage({ params, searchParams }: GuildPageProps) {
  const { guildId } = await params;
  const query = await searchParams;
  const { section, blocked } = await getSectionViewer(guildId, "appeals");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;
  const status = firstParam(query.status) === "decided" ? "decided" : "open";
  const page = pageNumber(firstParam(query.page));
  const [settings, { appeals, more, counts }] = await Promise.all([
    getAppealSettings(guildId),
    listAppeals(guildId, status, page),
  ]);
  const link = `${dashboardConfig().publicUrl}/appeal/${guildId}`;
  const tab = (value: "open" | "decided", label: string) => (
    <Link
      prefetch={false}
      href={`/guilds/${guildId}/appeals${value === "open" ? "" : "?status=decided"}`}
      aria-current={status === value ? "page" : undefined}
      className={buttonClasses(status === value ? "primary" : "secondary", "sm")}
    >
      {label}
    </Link>
  );
  return (
    <>
      <PageHeader
        title="Appeals"
        description={section.description}
        actions={
          <Link prefetch={false} href={`/guilds/${guildId}/appeals/settings`} className={buttonClasses("secondary")}>
            Appeal form
          </Link>
        }
      />
      <p role="note" className="mb-4 rounded-md border border-line bg-surface-sunken/60 p-3 text-sm">
        {settings.enabled ? (
          <>
            Banned users appeal at{" "}
            <a href={link} className="font-mono text-blurple-ink underline">
              {link}
            </a>{" "}
            (put it in your ban messages or server rules).
          </>
        ) : (
          <>Appeals are closed: open them on the appeal form&apos;s page.</>
        )}
      </p>
      <nav aria-label="Appeals by status" className="mb-4 flex gap-2">
        {tab("open", `Waiting (${counts.open})`)}
        {tab("decided", `Decided (${counts.decided})`)}
      </nav>
      {appeals.length === 0 ? (
        <p className="text-sm text-ink-muted">
          {status === "open" ? "No appeal is waiting." : "No appeal has been decided yet."}
        </p>
      ) : (
        <ol className="flex flex-col gap-4" aria-label={status === "open" ? "Waiting appeals" : "Decided appeals"}>
          {appeals.map((appeal) => (
            <li key={appeal.id}>
              <AppealCard guildId={guildId} appeal={appeal} />
            </li>
          ))}
        </ol>
      )}
      <nav aria-label="Pages" className="mt-4 flex gap-2">
        {page > 1 && (
          <Link
            prefetch={false}
            href={`/guilds/${guildId}/appeals?${new URLSearchParams({ ...(status === "decided" ? { status } : {}), page: String(page - 1) })}`}
            className={buttonClasses("secondary", "sm")}
          >
            Previous
          </Link>
        )}
        {more && (
          <Link
            prefetch={false}
            href={`/guilds/${guildId}/appeals?${new URLSearchParams({ ...(status === "decided" ? { status } : {}), page: String(page + 1) })}`}
            className={buttonClasses("secondary", "sm")}
          >
            Next
          </Link>
        )}
      </nav>
    </>
  );
}

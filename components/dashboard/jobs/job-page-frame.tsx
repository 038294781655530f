// The one page frame of every bulk job (bulk ban; the members page's role, timeout and kick jobs): the title, the way
// back, who prepared it and when, its reason, or why the moderator may not see it.
import Link from "next/link";
import { PageHeader } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";
import { ExactTime } from "@/components/ui/relative-time";
import { NoAccess } from "@/components/dashboard/no-access";

export function JobPageFrame({
  title,
  back,
  job,
  blocked,
  children,
}: {
  title: string;
  back: { href: string; label: string; section: string };
  /** Who prepared the job, when, and why; absent while `blocked`. */
  job?: { actorName: string; createdAt: string; reason: string | null };
  /** Why the moderator may not see this section, or null. */
  blocked?: string | null;
  children?: React.ReactNode;
}) {
  const backLink = (
    <Link prefetch={false} href={back.href} className="inline-flex items-center gap-1 hover:underline">
      <Icons.arrowLeft className="size-3.5" /> {back.label}
    </Link>
  );
  if (blocked || !job)
    return (
      <>
        <PageHeader title={title} description={backLink} />
        {blocked && <NoAccess section={back.section} reason={blocked} />}
      </>
    );
  return (
    <>
      <PageHeader
        title={title}
        description={
          <span className="flex flex-wrap gap-x-3 gap-y-1">
            {backLink}
            <span>
              Prepared by {job.actorName} on <ExactTime iso={job.createdAt} />
            </span>
            <span>Reason: {job.reason ?? "none given"}</span>
          </span>
        }
      />
      <div className="flex flex-col gap-6">{children}</div>
    </>
  );
}

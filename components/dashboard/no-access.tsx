import type { ReactNode } from "react";
import { EmptyState, PageHeader } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";
import type { DashboardSection } from "@/lib/dashboard/sections";

/** A section the moderator cannot use, reached by URL: say why instead of failing. */
export function NoAccess({ section, reason }: { section: string; reason: string }) {
  return (
    <EmptyState title={`You can't use ${section} in this server`} icon={<Icons.lock className="size-8" />}>
      <p>This section {reason}. Ask a server admin if you think you should have it.</p>
    </EmptyState>
  );
}

/**
 * The whole page of a closed section: its header (the page's own, or `title` over the section's description), then
 * why it is closed.
 */
export function NoAccessPage({
  section,
  reason,
  title = section.label,
  header = <PageHeader title={title} description={section.description} />,
}: {
  section: DashboardSection;
  reason: string;
  title?: string;
  header?: ReactNode;
}) {
  return (
    <>
      {header}
      <NoAccess section={section.label} reason={reason} />
    </>
  );
}

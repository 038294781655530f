import type { ReactNode } from "react";
import { EmptyState } from "@/components/ui/card";
import { Icons } from "@/components/ui/icons";

/** A section the moderator cannot use, reached by URL: say why instead of failing. */
export function NoAccess({ section, reason }: { section: string; reason: string }) {
  return (
    <EmptyState title={`You can't use ${section} in this server`} icon={<Icons.lock className="size-8" />}>
      <p>This section {reason}. Ask a server admin if you think you should have it.</p>
    </EmptyState>
  );
}

/** The whole page of a closed section: the page's own header, then why it is closed. */
export function NoAccessPage({ header, section, reason }: { header: ReactNode; section: string; reason: string }) {
  return (
    <>
      {header}
      <NoAccess section={section} reason={reason} />
    </>
  );
}

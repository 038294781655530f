// The portal's shell around the application list and each application's settings.
import type { Metadata } from "next";
import { PortalHeader } from "../_components/portal-header";
import { currentDeveloper } from "../_lib/session";

export const metadata: Metadata = { title: { default: "Developer Portal", template: "%s · Developer Portal" } };

export default async function ApplicationsLayout({ children }: { children: React.ReactNode }) {
  return (
    <div className="min-h-screen bg-surface-sunken/40 dark:bg-surface-sunken">
      <PortalHeader developer={await currentDeveloper()} />
      {children}
    </div>
  );
}

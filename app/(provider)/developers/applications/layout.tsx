// The portal's shell around the application list and each application's settings. After signing in, the shell tells
// the developer about wrong passwords typed for their account meanwhile, until they dismiss it.
import type { Metadata } from "next";
import { signInNoticeFor } from "@/lib/guild-api/services/password-sign-in";
import { SignInNoticeBanner } from "../../_components/sign-in-notice";
import { PortalHeader } from "../_components/portal-header";
import { currentDeveloper } from "../_lib/session";

export const metadata: Metadata = { title: { default: "Developer Portal", template: "%s · Developer Portal" } };

export default async function ApplicationsLayout({ children }: { children: React.ReactNode }) {
  const developer = await currentDeveloper();
  const notice = developer ? await signInNoticeFor(developer.id) : null;
  return (
    <div className="min-h-screen bg-surface-sunken/40 dark:bg-surface-sunken">
      <PortalHeader developer={developer} />
      {notice && (
        <div className="mx-auto max-w-7xl px-4 pt-4 sm:px-6">
          <SignInNoticeBanner notice={notice} />
        </div>
      )}
      {children}
    </div>
  );
}

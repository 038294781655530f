// The appeal form's settings (issue #32): whether the server takes appeals, whether a banned user sees the ban's
// reason, and the questions (up to 5). Saving makes the moderator who saved the one whose grant reads appellants'
// bans in user mode, which the page says.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { BackLink } from "@/components/dashboard/back-link";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getAppealSettings } from "@/lib/dashboard/appeals/store";
import { dashboardConfig } from "@/lib/dashboard/config";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { AppealSettingsForm } from "./_components/appeal-settings-form";

export const metadata: Metadata = { title: "Appeal form" };

export default async function AppealSettingsPage({ params }: GuildPageProps) {
  const { guildId } = await params;
  const { section, blocked } = await getSectionViewer(guildId, "appeals");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;
  const settings = await getAppealSettings(guildId);
  const config = dashboardConfig();
  return (
    <>
      <BackLink href={`/guilds/${guildId}/appeals`}>Appeals</BackLink>
      <PageHeader
        title="Appeal form"
        description={`What banned users answer at ${config.publicUrl}/appeal/${guildId}.`}
      />
      {config.authMode === "user" && settings.actorName && (
        <p role="note" className="mb-4 text-sm text-ink-muted">
          Bans are looked up with {settings.actorName}&apos;s sign-in (they saved these settings last): if they sign out
          of this dashboard, save again to use yours.
        </p>
      )}
      <AppealSettingsForm
        guildId={guildId}
        defaults={{ enabled: settings.enabled, showReason: settings.showReason, questions: settings.questions }}
      />
    </>
  );
}

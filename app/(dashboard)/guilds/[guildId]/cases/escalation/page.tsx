// Escalation rules (issue #32): "3 warnings within 30 days → time out for 1 day", up to 10 per server. When a warning
// crosses one, the member panel proposes it to the moderator, who applies it or not.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { BackLink } from "@/components/dashboard/back-link";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getEscalationRules } from "@/lib/dashboard/cases/store";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { missing } from "@/lib/dashboard/data/viewer";
import { EscalationForm } from "./_components/escalation-form";

export const metadata: Metadata = { title: "Escalation" };

export default async function EscalationPage({ params }: GuildPageProps) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "cases");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;
  const rules = await getEscalationRules(guildId);
  return (
    <>
      <BackLink href={`/guilds/${guildId}/cases`}>Cases</BackLink>
      <PageHeader
        title="Escalation"
        description="When a warning brings a member to one of these, the moderator is offered the action; nothing happens by itself."
      />
      <EscalationForm
        guildId={guildId}
        defaults={rules.map(({ warnings, withinDays, action, durationSeconds }) => ({
          warnings,
          withinDays,
          action,
          durationSeconds,
        }))}
        disabledReason={missing(viewer, P.ModerateMembers)}
      />
    </>
  );
}

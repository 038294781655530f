// Safety: pause invites and DMs during a raid (Modify Guild Incident Actions, with a live countdown), verification
// level and explicit content filter, raid alerts and the indefinite invite pause (Modify Guild features), the MFA
// requirement, and the vanity URL (Get Guild Vanity URL).
import type { Metadata } from "next";
import { Badge } from "@/components/ui/badge";
import { Card, CardHeader, PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { MFA_LEVELS } from "@/lib/dashboard/actions/schemas/safety";
import { getVanityUrl } from "@/lib/dashboard/data/safety";
import { IncidentActions } from "./_components/incident-actions";
import { ModerationLevels } from "./_components/moderation-levels";
import { SafetyFeatures } from "./_components/safety-features";
import { Num } from "@/components/ui/locale";

export const metadata: Metadata = { title: "Safety" };

export default async function SafetyPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "safety");
  const header = (
    <PageHeader
      title="Safety"
      description="Pause invites and DMs during a raid, set who can talk and what gets scanned, and see how people find the server."
    />
  );
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;

  const guild = viewer.guild;
  const vanity = await getVanityUrl(viewer);
  const mfa = MFA_LEVELS.find((level) => level.value === guild.mfa_level) ?? {
    label: `Level ${guild.mfa_level}`,
    meaning: "",
  };
  return (
    <>
      {header}
      <div className="flex flex-col gap-6">
        <IncidentActions
          guildId={guildId}
          serverNow={viewer.readAt}
          invitesDisabledUntil={guild.incidents_data?.invites_disabled_until ?? null}
          dmsDisabledUntil={guild.incidents_data?.dms_disabled_until ?? null}
          raidDetectedAt={guild.incidents_data?.raid_detected_at ?? null}
          dmSpamDetectedAt={guild.incidents_data?.dm_spam_detected_at ?? null}
        />
        <ModerationLevels
          guildId={guildId}
          verificationLevel={guild.verification_level}
          explicitContentFilter={guild.explicit_content_filter}
        />
        <SafetyFeatures guildId={guildId} features={guild.features} />
        <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
          <Card>
            <CardHeader
              title="Two-factor requirement for moderators"
              description="2FA requirement for moderation: moderators must have two-factor authentication on."
            />
            <p className="flex items-center gap-2 text-sm">
              <Badge tone={guild.mfa_level ? "success" : "neutral"}>{mfa.label}</Badge>
              {mfa.meaning}
            </p>
            <p className="mt-3 text-xs text-ink-muted">
              Only the server owner can change this, from their own account with two-factor authentication turned on.
              The dashboard can show it but not change it: only Discord&apos;s own client does.
              {viewer.isOwner ? " As the owner, change it in your Discord client's server settings." : ""}
            </p>
          </Card>
          <Card>
            <CardHeader title="Vanity URL" description="A custom invite link that never expires." />
            {vanity.code ? (
              <p className="text-sm">
                <span className="font-mono text-base font-semibold" data-testid="vanity-code">
                  {vanity.code}
                </span>
                <span className="ml-2 text-ink-muted">
                  used <Num value={vanity.uses} /> time{vanity.uses === 1 ? "" : "s"}
                </span>
              </p>
            ) : (
              <p className="text-sm text-ink-muted">This server has no vanity URL.</p>
            )}
            <p className="mt-3 text-xs text-ink-muted">
              Pausing invites also stops people joining through the vanity URL.
            </p>
          </Card>
        </div>
      </div>
    </>
  );
}

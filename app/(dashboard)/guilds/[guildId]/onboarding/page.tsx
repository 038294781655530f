// Onboarding: Modify Guild Onboarding with a live check of the enabling rules.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { onboardingValues } from "@/lib/dashboard/actions/schemas/onboarding";
import { getOnboarding } from "@/lib/dashboard/data/community";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import { roleVerdict } from "@/lib/dashboard/data/viewer";
import { OnboardingEditor } from "./_components/onboarding-editor";

export const metadata: Metadata = { title: "Onboarding" };

export default async function OnboardingPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "onboarding");
  const header = <PageHeader title="Onboarding" description={section.description} />;
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;

  const [onboarding, channels] = await Promise.all([getOnboarding(viewer), getGuildChannels(viewer)]);
  const g = viewer.guild;
  return (
    <>
      {header}
      <OnboardingEditor
        guild={{ id: g.id, ownerId: g.owner_id }}
        defaults={onboardingValues(onboarding)}
        channels={channels}
        roles={viewer.roles.map((r) => ({ id: r.id, position: r.position, permissions: r.permissions }))}
        // Options may give roles below the moderator's highest, never managed ones or @everyone.
        assignableRoles={viewer.roles
          .filter((r) => r.id !== g.id && !r.managed && roleVerdict(viewer, r).ok)
          .map((r) => ({ id: r.id, label: `@${r.name}` }))}
        emojis={g.emojis
          .filter((e) => e.id && e.name)
          .map((e) => ({ id: e.id!, name: e.name!, animated: Boolean(e.animated) }))}
      />
    </>
  );
}

// Integrations: bots and connected services (Get Guild Integrations, at most 50), each with its account, its
// application's bot and the sync state the API reports; delete one with a confirmation that says what goes with it.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { INTEGRATIONS_MAX } from "@/lib/discord/limits";
import { getGuildIntegrations } from "@/lib/dashboard/data/integrations";
import { IntegrationsTable } from "./_components/integrations-table";
import { getHiddenColumns } from "@/lib/dashboard/table-preferences";

export const metadata: Metadata = { title: "Integrations" };

export default async function IntegrationsPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "integrations");
  const header = (
    <PageHeader
      title="Integrations"
      description={`${section.description} The API lists at most ${INTEGRATIONS_MAX}.`}
    />
  );
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;

  const [integrations, hiddenColumns] = await Promise.all([
    getGuildIntegrations(viewer),
    getHiddenColumns(viewer.session.actor.id, "integrations"),
  ]);
  return (
    <>
      {header}
      <IntegrationsTable guildId={guildId} integrations={integrations} hiddenColumns={hiddenColumns} />
    </>
  );
}

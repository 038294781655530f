// Events: the guild's scheduled events as a list or a month calendar, with their interested counts; create and edit
// them (dates and times in the moderator's time zone), start, end, cancel or delete them.
import type { Metadata } from "next";
import { ChannelType } from "discord-api-types/v10";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import { getScheduledEvents } from "@/lib/dashboard/data/scheduled-events";
import { EventsView } from "./_components/events-view";

export const metadata: Metadata = { title: "Events" };

export default async function EventsPage({
  params,
  searchParams,
}: {
  params: Promise<{ guildId: string }>;
  searchParams: Promise<{ view?: string }>;
}) {
  const { guildId } = await params;
  const { view } = await searchParams;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "events");
  const header = <PageHeader title="Events" description={section.description} />;
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;

  const [events, channels] = await Promise.all([getScheduledEvents(viewer), getGuildChannels(viewer)]);
  const eventChannels = channels
    .filter((c) => c.type === ChannelType.GuildStageVoice || c.type === ChannelType.GuildVoice)
    .map((c) => ({ id: c.id, name: c.name, type: c.type }));

  return (
    <>
      {header}
      <EventsView
        guildId={guildId}
        events={events}
        channels={eventChannels}
        view={view === "calendar" ? "calendar" : "list"}
      />
    </>
  );
}

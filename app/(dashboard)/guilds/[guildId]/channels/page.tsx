// Channels: the tree by category with type icons, reordering and moving between categories (saved as one Modify
// Guild Channel Positions request), creating channels with the fields their type takes, and active threads.
import type { Metadata } from "next";
import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { maxVoiceBitrate } from "@/lib/discord/limits";
import { getActiveThreads, getGuildChannels } from "@/lib/dashboard/data/channels";
import { ChannelTree } from "./_components/channel-tree";
import { CreateChannelButton } from "./_components/create-channel";
import { ThreadList } from "./_components/thread-list";

export const metadata: Metadata = { title: "Channels" };

export default async function ChannelsPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "channels");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;

  const [channels, threads] = await Promise.all([getGuildChannels(viewer), getActiveThreads(viewer)]);
  const categories = channels.filter((c) => c.type === 4).map((c) => ({ id: c.id, name: c.name }));
  return (
    <>
      <PageHeader
        title="Channels"
        description={section.description}
        actions={
          <>
            <Link prefetch={false} href={`/guilds/${guildId}/channels/view-as`} className={buttonClasses("secondary")}>
              View as…
            </Link>
            <CreateChannelButton
              guildId={guildId}
              categories={categories}
              roles={viewer.roles.filter((r) => r.id !== guildId).map((r) => ({ id: r.id, name: r.name }))}
              maxBitrate={maxVoiceBitrate(viewer.guild.premium_tier, viewer.guild.features)}
            />
          </>
        }
      />
      <div className="grid gap-6 xl:grid-cols-[minmax(0,1fr)_20rem] [&>*]:min-w-0">
        <ChannelTree
          key={channels.map((c) => `${c.id}:${c.position}:${c.parent_id}`).join(",")}
          guildId={guildId}
          channels={channels}
        />
        <ThreadList threads={threads} channels={channels.map((c) => ({ id: c.id, name: c.name }))} />
      </div>
    </>
  );
}

// Emoji: the server's custom emoji in a grid, uploaded by dragging several files at once, renamed where they are
// shown; who uploaded each; static and animated slots used of those the boost level gives.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { getGuildEmojis } from "@/lib/dashboard/data/expressions";
import { EmojiManager } from "./_components/emoji-manager";

export const metadata: Metadata = { title: "Emoji" };

export default async function EmojiPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "emoji");
  const header = <PageHeader title="Emoji" description={section.description} />;
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;
  const { items, slots } = await getGuildEmojis(viewer);
  return (
    <>
      {header}
      <EmojiManager guildId={guildId} emojis={items} slots={slots} />
    </>
  );
}

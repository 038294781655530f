// Stickers: the server's custom stickers with who uploaded each, an upload form (PNG, APNG, GIF or Lottie JSON,
// 320 × 320, up to 512 KB), rename and delete; slots used of those the boost level gives.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { getGuildStickers } from "@/lib/dashboard/data/expressions";
import { StickerManager } from "./_components/sticker-manager";

export const metadata: Metadata = { title: "Stickers" };

export default async function StickersPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "stickers");
  const header = <PageHeader title="Stickers" description={section.description} />;
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;
  const { items, slots } = await getGuildStickers(viewer);
  return (
    <>
      {header}
      <StickerManager guildId={guildId} stickers={items} slots={slots} />
    </>
  );
}

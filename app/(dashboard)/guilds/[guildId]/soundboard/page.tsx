// Soundboard: the server's sounds, played in the browser at their volume, with who uploaded each; an upload form (MP3
// or OGG up to 512 KB and 5.2 seconds), rename and delete; slots used of those the boost level gives.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { getGuildSoundboardSounds } from "@/lib/dashboard/data/expressions";
import { SoundboardManager } from "./_components/soundboard-manager";

export const metadata: Metadata = { title: "Soundboard" };

export default async function SoundboardPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "soundboard");
  const header = <PageHeader title="Soundboard" description={section.description} />;
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;
  const { items, slots } = await getGuildSoundboardSounds(viewer);
  return (
    <>
      {header}
      <SoundboardManager guildId={guildId} sounds={items} slots={slots} />
    </>
  );
}

// Welcome screen: Modify Guild Welcome Screen with a preview of what new members see.
import type { Metadata } from "next";
import { GuildFeature } from "discord-api-types/v10";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { guildIconUrl } from "@/lib/dashboard/data/cdn";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import { getWelcomeScreen } from "@/lib/dashboard/data/community";
import { ONBOARDING_CHANNEL_TYPES } from "@/lib/discord/onboarding-rules";
import { WelcomeScreenEditor } from "./_components/welcome-screen-editor";

export const metadata: Metadata = { title: "Welcome screen" };

export default async function WelcomeScreenPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "welcome-screen");
  const header = <PageHeader title="Welcome screen" description={section.description} />;
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;

  const [screen, channels] = await Promise.all([getWelcomeScreen(viewer), getGuildChannels(viewer)]);
  const g = viewer.guild;
  return (
    <>
      {header}
      <WelcomeScreenEditor
        guild={{ id: g.id, name: g.name, iconUrl: guildIconUrl(g.id, g.icon, 128) }}
        defaults={{
          enabled: g.features.includes(GuildFeature.WelcomeScreenEnabled),
          description: screen.description ?? "",
          welcome_channels: screen.welcome_channels.map((c) => ({
            channel_id: c.channel_id,
            description: c.description,
            emoji_id: c.emoji_id ?? null,
            emoji_name: c.emoji_name ?? null,
          })),
        }}
        // Categories and threads cannot be welcome channels.
        channels={channels
          .filter((c) => ONBOARDING_CHANNEL_TYPES.includes(c.type))
          .map((c) => ({ id: c.id, name: c.name }))}
        emojis={g.emojis
          .filter((e) => e.id && e.name)
          .map((e) => ({ id: e.id!, name: e.name!, animated: Boolean(e.animated) }))}
        enableReason={g.features.includes(GuildFeature.Community) ? null : "Turn on Community in Settings first"}
      />
    </>
  );
}

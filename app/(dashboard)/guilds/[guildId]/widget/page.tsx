// Widget: its settings (Modify Guild Widget), a live preview from widget.json, the five widget.png styles and embed code.
import type { Metadata } from "next";
import { ChannelType } from "discord-api-types/v10";
import { Card, CardHeader, EmptyState, PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { WidgetCard } from "@/components/widget/widget-card";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import { getPublicWidget, getWidgetSettings, widgetEmbedUrl, widgetImageUrls } from "@/lib/dashboard/data/community";
import { ONBOARDING_CHANNEL_TYPES } from "@/lib/discord/onboarding-rules";
import { WidgetEmbeds } from "./_components/widget-embeds";
import { WidgetSettingsForm } from "./_components/widget-settings-form";

export const metadata: Metadata = { title: "Widget" };

const VOICE: readonly ChannelType[] = [ChannelType.GuildVoice, ChannelType.GuildStageVoice];

export default async function WidgetPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "widget");
  const header = <PageHeader title="Server widget" description={section.description} />;
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;

  const [settings, channels, read] = await Promise.all([
    getWidgetSettings(viewer),
    getGuildChannels(viewer),
    getPublicWidget(guildId),
  ]);
  // The widget may invite to any channel but categories and threads: the same set onboarding may name.
  const inviteChannels = channels
    .filter((c) => ONBOARDING_CHANNEL_TYPES.includes(c.type))
    .map((c) => ({ id: c.id, label: VOICE.includes(c.type) ? `🔊 ${c.name}` : `#${c.name}` }));

  return (
    <>
      {header}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_350px]">
        <div className="flex min-w-0 flex-col gap-6">
          <WidgetSettingsForm
            guildId={guildId}
            defaults={{ enabled: settings.enabled, channel_id: settings.channel_id ?? null }}
            channels={inviteChannels}
          />
        </div>
        <Card className="lg:row-span-2">
          <CardHeader title="Live preview" description="What visitors see, from the widget's data." />
          {read.ok ? (
            <WidgetCard widget={read.widget} className="mx-auto max-h-[560px]" />
          ) : (
            <EmptyState title={read.status === 403 ? "The widget is off" : "No preview"}>
              {read.status === 403 ? "Turn it on to see the preview." : read.error}
            </EmptyState>
          )}
        </Card>
        <div className="min-w-0">
          <WidgetEmbeds
            enabled={settings.enabled}
            imageUrls={widgetImageUrls(guildId)}
            embedUrl={widgetEmbedUrl(guildId)}
            inviteUrl={read.ok ? (read.widget.instant_invite ?? null) : null}
            guildName={viewer.guild.name}
          />
        </div>
      </div>
    </>
  );
}

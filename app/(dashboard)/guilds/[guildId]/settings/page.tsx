// Settings: every field of Modify Guild, with the right control for each; only changed fields are sent.
import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { FEATURE_TOGGLES, type GuildSettingsValues } from "@/lib/dashboard/actions/schemas/guilds";
import { guildBannerUrl, guildDiscoverySplashUrl, guildIconUrl, guildSplashUrl } from "@/lib/dashboard/data/cdn";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import { missing, refusal } from "@/lib/dashboard/data/viewer";
import { SettingsForm } from "./_components/settings-form";

export const metadata: Metadata = { title: "Settings" };

export default async function SettingsPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "settings");
  const header = <PageHeader title="Server settings" description={section.description} />;
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;

  const channels = await getGuildChannels(viewer);
  const g = viewer.guild;
  const defaults: GuildSettingsValues = {
    name: g.name,
    description: g.description ?? null,
    icon: null,
    banner: null,
    splash: null,
    discovery_splash: null,
    afk_channel_id: g.afk_channel_id ?? null,
    afk_timeout: g.afk_timeout,
    system_channel_id: g.system_channel_id ?? null,
    system_channel_flags: g.system_channel_flags,
    rules_channel_id: g.rules_channel_id ?? null,
    public_updates_channel_id: g.public_updates_channel_id ?? null,
    safety_alerts_channel_id: g.safety_alerts_channel_id ?? null,
    verification_level: g.verification_level,
    default_message_notifications: g.default_message_notifications,
    explicit_content_filter: g.explicit_content_filter,
    preferred_locale: g.preferred_locale as GuildSettingsValues["preferred_locale"],
    features: g.features as GuildSettingsValues["features"],
    premium_progress_bar_enabled: g.premium_progress_bar_enabled,
  };
  return (
    <>
      {header}
      <SettingsForm
        guildId={g.id}
        defaults={defaults}
        images={{
          icon: guildIconUrl(g.id, g.icon, 256),
          banner: guildBannerUrl(g.id, g.banner),
          splash: guildSplashUrl(g.id, g.splash),
          discovery_splash: guildDiscoverySplashUrl(g.id, g.discovery_splash),
        }}
        channels={channels.map((c) => ({ id: c.id, name: c.name, type: c.type, parent_id: c.parent_id }))}
        featureReasons={Object.fromEntries(FEATURE_TOGGLES.map((t) => [t.feature, missing(viewer, t.permission)]))}
        manageReason={refusal(viewer, "Modify Guild")}
      />
    </>
  );
}

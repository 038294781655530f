// AutoMod: the guild's rules grouped as Discord's client shows them (custom words, spam, mention spam, commonly flagged
// words, member profile names), each with its switch, a summary and an editor; "Create rule" while the kind's cap
// allows; and "Try it", a sample message or name run through the enabled rules with the shared matcher.
import type { Metadata } from "next";
import { ChannelType, PermissionFlagsBits as P } from "discord-api-types/v10";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { getAutoModerationRules } from "@/lib/dashboard/data/auto-moderation";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import { missing, refusal } from "@/lib/dashboard/data/viewer";
import { AutoModManager, type AutoModRefusals, type PickerOption } from "./_components/automod-manager";

export const metadata: Metadata = { title: "AutoMod" };

/** Where an alert may be sent: text channels, as Discord's channel picker offers. */
const ALERT_CHANNEL_TYPES: readonly ChannelType[] = [ChannelType.GuildText, ChannelType.GuildAnnouncement];
/** What may be exempt: any channel or category but threads. */
const EXEMPT_CHANNEL_TYPES: readonly ChannelType[] = [
  ChannelType.GuildCategory,
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
  ChannelType.GuildVoice,
  ChannelType.GuildStageVoice,
  ChannelType.GuildForum,
  ChannelType.GuildMedia,
];

export default async function AutoModPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "automod");
  const header = <PageHeader title="AutoMod" description={section.description} />;
  if (blocked) return <NoAccessPage section={section} header={header} reason={blocked} />;

  const [rules, channels] = await Promise.all([getAutoModerationRules(viewer), getGuildChannels(viewer)]);
  const channelOption = (c: (typeof channels)[number]): PickerOption => ({
    id: c.id,
    label: c.type === ChannelType.GuildCategory ? c.name : `#${c.name}`,
  });
  const refusals: AutoModRefusals = {
    create: refusal(viewer, "Create Auto Moderation Rule"),
    modify: refusal(viewer, "Modify Auto Moderation Rule"),
    delete: refusal(viewer, "Delete Auto Moderation Rule"),
    // A timeout action also needs Timeout Members (the API judges it from the rule's actions).
    timeout: missing(viewer, P.ModerateMembers),
  };
  return (
    <>
      {header}
      <AutoModManager
        guildId={guildId}
        rules={rules}
        alertChannels={channels.filter((c) => ALERT_CHANNEL_TYPES.includes(c.type)).map(channelOption)}
        exemptChannels={channels.filter((c) => EXEMPT_CHANNEL_TYPES.includes(c.type)).map(channelOption)}
        roles={viewer.roles.filter((r) => r.id !== viewer.guild.id).map((r) => ({ id: r.id, label: r.name }))}
        refusals={refusals}
      />
    </>
  );
}

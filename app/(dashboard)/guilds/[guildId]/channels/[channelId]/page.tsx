// One channel's settings, with Discord's tabs: Overview (Modify Channel's fields for its type), Permissions (the
// overwrites editor, category sync, private switch, and who can access), Invites, and Delete. What the moderator may
// do here is judged by the policy table with their permissions in this channel, as the API judges it.
import type { Metadata } from "next";
import Link from "next/link";
import { ChannelType } from "discord-api-types/v10";
import { Badge } from "@/components/ui/badge";
import { PageHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Icons } from "@/components/ui/icons";
import { BackLink } from "@/components/dashboard/back-link";
import { NoAccess, NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { dashboardConfig } from "@/lib/dashboard/config";
import { DEFAULT_BITRATE, maxVoiceBitrate } from "@/lib/discord/limits";
import { computeChannelPermissions, serializePermissions } from "@/lib/discord/permissions";
import { judgePermissions, refusalText, type OperationName } from "@/lib/discord/policies";
import {
  isPrivateChannel,
  isSyncedWithParent,
  overwriteGrantableBits,
  toPermissionOverwrite,
} from "@/lib/discord/channel-permissions";
import { answers, roleSubject, type ExplorerNames } from "@/lib/dashboard/permission-explorer";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import {
  getAccessMembers,
  getChannelDetails,
  getChannelInviteList,
  getMembersByIds,
  getVoiceRegions,
  memberName,
  type ChannelDetails,
} from "@/lib/dashboard/data/channel-settings";
import { toPermissionMember, type GuildViewer } from "@/lib/dashboard/data/viewer";
import type { ChannelSettingsValues } from "@/lib/dashboard/actions/schemas/channel-settings";
import { fieldAppliesTo } from "@/lib/dashboard/actions/schemas/channels";
import { ChannelIcon, CHANNEL_TYPE_NAMES } from "../_components/channel-icon";
import { OverviewForm } from "./_components/overview-form";
import { OverwritesEditor } from "./_components/overwrites-editor";
import { WhoCanAccess, type AccessRow } from "./_components/who-can-access";
import { ChannelInvites } from "./_components/channel-invites";
import { DeleteChannel } from "./_components/delete-channel";

export const metadata: Metadata = { title: "Channel settings" };

const TABS = [
  { id: "overview", label: "Overview" },
  { id: "permissions", label: "Permissions" },
  { id: "invites", label: "Invites" },
  { id: "delete", label: "Delete" },
] as const;
type Tab = (typeof TABS)[number]["id"];

export default async function ChannelSettingsPage({
  params,
  searchParams,
}: {
  params: Promise<{ guildId: string; channelId: string }>;
  searchParams: Promise<{ tab?: string; q?: string }>;
}) {
  const { guildId, channelId } = await params;
  const search = await searchParams;
  const tab: Tab = TABS.some((t) => t.id === search.tab) ? (search.tab as Tab) : "overview";
  const { viewer, section, blocked } = await getSectionViewer(guildId, "channels");
  if (blocked) return <NoAccessPage section={section} title="Channel settings" reason={blocked} />;

  const [channel, channels] = await Promise.all([getChannelDetails(viewer, channelId), getGuildChannels(viewer)]);
  const parentSummary = channel.parent_id ? channels.find((c) => c.id === channel.parent_id) : undefined;
  const parent = parentSummary
    ? { id: parentSummary.id, name: parentSummary.name, overwrites: parentSummary.overwrites }
    : null;
  const overwrites = channel.permission_overwrites.map(toPermissionOverwrite);
  const inChannel = computeChannelPermissions(viewer.context, viewer.self, overwrites);
  const refuse = (operation: OperationName, fields: string[] = []) =>
    refusalText(judgePermissions(operation, { permissions: inChannel, isOwner: viewer.isOwner, fields }));
  const isPrivate = isPrivateChannel(channel.permission_overwrites, guildId);
  const synced = parent ? isSyncedWithParent(channel.permission_overwrites, parent.overwrites) : null;
  const base = `/guilds/${guildId}/channels/${channelId}`;

  return (
    <>
      <BackLink href={`/guilds/${guildId}/channels`}>Channels</BackLink>
      <PageHeader
        title={
          <span className="flex items-center gap-2">
            <ChannelIcon type={channel.type} className="size-6" />
            {channel.name}
          </span>
        }
        description={
          <span className="flex flex-wrap items-center gap-2">
            {CHANNEL_TYPE_NAMES[channel.type] ?? "Channel"}
            {parent ? ` in ${parent.name}` : ""}
            {isPrivate && (
              <Badge tone="blurple">
                <Icons.lock className="mr-1 inline size-3" />
                Private
              </Badge>
            )}
            {synced === true && <Badge tone="success">Synced with category</Badge>}
            {synced === false && <Badge tone="warning">Not synced with category</Badge>}
          </span>
        }
      />
      <nav aria-label="Channel settings" className="mb-6 flex gap-1 overflow-x-auto border-b border-line">
        {TABS.map((t) => (
          <Link
            prefetch={false}
            key={t.id}
            href={t.id === "overview" ? base : `${base}?tab=${t.id}`}
            aria-current={tab === t.id ? "page" : undefined}
            className={cn(
              "-mb-px whitespace-nowrap border-b-2 px-3 py-2 text-sm font-medium",
              tab === t.id ? "border-blurple text-ink" : "border-transparent text-ink-muted hover:text-ink",
              t.id === "delete" && "text-danger",
            )}
          >
            {t.label}
          </Link>
        ))}
      </nav>

      {tab === "overview" && <OverviewTab viewer={viewer} channel={channel} refusal={refuse("Modify Channel")} />}
      {tab === "permissions" && (
        <PermissionsTab
          viewer={viewer}
          channel={channel}
          parent={parent}
          query={search.q ?? ""}
          action={base}
          refusal={refuse("Edit Channel Permissions")}
          modifyRefusal={refuse("Modify Channel", ["permission_overwrites"])}
        />
      )}
      {tab === "invites" && <InvitesTab viewer={viewer} channel={channel} refusal={refuse("Get Channel Invites")} />}
      {tab === "delete" && (
        <DeleteChannel
          guildId={guildId}
          channel={{ id: channel.id, name: channel.name ?? "", isCategory: channel.type === ChannelType.GuildCategory }}
          childCount={channels.filter((c) => c.parent_id === channel.id).length}
          refusal={refuse("Delete/Close Channel")}
        />
      )}
    </>
  );
}

/**
 * The form's starting values: the channel's fields as Get Channel answered them, and the fields its type takes with
 * Discord's defaults where the API left them out (an unset auto-archive duration, say). Others stay absent.
 */
function settingsValues(channel: ChannelDetails): ChannelSettingsValues {
  const type = channel.type;
  const values: Record<string, unknown> = { name: channel.name ?? "" };
  if (type === ChannelType.GuildText || type === ChannelType.GuildAnnouncement) values.type = type;
  const isForum = type === ChannelType.GuildForum || type === ChannelType.GuildMedia;
  const fields: Array<[keyof ChannelSettingsValues & keyof ChannelDetails, unknown, boolean]> = [
    ["topic", "", fieldAppliesTo("topic", type)],
    ["nsfw", false, fieldAppliesTo("nsfw", type)],
    ["rate_limit_per_user", 0, fieldAppliesTo("rate_limit_per_user", type)],
    ["default_thread_rate_limit_per_user", 0, fieldAppliesTo("default_thread_rate_limit_per_user", type)],
    ["default_auto_archive_duration", null, fieldAppliesTo("default_auto_archive_duration", type)],
    ["bitrate", DEFAULT_BITRATE, fieldAppliesTo("bitrate", type)],
    ["user_limit", 0, fieldAppliesTo("user_limit", type)],
    ["rtc_region", null, fieldAppliesTo("rtc_region", type)],
    ["video_quality_mode", 1, fieldAppliesTo("video_quality_mode", type)],
    ["default_forum_layout", 0, fieldAppliesTo("default_forum_layout", type)],
    ["default_sort_order", null, fieldAppliesTo("default_sort_order", type)],
    ["default_reaction_emoji", null, isForum],
    ["flags", 0, isForum],
  ];
  for (const [key, fallback, applies] of fields) if (applies) values[key] = channel[key] ?? fallback;
  if (isForum)
    values.available_tags = (channel.available_tags ?? []).map((t) => ({
      id: t.id,
      name: t.name,
      moderated: t.moderated,
      emoji_id: t.emoji_id,
      emoji_name: t.emoji_name,
    }));
  return values as ChannelSettingsValues;
}

/** What every tab reads: the moderator's view, the channel, and why the tab's change is refused (null when allowed). */
interface TabProps {
  viewer: GuildViewer;
  channel: ChannelDetails;
  refusal: string | null;
}

async function OverviewTab({ viewer, channel, refusal }: TabProps) {
  const isVoice = channel.type === ChannelType.GuildVoice || channel.type === ChannelType.GuildStageVoice;
  const regions = isVoice ? await getVoiceRegions(viewer) : [];
  const values = settingsValues(channel);
  return (
    <OverviewForm
      key={JSON.stringify(values)}
      guildId={viewer.guild.id}
      channelId={channel.id}
      type={channel.type}
      values={values}
      maxBitrate={maxVoiceBitrate(viewer.guild.premium_tier, viewer.guild.features)}
      canConvert={viewer.guild.features.some((f) => f === "NEWS" || f === "COMMUNITY")}
      regions={regions.filter((r) => !r.deprecated).map((r) => ({ id: r.id, name: r.name }))}
      emojis={viewer.guild.emojis
        .filter((e) => e.id && e.name)
        .map((e) => ({ id: e.id!, name: e.name!, animated: Boolean(e.animated) }))}
      refusal={refusal}
    />
  );
}

async function PermissionsTab({
  viewer,
  channel,
  parent,
  query,
  action,
  refusal,
  modifyRefusal,
}: TabProps & {
  parent: { id: string; name: string; overwrites: ChannelDetails["permission_overwrites"] } | null;
  query: string;
  action: string;
  modifyRefusal: string | null;
}) {
  const guildId = viewer.guild.id;
  const overwriteMemberIds = channel.permission_overwrites.filter((o) => o.type === 1).map((o) => o.id);
  const [listed, named] = await Promise.all([
    getAccessMembers(viewer, query),
    getMembersByIds(viewer, overwriteMemberIds),
  ]);
  const roleName = new Map(viewer.roles.map((r) => [r.id, r.id === guildId ? "@everyone" : r.name]));
  const memberNames = new Map([...listed, ...named].map((m) => [m.user.id, memberName(m)]));
  const names: ExplorerNames = {
    guildId,
    role: (id) => roleName.get(id) ?? "a deleted role",
    member: (id) => memberNames.get(id) ?? id,
  };
  const target = { type: channel.type, overwrites: channel.permission_overwrites };
  const explorer = `/guilds/${guildId}/channels/view-as`;
  const row = (id: string, name: string, href: string, found: ReturnType<typeof answers>): AccessRow => ({
    id,
    name,
    explorerHref: href,
    view: found.find((a) => a.capability === "view")!,
    manage: found.find((a) => a.capability === "manage")!,
  });
  const roleRows = viewer.roles.map((role) =>
    row(
      role.id,
      roleName.get(role.id)!,
      `${explorer}?role=${role.id}`,
      answers(viewer.context, roleSubject(role.id, guildId), target, names),
    ),
  );
  const memberRows = listed.map((member) =>
    row(
      member.user.id,
      memberName(member),
      `${explorer}?member=${member.user.id}`,
      answers(viewer.context, { ...toPermissionMember(member), pending: Boolean(member.pending) }, target, names),
    ),
  );
  const grantable = overwriteGrantableBits(
    viewer.context,
    viewer.self,
    channel.permission_overwrites.map(toPermissionOverwrite),
  );
  return (
    <div className="flex flex-col gap-6">
      <OverwritesEditor
        key={JSON.stringify(channel.permission_overwrites)}
        guildId={guildId}
        channel={{
          id: channel.id,
          name: channel.name ?? "",
          type: channel.type,
          overwrites: channel.permission_overwrites,
        }}
        parent={parent}
        roles={viewer.roles.map((r) => ({ id: r.id, name: roleName.get(r.id)!, color: r.color }))}
        members={[...named, ...listed.filter((m) => !overwriteMemberIds.includes(m.user.id))].map((m) => ({
          id: m.user.id,
          name: memberName(m),
        }))}
        grantable={serializePermissions(grantable)}
        refusal={refusal}
        modifyRefusal={modifyRefusal}
      />
      <WhoCanAccess
        roles={roleRows}
        members={memberRows}
        query={query}
        action={action}
        viewers={memberRows.filter((r) => r.view.granted).length}
      />
    </div>
  );
}

async function InvitesTab({ viewer, channel, refusal }: TabProps) {
  if (refusal) return <NoAccess section="Invites" reason={refusal} />;
  const invites = (await getChannelInviteList(viewer, channel.id)) ?? [];
  const config = dashboardConfig();
  const onDiscord = /\/\/(www\.)?discord\.com\//.test(`${config.guildApiUrl}/`);
  const link = (code: string) =>
    onDiscord ? `https://discord.gg/${code}` : `${config.browserApiUrl}/v${config.apiVersion}/invites/${code}`;
  return (
    <ChannelInvites
      guildId={viewer.guild.id}
      invites={invites.map((invite) => ({
        code: invite.code,
        url: link(invite.code),
        inviter: invite.inviter?.username ?? null,
        uses: invite.uses,
        maxUses: invite.max_uses,
        expiresAt: invite.expires_at ?? null,
      }))}
    />
  );
}

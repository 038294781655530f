// Permission explorer, "View as": pick a role or a member, and every channel shows what they can do there (view,
// send, connect, manage) and why: the roles and overwrites that allow and deny each permission, in the order the
// permission engine applies them (the API's own engine, lib/discord/permissions.ts).
import type { Metadata } from "next";
import { ChannelType } from "discord-api-types/v10";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Input, Select } from "@/components/ui/input";
import { BackLink } from "@/components/dashboard/back-link";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import {
  answers,
  CAPABILITIES,
  roleSubject,
  type CapabilityAnswer,
  type ExplorerNames,
  type Subject,
} from "@/lib/dashboard/permission-explorer";
import { getGuildChannels, type ChannelSummary } from "@/lib/dashboard/data/channels";
import { getAccessMembers, getMembersByIds, memberName } from "@/lib/dashboard/data/channel-settings";
import { toPermissionMember } from "@/lib/dashboard/data/viewer";
import { ChannelIcon } from "../_components/channel-icon";

export const metadata: Metadata = { title: "View as" };

export default async function ViewAsPage({
  params,
  searchParams,
}: {
  params: Promise<{ guildId: string }>;
  searchParams: Promise<{ role?: string; member?: string }>;
}) {
  const { guildId } = await params;
  const search = await searchParams;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "channels");
  if (blocked) return <NoAccessPage section={section} title="View as" reason={blocked} />;

  const memberQuery = search.member?.trim() ?? "";
  const [channels, found] = await Promise.all([
    getGuildChannels(viewer),
    memberQuery ? getAccessMembers(viewer, memberQuery) : Promise.resolve([]),
  ]);
  const member = found[0] ?? null;
  const overwriteMembers = [
    ...new Set(channels.flatMap((c) => c.overwrites.filter((o) => o.type === 1).map((o) => o.id))),
  ];
  const named = await getMembersByIds(viewer, overwriteMembers);
  const roleName = new Map(viewer.roles.map((r) => [r.id, r.id === guildId ? "@everyone" : r.name]));
  const memberNames = new Map([...named, ...found].map((m) => [m.user.id, memberName(m)]));
  const names: ExplorerNames = {
    guildId,
    role: (id) => roleName.get(id) ?? "a deleted role",
    member: (id) => memberNames.get(id) ?? id,
  };

  let subject: Subject | null = null;
  let who = "";
  if (member) {
    subject = { ...toPermissionMember(member), pending: Boolean(member.pending) };
    who = memberName(member);
  } else if (!memberQuery && search.role && roleName.has(search.role)) {
    subject = roleSubject(search.role, guildId);
    who = roleName.get(search.role)!;
  }

  return (
    <>
      <BackLink href={`/guilds/${guildId}/channels`}>Channels</BackLink>
      <PageHeader
        title="View as"
        description="What a role or a member can do in each channel, and which role or overwrite decides it."
      />
      <Card className="mb-6">
        <div className="flex flex-wrap items-end gap-4">
          <form method="get" className="flex items-end gap-2" aria-label="View as a role">
            <label className="flex flex-col gap-1.5 text-sm font-medium">
              Role
              <Select name="role" defaultValue={search.role ?? ""} className="h-9 w-56">
                <option value="">Pick a role…</option>
                {viewer.roles.map((r) => (
                  <option key={r.id} value={r.id}>
                    {roleName.get(r.id)}
                  </option>
                ))}
              </Select>
            </label>
            <Button type="submit" size="sm" variant="secondary">
              View as role
            </Button>
          </form>
          <form method="get" className="flex items-end gap-2" aria-label="View as a member">
            <label className="flex flex-col gap-1.5 text-sm font-medium">
              Member
              <Input
                name="member"
                defaultValue={memberQuery}
                placeholder="Name or id"
                className="h-9 w-56"
                type="search"
              />
            </label>
            <Button type="submit" size="sm" variant="secondary">
              View as member
            </Button>
          </form>
        </div>
        {memberQuery && !member && <p className="mt-3 text-sm text-danger">No member matches “{memberQuery}”.</p>}
      </Card>

      {subject ? (
        <section aria-label={`Permissions of ${who}`}>
          <h2 className="mb-3 text-lg font-semibold">
            As {member ? "member" : "role"} {who}
            {member && found.length > 1 && (
              <span className="ml-2 text-sm font-normal text-ink-muted">
                (first of {found.length} matches: be more precise for another)
              </span>
            )}
          </h2>
          <ChannelAnswers channels={channels} answer={(c) => answers(viewer.context, subject, c, names)} />
        </section>
      ) : (
        <EmptyState title="Pick a role or a member">
          Every channel will show whether they can view, send, connect and manage, and why.
        </EmptyState>
      )}
    </>
  );
}

function ChannelAnswers({
  channels,
  answer,
}: {
  channels: ChannelSummary[];
  answer: (channel: { type: number; overwrites: ChannelSummary["overwrites"] }) => CapabilityAnswer[];
}) {
  const categories = channels.filter((c) => c.type === ChannelType.GuildCategory);
  const groups: Array<{ category: ChannelSummary | null; items: ChannelSummary[] }> = [
    { category: null, items: channels.filter((c) => c.type !== ChannelType.GuildCategory && !c.parent_id) },
    ...categories.map((category) => ({
      category,
      items: channels.filter((c) => c.parent_id === category.id),
    })),
  ];
  return (
    <div className="flex flex-col gap-4">
      {groups
        .filter((g) => g.category || g.items.length > 0)
        .map((g) => (
          <Card key={g.category?.id ?? "none"} className="p-0 sm:p-0">
            <ul aria-label={g.category ? `Channels in ${g.category.name}` : "Channels without a category"}>
              {[...(g.category ? [g.category] : []), ...g.items].map((channel) => (
                <li
                  key={channel.id}
                  data-channel-id={channel.id}
                  aria-label={channel.name}
                  className="flex flex-col gap-2 border-b border-line px-4 py-3 last:border-0 md:flex-row md:items-start"
                >
                  <span className="flex w-48 shrink-0 items-center gap-2 text-sm font-medium">
                    <ChannelIcon type={channel.type} />
                    <span className={channel.type === ChannelType.GuildCategory ? "uppercase" : undefined}>
                      {channel.name}
                    </span>
                  </span>
                  <dl className="grid min-w-0 flex-1 gap-2 sm:grid-cols-2 xl:grid-cols-4">
                    {answer(channel).map((a) => (
                      <div key={a.capability} data-capability={a.capability} className="min-w-0">
                        <dt className="sr-only">{CAPABILITIES[a.capability].label}</dt>
                        <dd>
                          <Badge tone={a.granted ? "success" : "neutral"}>
                            {a.granted ? "✓" : "✕"} {CAPABILITIES[a.capability].label}
                          </Badge>
                          <p className="mt-0.5 text-xs text-ink-muted">{a.because}</p>
                          {a.clues.length > 0 && (
                            <details className="text-xs text-ink-muted">
                              <summary className="cursor-pointer">How</summary>
                              <ol className="ml-4 list-decimal">
                                {a.clues.map((clue, index) => (
                                  <li key={index}>
                                    {clue.text} {clue.effect}
                                  </li>
                                ))}
                              </ol>
                            </details>
                          )}
                        </dd>
                      </div>
                    ))}
                  </dl>
                </li>
              ))}
            </ul>
          </Card>
        ))}
    </div>
  );
}

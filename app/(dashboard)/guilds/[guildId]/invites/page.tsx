// Invites: the guild's active invites (Get Guild Invites, sorted and paged here, order and page in the URL) with their
// uses, expiry, inviter, channel and target users; creating and deleting invites, one or the selected ones at once
// (every invite listed, across pages, if the moderator says so); and each invite's target-users list (CSV upload
// checked line by line, the job followed to the end, the current list downloaded).
import type { Metadata } from "next";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer, type GuildPageProps } from "@/lib/dashboard/data/section-viewer";
import { INVITABLE_CHANNEL_TYPES } from "@/lib/dashboard/actions/schemas/invites";
import { getGuildChannels } from "@/lib/dashboard/data/channels";
import { getInvitePage, INVITE_PAGE_SIZE } from "@/lib/dashboard/data/invites";
import { can, refusal } from "@/lib/dashboard/data/viewer";
import { inviteLinkBase } from "@/lib/dashboard/data/invite-links";
import { parseInviteSort } from "@/lib/dashboard/data/invite-sorts";
import { firstParam, pageNumber } from "@/lib/dashboard/list-params";
import { getHiddenColumns } from "@/lib/dashboard/table-preferences";
import { InvitesPausedBanner } from "./_components/invites-paused-banner";
import { CreateInviteButton } from "./_components/create-invite";
import { InvitesTable, type InvitePermissions } from "./_components/invites-table";

export const metadata: Metadata = { title: "Invites" };

export default async function InvitesPage({ params, searchParams }: GuildPageProps) {
  const { guildId } = await params;
  const query = await searchParams;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "invites");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;

  const manageGuild = can(viewer, P.ManageGuild);
  const sort = parseInviteSort(firstParam(query.sort), manageGuild);
  const page = pageNumber(query.page);
  const [invites, channels, hiddenColumns] = await Promise.all([
    getInvitePage(viewer, { page, sort }),
    getGuildChannels(viewer),
    getHiddenColumns(viewer.session.actor.id, "invites"),
  ]);
  const invitable = channels
    .filter((c) => INVITABLE_CHANNEL_TYPES.includes(c.type))
    .map((c) => ({ id: c.id, name: c.name, type: c.type }));
  const permissions: InvitePermissions = {
    selfId: viewer.session.actor.id,
    manageGuild,
    deleteBlocked: refusal(viewer, "Delete Invite"),
  };
  const linkBase = inviteLinkBase();
  const first = (invites.page - 1) * INVITE_PAGE_SIZE;
  const summary =
    invites.total === 0
      ? undefined
      : `${first + 1}–${first + invites.rows.length} of ${invites.total} invite${invites.total === 1 ? "" : "s"}`;

  return (
    <>
      <PageHeader
        title="Invites"
        description={section.description}
        actions={
          <CreateInviteButton
            guildId={guildId}
            channels={invitable}
            blockedReason={refusal(viewer, "Create Channel Invite")}
            linkBase={linkBase}
          />
        }
      />
      <InvitesPausedBanner
        guildId={guildId}
        paused={viewer.guild.features.includes("INVITES_DISABLED" as never)}
        pausedUntil={viewer.guild.incidents_data?.invites_disabled_until ?? null}
        now={viewer.readAt}
      />
      <InvitesTable
        // Another page or order starts with nothing selected. The page asked for, not the one shown: revoking the
        // last invites of page 2 shows page 1, and the dialog saying what was revoked stays open.
        key={`${page}|${sort}`}
        guildId={guildId}
        rows={invites.rows}
        codes={invites.codes}
        sort={sort}
        hiddenColumns={hiddenColumns}
        permissions={permissions}
        now={invites.readAt}
        pagination={{ page: invites.page, pageCount: invites.pageCount, summary }}
        linkBase={linkBase}
      />
    </>
  );
}

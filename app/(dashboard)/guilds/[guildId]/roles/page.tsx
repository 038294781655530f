// Roles: colour, member count, hoist and mentionable for each; create, edit (permission editor grouped as Discord's),
// delete, drag to reorder. Roles at or above the moderator's highest role are read-only, with the reason.
import type { Metadata } from "next";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { PageHeader } from "@/components/ui/card";
import { NoAccessPage } from "@/components/dashboard/no-access";
import { getSectionViewer } from "@/lib/dashboard/data/section-viewer";
import { ALL_PERMISSIONS, hasPermission } from "@/lib/discord/permissions";
import { botHeldPermissions } from "@/lib/dashboard/data/bot-standing";
import { getRoleMemberCounts } from "@/lib/dashboard/data/roles";
import { roleVerdict } from "@/lib/dashboard/data/viewer";
import { RoleManager, type RoleRow } from "./_components/role-manager";

export const metadata: Metadata = { title: "Roles" };

export default async function RolesPage({ params }: { params: Promise<{ guildId: string }> }) {
  const { guildId } = await params;
  const { viewer, section, blocked } = await getSectionViewer(guildId, "roles");
  if (blocked) return <NoAccessPage section={section} reason={blocked} />;

  const counts = await getRoleMemberCounts(viewer);
  const roles: RoleRow[] = viewer.roles.map((role) => {
    const verdict = roleVerdict(viewer, role);
    const everyone = role.id === viewer.guild.id;
    return {
      id: role.id,
      name: role.name,
      color: role.color,
      position: role.position,
      permissions: role.permissions,
      hoist: role.hoist,
      mentionable: role.mentionable,
      managed: role.managed,
      everyone,
      unicodeEmoji: role.unicode_emoji ?? null,
      memberCount: everyone ? (viewer.guild.approximate_member_count ?? null) : counts ? (counts[role.id] ?? 0) : null,
      // The hierarchy decides who may move and edit a role; a managed role moves like any other (its permissions and
      // membership belong to its integration: the editor keeps those read-only).
      lockedReason: verdict.ok ? null : verdict.reason,
    };
  });
  // What the moderator may grant: their own permissions, or everything for administrators and the owner; in bot mode
  // only what the bot holds too, since it makes the change.
  const held = (permissions: bigint) => (hasPermission(permissions, P.Administrator) ? ALL_PERMISSIONS : permissions);
  const grantable =
    (viewer.isOwner ? ALL_PERMISSIONS : held(viewer.permissions)) &
    (viewer.bot ? botHeldPermissions(viewer.context, viewer.bot) : ALL_PERMISSIONS);
  return (
    <>
      <PageHeader title="Roles" description={`${section.description} Members use the colour of their highest role.`} />
      <RoleManager guildId={guildId} roles={roles} grantable={grantable.toString()} />
    </>
  );
}

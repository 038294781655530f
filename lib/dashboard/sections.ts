// The guild shell's sections, in sidebar order, with what each needs. The sidebar disables a section the
// moderator cannot use and says why ("needs Ban Members"). Extension point: a section's page lives at
// app/(dashboard)/guilds/[guildId]/<slug>/page.tsx; add or adjust entries here as sections are built. What each
// needs is the policy table's (SECTION_POLICIES in lib/discord/policies.ts), which the live stream reads too.
import { describeMissing, hasPermission } from "@/lib/discord/permissions";
import { SECTION_POLICIES, type SectionRequirement } from "@/lib/discord/policies";

export type { SectionRequirement };

/** The sidebar icon of each section, by name: the sidebar maps it to a component in components/ui/icons, whose
 *  IconName the guild layout checks this union against (lib never imports components). */
export type SectionIcon =
  | "settings"
  | "hash"
  | "tag"
  | "users"
  | "ban"
  | "scissors"
  | "widget"
  | "smile"
  | "sticker"
  | "speaker"
  | "door"
  | "compass"
  | "link"
  | "plug"
  | "shield"
  | "automod"
  | "cases"
  | "history"
  | "clock";

export interface DashboardSection {
  slug: string;
  label: string;
  icon: SectionIcon;
  /** What the section is for, in one line (page subtitle). */
  description: string;
  requires: SectionRequirement;
  group: "server" | "people" | "moderation" | "history";
}

export const DASHBOARD_SECTIONS: readonly DashboardSection[] = [
  {
    slug: "settings",
    label: "Settings",
    icon: "settings",
    group: "server",
    description: "Name, icon, channels for system messages, moderation levels and features.",
    requires: SECTION_POLICIES.settings.requires,
  },
  {
    slug: "channels",
    label: "Channels",
    icon: "hash",
    group: "server",
    description: "Categories and channels, their order, and active threads.",
    requires: SECTION_POLICIES.channels.requires,
  },
  {
    slug: "roles",
    label: "Roles",
    icon: "tag",
    group: "people",
    description: "Roles, their permissions and their order.",
    requires: SECTION_POLICIES.roles.requires,
  },
  {
    slug: "members",
    label: "Members",
    icon: "users",
    group: "people",
    description: "Find members; change nicknames and roles; time out, kick or ban.",
    requires: SECTION_POLICIES.members.requires,
  },
  {
    slug: "bans",
    label: "Bans",
    icon: "ban",
    group: "moderation",
    description: "Banned users; ban and unban, one or many.",
    requires: SECTION_POLICIES.bans.requires,
  },
  {
    slug: "cases",
    label: "Cases",
    icon: "cases",
    group: "moderation",
    description: "Every ban, kick, timeout, warning and note, numbered, with its reason and who gave it.",
    requires: SECTION_POLICIES.cases.requires,
  },
  {
    slug: "appeals",
    label: "Appeals",
    icon: "ban",
    group: "moderation",
    description: "Banned users ask to come back: read their answers, accept (unban) or reject with a message.",
    requires: SECTION_POLICIES.appeals.requires,
  },
  {
    slug: "prune",
    label: "Prune",
    icon: "scissors",
    group: "moderation",
    description: "Remove inactive members.",
    requires: SECTION_POLICIES.prune.requires,
  },
  {
    slug: "events",
    label: "Events",
    icon: "clock",
    group: "server",
    description: "Scheduled events: stage, voice and external; start, end or cancel them.",
    requires: SECTION_POLICIES.events.requires,
  },
  {
    slug: "widget",
    label: "Widget",
    icon: "widget",
    group: "server",
    description: "The server widget and its invite channel.",
    requires: SECTION_POLICIES.widget.requires,
  },
  {
    slug: "emoji",
    label: "Emoji",
    icon: "smile",
    group: "server",
    description: "Custom emoji: upload several at once, rename them, see who uploaded each.",
    requires: SECTION_POLICIES.emoji.requires,
  },
  {
    slug: "stickers",
    label: "Stickers",
    icon: "sticker",
    group: "server",
    description: "Custom stickers for the server's messages.",
    requires: SECTION_POLICIES.stickers.requires,
  },
  {
    slug: "soundboard",
    label: "Soundboard",
    icon: "speaker",
    group: "server",
    description: "Short sounds members play in voice channels.",
    requires: SECTION_POLICIES.soundboard.requires,
  },
  {
    slug: "welcome-screen",
    label: "Welcome screen",
    icon: "door",
    group: "server",
    description: "What new members see first.",
    requires: SECTION_POLICIES["welcome-screen"].requires,
  },
  {
    slug: "onboarding",
    label: "Onboarding",
    icon: "compass",
    group: "server",
    description: "Default channels and onboarding questions.",
    requires: SECTION_POLICIES.onboarding.requires,
  },
  {
    slug: "invites",
    label: "Invites",
    icon: "link",
    group: "moderation",
    description: "Active invites and who may use them.",
    requires: SECTION_POLICIES.invites.requires,
  },
  {
    slug: "integrations",
    label: "Integrations",
    icon: "plug",
    group: "server",
    description: "Bots and connected services.",
    requires: SECTION_POLICIES.integrations.requires,
  },
  {
    slug: "safety",
    label: "Safety",
    icon: "shield",
    group: "moderation",
    description: "Pause invites and DMs during a raid.",
    requires: SECTION_POLICIES.safety.requires,
  },
  {
    slug: "automod",
    label: "AutoMod",
    icon: "automod",
    group: "moderation",
    description:
      "Rules that block words, spam and mention spam in messages, and words in member names, before anyone sees them.",
    requires: SECTION_POLICIES.automod.requires,
  },
  {
    slug: "audit-history",
    label: "Audit history",
    icon: "history",
    group: "history",
    description:
      "Every change to the server, from this dashboard, bots and other clients: who, what, why, before and after.",
    requires: SECTION_POLICIES["audit-history"].requires,
  },
];

export const SECTION_GROUPS: ReadonlyArray<{ id: DashboardSection["group"]; label: string }> = [
  { id: "server", label: "Server" },
  { id: "people", label: "People" },
  { id: "moderation", label: "Moderation" },
  { id: "history", label: "History" },
];

export function findSection(slug: string): DashboardSection | undefined {
  return DASHBOARD_SECTIONS.find((section) => section.slug === slug);
}

/** null when the moderator may open the section, else why not ("needs Ban Members", "needs one of …"). */
export function sectionDisabledReason(section: Pick<DashboardSection, "requires">, permissions: bigint): string | null {
  const { all = [], any = [] } = section.requires;
  const missingAll = describeMissing(
    permissions,
    all.reduce((a, b) => a | b, 0n),
  );
  if (missingAll) return missingAll;
  if (any.length > 0 && !any.some((flag) => hasPermission(permissions, flag))) {
    const labels = any.map((flag) => describeMissing(0n, flag)!.slice("needs ".length));
    return labels.length <= 3
      ? `needs ${labels.join(" or ")}`
      : `needs ${labels.slice(0, 3).join(", ")} or another moderation permission`;
  }
  return null;
}

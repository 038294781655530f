// What a gateway dispatch changes for the dashboard: which sections' pages show its data (so open pages of those
// sections refresh), who made the change (an audit-log entry event names its user), and whose membership ended (a
// moderator removed or banned from the guild loses its live view). What each viewer is then sent of a change is the
// policy table's (SECTION_POLICIES in lib/discord/policies.ts): the sections they may see, and who acted only with
// View Audit Log. Pure, so unit tests and the client can use it.
import {
  ACTORS_REQUIREMENT,
  meetsRequirement,
  maySeeSection,
  pageOfSection,
  type DispatchName,
  type SectionName,
} from "@/lib/discord/policies";

/** The dashboard's sections (slugs, as in lib/dashboard/sections.ts) and the guild's overview page. */
export const OVERVIEW = "overview";

/**
 * "all": every page of the guild (the guild itself, or the roles that decide what a moderator may do, changed). A list
 * names sections of the policy table; the overview's audit-log cards are "overview/audit-log" until a viewer's page
 * is named (sectionsForViewer).
 */
export type AffectedSections = readonly string[] | "all";

/** The overview's cards read from the audit log (recent moderation, removals per day): View Audit Log only. */
const OVERVIEW_AUDIT_LOG: SectionName = "overview/audit-log";
const CHANNEL_PAGES: readonly SectionName[] = [
  "channels",
  "settings",
  "widget",
  "welcome-screen",
  "onboarding",
  "invites",
  "safety",
  OVERVIEW,
];
const MEMBER_PAGES: readonly SectionName[] = ["members", "prune", OVERVIEW];

/**
 * The sections each dispatch the gateway can send concerns: one entry per dispatch of the gateway's policy table
 * (an empty list concerns no page), so a new dispatch cannot reach the stream without one.
 */
const SECTIONS_BY_DISPATCH: Readonly<Record<DispatchName, readonly SectionName[] | "all">> = {
  READY: [],
  RESUMED: [],
  GUILD_MEMBERS_CHUNK: [],
  GUILD_CREATE: [],
  GUILD_UPDATE: "all",
  GUILD_DELETE: "all",
  // Roles decide every moderator's permissions (the sidebar's disabled sections) and appear on most pages.
  GUILD_ROLE_CREATE: "all",
  GUILD_ROLE_UPDATE: "all",
  GUILD_ROLE_DELETE: "all",
  CHANNEL_CREATE: CHANNEL_PAGES,
  CHANNEL_UPDATE: CHANNEL_PAGES,
  CHANNEL_DELETE: CHANNEL_PAGES,
  THREAD_UPDATE: ["channels"],
  THREAD_DELETE: ["channels"],
  GUILD_MEMBER_ADD: MEMBER_PAGES,
  GUILD_MEMBER_UPDATE: MEMBER_PAGES,
  GUILD_MEMBER_REMOVE: MEMBER_PAGES,
  // The overview's member count moves with GUILD_MEMBER_REMOVE, its moderation cards with the audit-log entry.
  GUILD_BAN_ADD: ["bans", "members"],
  GUILD_BAN_REMOVE: ["bans", "members"],
  GUILD_AUDIT_LOG_ENTRY_CREATE: ["audit-history", "bans", "prune", OVERVIEW_AUDIT_LOG],
  GUILD_INTEGRATIONS_UPDATE: ["integrations"],
  INTEGRATION_CREATE: ["integrations"],
  INTEGRATION_UPDATE: ["integrations"],
  INTEGRATION_DELETE: ["integrations"],
  INVITE_CREATE: ["invites", OVERVIEW],
  INVITE_DELETE: ["invites", OVERVIEW],
  VOICE_STATE_UPDATE: ["members"],
  AUTO_MODERATION_RULE_CREATE: ["automod"],
  AUTO_MODERATION_RULE_UPDATE: ["automod"],
  AUTO_MODERATION_RULE_DELETE: ["automod"],
  // A member-profile rule's block shows in the members table (its flag comes with the GUILD_MEMBER_UPDATE).
  AUTO_MODERATION_ACTION_EXECUTION: [],
  // A sound's emoji is one of the guild's emoji: the soundboard page shows it.
  GUILD_EMOJIS_UPDATE: ["emoji", "soundboard"],
  GUILD_STICKERS_UPDATE: ["stickers"],
  GUILD_SOUNDBOARD_SOUND_CREATE: ["soundboard"],
  GUILD_SOUNDBOARD_SOUND_UPDATE: ["soundboard"],
  GUILD_SOUNDBOARD_SOUND_DELETE: ["soundboard"],
  GUILD_SCHEDULED_EVENT_CREATE: ["events"],
  GUILD_SCHEDULED_EVENT_UPDATE: ["events"],
  GUILD_SCHEDULED_EVENT_DELETE: ["events"],
  // The interested count on the events page.
  GUILD_SCHEDULED_EVENT_USER_ADD: ["events"],
  GUILD_SCHEDULED_EVENT_USER_REMOVE: ["events"],
};

/** The dispatches the live stream has sections for (all the gateway's), for the table's test. */
export const LIVE_DISPATCHES: readonly string[] = Object.keys(SECTIONS_BY_DISPATCH);

export function sectionsOf(type: string): AffectedSections {
  return Object.hasOwn(SECTIONS_BY_DISPATCH, type) ? SECTIONS_BY_DISPATCH[type as DispatchName] : [];
}

/** The union of two sets of affected sections. */
export function mergeSections(a: AffectedSections, b: AffectedSections): AffectedSections {
  if (a === "all" || b === "all") return "all";
  return [...new Set([...a, ...b])];
}

/** Whether a page of `section` shows data that changed. */
export function affects(sections: AffectedSections, section: string): boolean {
  return sections === "all" || sections.includes(section);
}

/**
 * The pages of a change a viewer with these guild-wide permissions may see: each section they may see (by the policy
 * table), named by the page that shows it. "all" stays "all": every page the viewer can open.
 */
export function sectionsForViewer(sections: AffectedSections, permissions: bigint): AffectedSections {
  if (sections === "all") return "all";
  const pages = sections
    .filter((section) => maySeeSection(section, permissions))
    .map((section) => pageOfSection(section as SectionName));
  return [...new Set(pages)];
}

/** Whether a viewer may be told who made a change (the policy table's ACTORS_REQUIREMENT: View Audit Log). */
export function mayKnowActors(permissions: bigint): boolean {
  return meetsRequirement(permissions, ACTORS_REQUIREMENT);
}

/** The section a dashboard path shows: /guilds/{id}/{slug}/… → slug; /guilds/{id} → the overview. */
export function sectionOfPath(pathname: string): string {
  const [, guilds, , slug] = pathname.split("/");
  return guilds === "guilds" && slug ? slug : OVERVIEW;
}

interface DispatchData {
  guild_id?: unknown;
  id?: unknown;
  user_id?: unknown;
  user?: { id?: unknown };
}

/** The guild a dispatch belongs to (GUILD_* carry it as `id` or `guild_id`), or null. */
export function guildOf(type: string, data: unknown): string | null {
  const d = (data ?? {}) as DispatchData;
  if (typeof d.guild_id === "string") return d.guild_id;
  if ((type === "GUILD_UPDATE" || type === "GUILD_DELETE") && typeof d.id === "string") return d.id;
  return null;
}

/** How the dashboard stamps its reasons in bot mode: "name (id)" or "name (id): reason" (actions/action-client.ts). */
const STAMPED_MODERATOR = /^.{0,100} \((\d{1,20})\)(?::|$)/s;

/**
 * Who made the change: the user of an audit-log entry event (nobody is named by the other dispatches). When that user
 * is the dashboard's own bot (bot mode), the moderator the dashboard stamped into the reason made it.
 */
export function actorOf(type: string, data: unknown, ownBotId: string | null = null): string | null {
  const d = (data ?? {}) as DispatchData & { reason?: unknown };
  if (type !== "GUILD_AUDIT_LOG_ENTRY_CREATE" || typeof d.user_id !== "string") return null;
  if (d.user_id === ownBotId && typeof d.reason === "string") {
    const stamped = STAMPED_MODERATOR.exec(d.reason);
    if (stamped) return stamped[1];
  }
  return d.user_id;
}

/** A member whose membership this dispatch ends (removed, kicked or banned). */
export function departedUserOf(type: string, data: unknown): string | null {
  const d = (data ?? {}) as DispatchData;
  if (type !== "GUILD_MEMBER_REMOVE" && type !== "GUILD_BAN_ADD") return null;
  return typeof d.user?.id === "string" ? d.user.id : null;
}

/** A member whose guild-wide permissions this dispatch may have changed (their roles or timeout). */
export function updatedMemberOf(type: string, data: unknown): string | null {
  const d = (data ?? {}) as DispatchData;
  if (type !== "GUILD_MEMBER_UPDATE") return null;
  return typeof d.user?.id === "string" ? d.user.id : null;
}

// What a gateway dispatch changes for the dashboard: which sections' pages show its data (so open pages of those
// sections refresh), who made the change (an audit-log entry event names its user), and whose membership ended (a
// moderator removed or banned from the guild loses its live view). Pure, so unit tests and the client can use it.

/** The dashboard's sections (slugs, as in lib/dashboard/sections.ts) and the guild's overview page. */
export const OVERVIEW = "overview";

/** "all": every page of the guild (the guild itself, or the roles that decide what a moderator may do, changed). */
export type AffectedSections = readonly string[] | "all";

/** The pages each dispatch concerns. A dispatch not listed concerns no page. */
const SECTIONS_BY_DISPATCH: Readonly<Record<string, AffectedSections>> = {
  GUILD_UPDATE: "all",
  GUILD_DELETE: "all",
  // Roles decide every moderator's permissions (the sidebar's disabled sections) and appear on most pages.
  GUILD_ROLE_CREATE: "all",
  GUILD_ROLE_UPDATE: "all",
  GUILD_ROLE_DELETE: "all",
  CHANNEL_CREATE: ["channels", "settings", "widget", "welcome-screen", "onboarding", "invites", "safety", OVERVIEW],
  CHANNEL_UPDATE: ["channels", "settings", "widget", "welcome-screen", "onboarding", "invites", "safety", OVERVIEW],
  CHANNEL_DELETE: ["channels", "settings", "widget", "welcome-screen", "onboarding", "invites", "safety", OVERVIEW],
  THREAD_UPDATE: ["channels"],
  THREAD_DELETE: ["channels"],
  GUILD_MEMBER_ADD: ["members", "prune", OVERVIEW],
  GUILD_MEMBER_UPDATE: ["members", "prune", OVERVIEW],
  GUILD_MEMBER_REMOVE: ["members", "prune", OVERVIEW],
  GUILD_BAN_ADD: ["bans", "members", OVERVIEW],
  GUILD_BAN_REMOVE: ["bans", "members", OVERVIEW],
  GUILD_AUDIT_LOG_ENTRY_CREATE: ["audit-history", "bans", "prune", OVERVIEW],
  GUILD_INTEGRATIONS_UPDATE: ["integrations"],
  INTEGRATION_DELETE: ["integrations"],
  INVITE_CREATE: ["invites", OVERVIEW],
  INVITE_DELETE: ["invites", OVERVIEW],
  VOICE_STATE_UPDATE: ["members"],
};

export function sectionsOf(type: string): AffectedSections {
  return SECTIONS_BY_DISPATCH[type] ?? [];
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

// Raid cleanup's filter (issue #32): the members who joined within a window (to the minute), whose accounts were
// younger than a given age when they joined (a raid's accounts are made just before it, however long ago it was),
// who have no avatar, and whose username, global name or nickname matches a pattern. The
// pattern runs on a linear-time engine (RE2, as re2js: no backreferences or lookaround, refused with the engine's
// message), so a moderator's pattern cannot stall the server however the names read. Pure: the members page's raid
// form checks a pattern as it is typed, and the server filters with the same function.
import type { RE2JS } from "re2js";
import { z } from "zod";
import { compileRegex } from "@/lib/discord/automod/regex";
import { snowflakeTimestamp } from "@/lib/discord/snowflake";

/** A pattern's length, as Discord caps AutoMod's regular expressions. */
export const RAID_PATTERN_MAX = 260;
/** The widest join window: a raid is minutes to hours; a week keeps the scan bounded. */
export const RAID_WINDOW_MAX_MS = 7 * 86_400_000;

export interface RaidCandidate {
  id: string;
  username: string;
  globalName: string | null;
  nick: string | null;
  avatar: string | null;
  /** ISO time the member joined the server. */
  joinedAt: string;
}

/** The pattern compiled, or why the engine refuses it. */
export function compileNamePattern(pattern: string): { ok: true; regex: RE2JS } | { ok: false; error: string } {
  const compiled = compileRegex(pattern, { ignoreCase: true });
  return compiled.ok ? compiled : { ok: false, error: compiled.message };
}

const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:00(\.000)?)?Z$/;

export const RaidFilterSchema = z
  .object({
    /** The join window, UTC, to the minute. */
    joinedFrom: z.string().regex(MINUTE, "A time to the minute, in UTC."),
    joinedTo: z.string().regex(MINUTE, "A time to the minute, in UTC."),
    /** Accounts created less than this many days before they joined; null: any age. */
    accountYoungerThanDays: z.coerce.number().int().min(1).max(3650).nullable().default(null),
    noAvatar: z.boolean().default(false),
    /** A pattern matched anywhere in the username, global name or nickname, ignoring case; "" for none. */
    namePattern: z.string().max(RAID_PATTERN_MAX, `At most ${RAID_PATTERN_MAX} characters.`).default(""),
  })
  .superRefine((value, ctx) => {
    const from = Date.parse(value.joinedFrom);
    const to = Date.parse(value.joinedTo);
    if (to <= from) ctx.addIssue({ code: "custom", path: ["joinedTo"], message: "End after the start." });
    else if (to - from > RAID_WINDOW_MAX_MS)
      ctx.addIssue({ code: "custom", path: ["joinedTo"], message: "At most 7 days between start and end." });
    if (value.namePattern) {
      const compiled = compileNamePattern(value.namePattern);
      if (!compiled.ok) ctx.addIssue({ code: "custom", path: ["namePattern"], message: compiled.error });
    }
  });

export type RaidFilter = z.output<typeof RaidFilterSchema>;

/** The oldest account a member who joined at `joinedAt` may have to match `filter`'s age (ms), or null for any. */
export function oldestAccountAt(filter: Pick<RaidFilter, "accountYoungerThanDays">, joinedAt: number): number | null {
  return filter.accountYoungerThanDays === null ? null : joinedAt - filter.accountYoungerThanDays * 86_400_000;
}

/** A predicate over candidates for `filter` (already validated). */
export function raidMatcher(filter: RaidFilter): (member: RaidCandidate) => boolean {
  const from = Date.parse(filter.joinedFrom);
  // The window is inclusive of its last minute.
  const to = Date.parse(filter.joinedTo) + 59_999;
  const compiled = filter.namePattern ? compileNamePattern(filter.namePattern) : null;
  if (compiled && !compiled.ok) throw new Error(compiled.error);
  const regex = compiled?.ok ? compiled.regex : null;
  return (member) => {
    const joined = Date.parse(member.joinedAt);
    if (!(joined >= from && joined <= to)) return false;
    const oldest = oldestAccountAt(filter, joined);
    if (oldest !== null && snowflakeTimestamp(member.id) < oldest) return false;
    if (filter.noAvatar && member.avatar) return false;
    if (regex && ![member.username, member.globalName, member.nick].some((name) => name && regex.test(name)))
      return false;
    return true;
  };
}

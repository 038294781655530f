// The guild as one moderator last read it (Get Guild and their own member), kept for a few seconds per session in this
// server process. Every dashboard page needs it before its first byte: the guild shell and the real 404 of an unknown
// guild cannot be streamed. Moving between sections, or reloading, within the window then costs no API call before
// the first byte. Only successful reads are kept, so an unknown guild is asked about every time (and answered 404).
// The dashboard's own changes to a guild drop its entries at once (guild-action.ts), so a moderator sees their own
// saves immediately; a change made elsewhere (another moderator, Discord's client) shows after at most FRESH_MS. The
// API still judges every call by the moderator's current permissions: this only feeds what the pages display.
import "server-only";
import type { APIGuild, APIGuildMember } from "discord-api-types/v10";
import type { PermissionMember } from "@/lib/discord/permissions";

export interface GuildRead {
  guild: APIGuild;
  member: APIGuildMember;
  /** In bot mode, the bot's own member (bot-standing.ts): what Discord judges. */
  bot?: PermissionMember | null;
}

/** How long a read is reused. */
export const FRESH_MS = 3_000;
/** Sessions × guilds kept at most; the oldest entry leaves first. */
const MAX_ENTRIES = 1_000;

type Entries = Map<string, { read: GuildRead; at: number }>;
/**
 * One table per process, on globalThis: Next bundles route handlers (the live stream, whose changes forget reads)
 * apart from pages and server actions, and module state is not shared between bundles.
 */
const ENTRIES_KEY = Symbol.for("guildhall.guildReadCache");
const entries: Entries = ((globalThis as { [ENTRIES_KEY]?: Entries })[ENTRIES_KEY] ??= new Map());
const keyOf = (sessionToken: string, guildId: string) => `${guildId}:${sessionToken}`;

/** The moderator's read of the guild, from the last FRESH_MS when there is one, else from `read()`. */
export async function readGuildThroughCache(
  sessionToken: string,
  guildId: string,
  read: () => Promise<GuildRead>,
  now: () => number = Date.now,
): Promise<GuildRead> {
  const key = keyOf(sessionToken, guildId);
  const kept = entries.get(key);
  if (kept && now() - kept.at < FRESH_MS) return kept.read;
  const fresh = await read();
  entries.delete(key);
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  entries.set(key, { read: fresh, at: now() });
  return fresh;
}

/** Drops every moderator's read of the guild: the dashboard has just changed it. */
export function forgetGuildReads(guildId: string): void {
  const prefix = `${guildId}:`;
  for (const key of entries.keys()) if (key.startsWith(prefix)) entries.delete(key);
}

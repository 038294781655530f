// The appellant's ban as the guild's acting grant reads it (the moderator's stored grant, or the bot), for the appeal
// page and its action. Read at most once per BAN_LOOKUP_TTL_MS per guild and user in this process: anyone can sign in
// with `identify` and reload the page or call its action in a loop, and every read would spend the acting grant's
// rate limit with the guild API. A decision forgets the user's entry, so an accepted appeal shows at once.
import "server-only";
import { GuildApiError } from "@/lib/api-client";
import { apiActingFor } from "@/lib/dashboard/data/acting-api";

export type AppellantBan = { banned: true; reason: string | null } | { banned: false } | { unknown: string };

const BAN_LOOKUP_TTL_MS = 30_000;
/** Entries kept at most (the oldest go first): a flood of sign-ins cannot grow the map without end. */
const MAX_ENTRIES = 10_000;

const lookups = new Map<string, { at: number; ban: Promise<AppellantBan> }>();

async function read(guildId: string, actorId: string, userId: string): Promise<AppellantBan> {
  try {
    const ban = await (await apiActingFor(actorId)).bans.get(guildId, userId);
    return { banned: true, reason: ban.reason ?? null };
  } catch (error) {
    if (error instanceof GuildApiError && error.status === 404) return { banned: false };
    return { unknown: "Your ban could not be checked just now. Try again later." };
  }
}

export function appellantBan(
  guildId: string,
  actorId: string,
  userId: string,
  now = Date.now(),
): Promise<AppellantBan> {
  const key = `${guildId}:${userId}`;
  const kept = lookups.get(key);
  if (kept && now - kept.at < BAN_LOOKUP_TTL_MS) return kept.ban;
  lookups.delete(key);
  const ban = read(guildId, actorId, userId);
  lookups.set(key, { at: now, ban });
  // An answer that says nothing (the API was away) is not kept.
  void ban.then((value) => "unknown" in value && lookups.get(key)?.ban === ban && lookups.delete(key));
  while (lookups.size > MAX_ENTRIES) lookups.delete(lookups.keys().next().value!);
  return ban;
}

/** The user's ban changed (an appeal decided): the next read asks the API. */
export function forgetAppellantBan(guildId: string, userId: string): void {
  lookups.delete(`${guildId}:${userId}`);
}

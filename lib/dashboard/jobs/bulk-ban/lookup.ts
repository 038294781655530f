// What the bulk-ban job needs to know about ids, read through the guild API: banned or not, member or not (with
// their roles). A few requests in flight at a time, so a 5,000-id preview neither floods the API nor takes long.
import type { APIUser } from "discord-api-types/v10";
import { GuildApiError, type GuildApiClient } from "@/lib/api-client";
import type { TargetLookup } from "./classify";

const LOOKUP_CONCURRENCY = 8;

/** fn over every item with at most `limit` calls in flight; results in input order. */
export async function mapWithConcurrency<T, R>(
  items: readonly T[],
  fn: (item: T) => Promise<R>,
  limit = LOOKUP_CONCURRENCY,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

const notFound = (error: unknown) => error instanceof GuildApiError && error.status === 404;

/** The ban's user when banned, else null. */
async function findBan(api: GuildApiClient, guildId: string, userId: string) {
  try {
    return (await api.bans.get(guildId, userId)).user;
  } catch (error) {
    if (notFound(error)) return null;
    throw error;
  }
}

export async function isBanned(api: GuildApiClient, guildId: string, userId: string): Promise<boolean> {
  return (await findBan(api, guildId, userId)) !== null;
}

/**
 * A banned user is not a member, so their membership is only read when they are not banned. The user object either
 * read returned comes along, so the preview learns who each id is without asking again.
 */
export async function lookupTarget(
  api: GuildApiClient,
  guildId: string,
  userId: string,
): Promise<TargetLookup & { user: APIUser | null }> {
  const bannedUser = await findBan(api, guildId, userId);
  if (bannedUser) return { banned: true, member: null, user: bannedUser };
  try {
    const member = await api.members.get(guildId, userId);
    return {
      user: member.user,
      banned: false,
      member: {
        userId,
        roleIds: member.roles,
        communicationDisabledUntil: member.communication_disabled_until ?? null,
      },
    };
  } catch (error) {
    if (notFound(error)) return { banned: false, member: null, user: null };
    throw error;
  }
}

export const lookupTargets = (api: GuildApiClient, guildId: string, userIds: readonly string[]) =>
  mapWithConcurrency(userIds, (id) => lookupTarget(api, guildId, id));

/**
 * Why Bulk Guild Ban listed an id in failed_users (the API does not say): banned already (by someone else since
 * the preview), still a member (the API's hierarchy refused), or neither (most likely no such user).
 */
export async function explainFailure(api: GuildApiClient, guildId: string, userId: string): Promise<string> {
  const target = await lookupTarget(api, guildId, userId);
  if (target.banned) return "already banned";
  if (target.member) return "refused by the API: role not below the banning account's";
  return "refused by the API: unknown user";
}

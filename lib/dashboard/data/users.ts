// Names for user ids on every page: the batched, cached lookup (lib/dashboard/users/directory.ts) with Get User
// through the api-client. One directory per server process (shared by requests, short TTL) and, within one request,
// the same answer for the same id however many components ask.
import "server-only";
import { cache } from "react";
import { GuildApiError, type GuildApiClient } from "@/lib/api-client";
import { UserDirectory, type ApiUserLike } from "@/lib/dashboard/users/directory";
import type { UserRef, UserRefs } from "@/lib/dashboard/users/user-ref";
import { isSnowflake } from "@/lib/discord/snowflake";
import { userAvatarUrl } from "./cdn";

const directory = new UserDirectory({ avatarUrl: userAvatarUrl });

/** Per request: ids already answered in this render, so two components never disagree or ask twice. */
const requestRefs = cache((): UserRefs => ({}));

/** A user the API returned (a member's, an integration's), as shown, and remembered for later lookups. */
export function userRef(user: ApiUserLike): UserRef {
  directory.prime([user]);
  return directory.toRef(user);
}

/** Users the API returned elsewhere (members, bans, audit log pages) are remembered without a request. */
export function rememberUsers(users: Iterable<ApiUserLike>): void {
  directory.prime(users);
}

/** Who each id is (avatar, name); ids that are not snowflakes are shown as they are, never looked up. */
export async function lookupUsers(api: GuildApiClient, ids: Iterable<string>): Promise<UserRefs> {
  const all = [...new Set(ids)];
  const known = requestRefs();
  const wanted = all.filter((id) => isSnowflake(id) && id !== "0" && !known[id]);
  if (wanted.length > 0) {
    const found = await directory.lookup(wanted, async (id) => {
      try {
        return await api.users.get(id);
      } catch (error) {
        if (error instanceof GuildApiError && error.status === 404) return null;
        throw error;
      }
    });
    Object.assign(known, found);
  }
  const out: UserRefs = {};
  for (const id of all) if (known[id]) out[id] = known[id];
  return out;
}

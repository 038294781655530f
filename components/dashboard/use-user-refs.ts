"use client";

// Names for ids a client list shows, fetched from the dashboard's own lookup (GET /guilds/{id}/users, 100 ids per
// request) as rows come into view; ids already answered are not asked again.
import { useEffect, useState } from "react";
import type { UserRefs } from "@/lib/dashboard/users/user-ref";

const BATCH = 100;

export function useUserRefs(guildId: string, ids: readonly string[]): UserRefs {
  const [refs, setRefs] = useState<UserRefs>({});
  const key = ids.join(",");
  useEffect(() => {
    const missing = key.split(",").filter((id) => id && !refs[id]);
    if (missing.length === 0) return;
    const controller = new AbortController();
    (async () => {
      for (let i = 0; i < missing.length; i += BATCH) {
        const batch = missing.slice(i, i + BATCH);
        const response = await fetch(`/guilds/${guildId}/users?ids=${batch.join(",")}`, {
          signal: controller.signal,
        }).catch(() => null);
        if (!response?.ok) return;
        const { users } = (await response.json()) as { users: UserRefs };
        setRefs((known) => ({ ...known, ...users }));
      }
    })();
    return () => controller.abort();
    // refs is read only to skip ids already known; asking again when it changes would loop.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [guildId, key]);
  return refs;
}

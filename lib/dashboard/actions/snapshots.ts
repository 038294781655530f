// Snapshot helpers for the audit history: the fields a change touched, images as their hashes (never the bytes).
export function pick<T extends object>(source: T, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) out[key] = (source as Record<string, unknown>)[key] ?? null;
  return out;
}

/** A data URI shortened to what a person can read in a history entry. */
export function describeDataUri(value: unknown): unknown {
  if (typeof value !== "string" || !value.startsWith("data:")) return value;
  const type = value.slice(5, value.indexOf(";"));
  const bytes = Math.floor(((value.length - value.indexOf(",") - 1) * 3) / 4);
  return `${type} upload (${Math.max(1, Math.round(bytes / 1024))} KB)`;
}

interface ApiUserName {
  username: string;
  global_name?: string | null;
}

/** A user as a snapshot keeps them, for the history's names (the `user` key is never shown as a change). */
export const userSnapshot = (user: ApiUserName) => ({ username: user.username, global_name: user.global_name ?? null });

/** A member's user as a snapshot keeps them, with the nickname they had then (the Target filter finds it). */
export const memberUserSnapshot = (member: { user: ApiUserName; nick?: string | null }) => ({
  ...userSnapshot(member.user),
  nick: member.nick ?? null,
});

/**
 * Every name the user of these snapshots (or API members) went by: username, global name, and the member's nickname
 * (the snapshot's, or a member's own `nick`: a nickname change's before and after give the old and the new).
 */
export function snapshotUserAliases(...snapshots: unknown[]): string[] {
  const names: string[] = [];
  for (const snapshot of snapshots) {
    if (!snapshot || typeof snapshot !== "object") continue;
    const { user, nick } = snapshot as { user?: Partial<ApiUserName> & { nick?: unknown }; nick?: unknown };
    for (const name of [user?.username, user?.global_name, user?.nick, nick])
      if (typeof name === "string" && name && !names.includes(name)) names.push(name);
  }
  return names;
}

/** The name of a snapshot's user as the API gave it (global name, else username), or null when it has none. */
export function snapshotUserName(snapshot: unknown): string | null {
  const user = (snapshot as { user?: Partial<ApiUserName> } | null | undefined)?.user;
  return user?.global_name || user?.username || null;
}

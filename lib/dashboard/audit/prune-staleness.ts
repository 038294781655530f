// Whether a prune preview still describes the server: not once a prune has run since it, members were kicked or
// banned, members' roles changed (all seen in the audit history, which holds the guild's own log too), or the member
// count moved (joins and leaves, which no audit log records). A stale preview says why and offers to preview again;
// the run refuses it.
import { prisma } from "@/lib/dashboard/db";
import type { PrunePreviewView } from "@/lib/dashboard/actions/schemas/prune";

/** The history's actions that change who a prune would remove. */
const PRUNE_RELEVANT = {
  prune: ["Begin Guild Prune"],
  // A dashboard bulk ban's single bans are in the history one by one (imported from the guild's log); its chunk
  // entries would count them twice. Any leave shows in the member count besides.
  left: ["Remove Guild Member", "Create Guild Ban"],
  roles: ["Modify Guild Member Roles", "Modify Guild Member", "Delete Guild Role"],
} as const;

export interface HistoryChange {
  action: string;
  createdAt: string;
  /** Modify Guild Member counts only when it changed roles. */
  changedRoles: boolean;
  /** How many users it covers (a bulk-ban chunk many). */
  users: number;
}

/** Why the preview no longer holds, in words; empty while it does. Pure. */
export function stalenessReasons(
  preview: Pick<PrunePreviewView, "createdAt" | "memberCount">,
  changes: readonly HistoryChange[],
  memberCountNow: number | null,
  /** The reader's locale for the counts (the server's own when none is given). */
  locale?: string,
): string[] {
  const count = new Intl.NumberFormat(locale);
  const plural = (n: number, word: string) => `${count.format(n)} ${word}${n === 1 ? "" : "s"}`;
  const since = Date.parse(preview.createdAt);
  const after = changes.filter((c) => Date.parse(c.createdAt) > since);
  const reasons: string[] = [];
  if (after.some((c) => (PRUNE_RELEVANT.prune as readonly string[]).includes(c.action)))
    reasons.push("a prune ran since");
  const left = after
    .filter((c) => (PRUNE_RELEVANT.left as readonly string[]).includes(c.action))
    .reduce((n, c) => n + c.users, 0);
  if (left > 0) reasons.push(`${plural(left, "member")} kicked or banned since`);
  const roles = after.filter(
    (c) =>
      c.action === "Delete Guild Role" ||
      c.action === "Modify Guild Member Roles" ||
      (c.action === "Modify Guild Member" && c.changedRoles),
  ).length;
  if (roles > 0) reasons.push(`${plural(roles, "role change")} since`);
  if (preview.memberCount !== null && memberCountNow !== null && memberCountNow !== preview.memberCount)
    reasons.push(`members joined or left (${count.format(preview.memberCount)} → ${count.format(memberCountNow)})`);
  return reasons;
}

const hasRoles = (json: string | null) => {
  if (!json) return false;
  try {
    const value = JSON.parse(json) as Record<string, unknown>;
    return "roles" in value || "$add" in value || "$remove" in value;
  } catch {
    return false;
  }
};

/** The history's prune-relevant changes since `since` (the oldest preview that may still be used). */
export async function pruneRelevantChanges(guildId: string, since: Date): Promise<HistoryChange[]> {
  const rows = await prisma.auditHistoryEntry.findMany({
    where: {
      guildId,
      status: "success",
      createdAt: { gt: since },
      action: { in: [...PRUNE_RELEVANT.prune, ...PRUNE_RELEVANT.left, ...PRUNE_RELEVANT.roles] },
    },
    select: { action: true, createdAt: true, request: true, after: true },
    orderBy: { createdAt: "desc" },
    take: 2_000,
  });
  return rows.map((row) => {
    const request = row.request ? (JSON.parse(row.request) as { user_ids?: unknown[] }) : null;
    return {
      action: row.action,
      createdAt: row.createdAt.toISOString(),
      changedRoles: hasRoles(row.request) || hasRoles(row.after),
      users: Array.isArray(request?.user_ids) ? request.user_ids.length : 1,
    };
  });
}

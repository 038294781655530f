// Ban appeals in the dashboard's tables (issue #32): each guild's form (appeal_settings), the appeals (ban_appeals),
// and the per-user turn (appeal_limits) that keeps one open appeal per user and a week between a decision and the
// next appeal, judged in the transaction that writes the appeal (the user's limit row is written first, so two
// submissions take turns on it).
import type { Prisma } from "@/lib/generated/prisma";
import { prisma } from "@/lib/dashboard/db";
import { APPEAL_WAIT_AFTER_DECISION_MS, DEFAULT_APPEAL_QUESTIONS } from "./schemas";

export interface AppealSettingsView {
  enabled: boolean;
  showReason: boolean;
  questions: string[];
  /** Who saved them last: their grant reads appellants' bans in user mode. */
  actorId: string | null;
  actorName: string | null;
}

export async function getAppealSettings(guildId: string): Promise<AppealSettingsView> {
  const row = await prisma.appealSettings.findUnique({ where: { guildId } });
  if (!row)
    return {
      enabled: false,
      showReason: true,
      questions: [...DEFAULT_APPEAL_QUESTIONS],
      actorId: null,
      actorName: null,
    };
  return {
    enabled: row.enabled,
    showReason: row.showReason,
    questions: JSON.parse(row.questions) as string[],
    actorId: row.actorId,
    actorName: row.actorName,
  };
}

export async function saveAppealSettings(
  guildId: string,
  actor: { id: string; name: string },
  settings: { enabled: boolean; showReason: boolean; questions: string[] },
): Promise<void> {
  const data = {
    enabled: settings.enabled,
    showReason: settings.showReason,
    questions: JSON.stringify(settings.questions),
    actorId: actor.id,
    actorName: actor.name,
  };
  await prisma.appealSettings.upsert({ where: { guildId }, create: { guildId, ...data }, update: data });
}

export interface AppealView {
  id: string;
  userId: string;
  userName: string;
  answers: Array<{ question: string; answer: string }>;
  status: "open" | "accepted" | "rejected";
  banReason: string | null;
  createdAt: string;
  decidedAt: string | null;
  moderatorName: string | null;
  message: string | null;
}

function toView(row: Prisma.BanAppealGetPayload<object>): AppealView {
  return {
    id: row.id,
    userId: row.userId,
    userName: row.userName,
    answers: JSON.parse(row.answers) as AppealView["answers"],
    status: row.status as AppealView["status"],
    banReason: row.banReason,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
    moderatorName: row.moderatorName,
    message: row.message,
  };
}

/** A user's appeals to the guild, newest first (the appeal page shows them their decisions). */
export async function appealsOf(guildId: string, userId: string): Promise<AppealView[]> {
  const rows = await prisma.banAppeal.findMany({
    where: { guildId, userId },
    orderBy: { createdAt: "desc" },
    take: 20,
  });
  return rows.map(toView);
}

export const APPEALS_PAGE_SIZE = 25;

/** The guild's appeals with `status`, oldest open first (the queue) or newest decided first. */
export async function listAppeals(
  guildId: string,
  status: "open" | "decided",
  page = 1,
): Promise<{ appeals: AppealView[]; more: boolean; counts: { open: number; decided: number } }> {
  const where: Prisma.BanAppealWhereInput =
    status === "open" ? { guildId, status: "open" } : { guildId, status: { in: ["accepted", "rejected"] } };
  const [rows, open, total] = await Promise.all([
    prisma.banAppeal.findMany({
      where,
      orderBy: { createdAt: status === "open" ? "asc" : "desc" },
      skip: (page - 1) * APPEALS_PAGE_SIZE,
      take: APPEALS_PAGE_SIZE + 1,
    }),
    prisma.banAppeal.count({ where: { guildId, status: "open" } }),
    prisma.banAppeal.count({ where: { guildId } }),
  ]);
  return {
    appeals: rows.slice(0, APPEALS_PAGE_SIZE).map(toView),
    more: rows.length > APPEALS_PAGE_SIZE,
    counts: { open, decided: total - open },
  };
}

export async function getAppeal(guildId: string, appealId: string): Promise<AppealView | null> {
  const row = await prisma.banAppeal.findFirst({ where: { id: appealId, guildId } });
  return row ? toView(row) : null;
}

export type SubmitOutcome =
  { ok: true; appealId: string } | { ok: false; reason: "open" | "too-soon"; retryAt?: string };

/** Takes an appeal, unless the user has one open or the last decision on theirs is less than a week old. */
export async function submitAppeal(appeal: {
  guildId: string;
  userId: string;
  userName: string;
  banReason: string | null;
  answers: Array<{ question: string; answer: string }>;
  now?: number;
}): Promise<SubmitOutcome> {
  const now = appeal.now ?? Date.now();
  return prisma.$transaction(async (tx) => {
    const key = { guildId: appeal.guildId, userId: appeal.userId };
    // The user's row, written first (an update that changes nothing but takes the row's lock on PostgreSQL; SQLite
    // has one writer): two submissions at once take turns from here to the commit, so the second sees the first's
    // appeal open. An empty update would be a read, then an insert, which both could pass.
    await tx.appealLimit.upsert({
      where: { guildId_userId: key },
      create: { ...key, lastSentAt: new Date(now) },
      update: { userId: key.userId },
    });
    const last = await tx.banAppeal.findFirst({ where: key, orderBy: { createdAt: "desc" } });
    if (last?.status === "open") return { ok: false, reason: "open" } as const;
    if (last?.decidedAt && last.decidedAt.getTime() + APPEAL_WAIT_AFTER_DECISION_MS > now)
      return {
        ok: false,
        reason: "too-soon",
        retryAt: new Date(last.decidedAt.getTime() + APPEAL_WAIT_AFTER_DECISION_MS).toISOString(),
      } as const;
    const created = await tx.banAppeal.create({
      data: {
        ...key,
        userName: appeal.userName,
        banReason: appeal.banReason,
        answers: JSON.stringify(appeal.answers),
        createdAt: new Date(now),
      },
      select: { id: true },
    });
    await tx.appealLimit.update({ where: { guildId_userId: key }, data: { lastSentAt: new Date(now) } });
    return { ok: true, appealId: created.id } as const;
  });
}

/** Decides an open appeal; false when it is not open any more (another moderator decided first). */
export async function decideAppeal(
  guildId: string,
  appealId: string,
  decision: { status: "accepted" | "rejected"; moderator: { id: string; name: string }; message: string | null },
): Promise<boolean> {
  const { count } = await prisma.banAppeal.updateMany({
    where: { id: appealId, guildId, status: "open" },
    data: {
      status: decision.status,
      decidedAt: new Date(),
      moderatorId: decision.moderator.id,
      moderatorName: decision.moderator.name,
      message: decision.message,
    },
  });
  return count === 1;
}

// The action client wired to the running app: the next-auth session, the configured API auth mode, the audit
// history in Prisma, and revalidation of the guild's pages after a change.
import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { dashboardConfig } from "@/lib/dashboard/config";
import { getDashboardSession } from "@/lib/dashboard/auth/session";
import { recordAuditEntry, type AuditRecorder } from "@/lib/dashboard/audit/history";
import { CASE_ACTIONS } from "@/lib/dashboard/cases/derive";
import { syncCases } from "@/lib/dashboard/cases/store";
import { managementApi } from "@/lib/dashboard/data/api";
import { forgetGuildReads } from "@/lib/dashboard/data/guild-read-cache";
import { createGuildAction, type GuildActionDefinition } from "./action-client";
import { componentLogger } from "@/lib/server/logger";

const log = componentLogger("cases");

/** History entries a change's request reads into cases at most (a backlog beyond it is read by later syncs). */
const CASES_PER_CHANGE = 1_000;

/**
 * The history entry, then the cases it makes (a ban, a warning…) numbered at once, so the toast can name the case. The
 * change is made by then: a failure to make its case is logged, and a later sync (the Cases page, the next change)
 * makes it.
 */
const recordWithCases: AuditRecorder = async (entry) => {
  await recordAuditEntry(entry);
  if (entry.status !== "success" || !(CASE_ACTIONS as readonly string[]).includes(entry.action)) return;
  try {
    await syncCases(entry.guildId, CASES_PER_CHANGE);
  } catch (error) {
    log.error({ err: error, action: entry.action, guild_id: entry.guildId }, "making the cases of an action failed");
  }
};

/**
 * A server action from a definition. The definition stays reachable as `.definition` so tests can run the very
 * same operation through createGuildAction with their own session and API client (bot mode against a test server).
 */
export function guildAction<S extends z.ZodType<{ guildId: string; reason?: string }>, R>(
  definition: GuildActionDefinition<S, R>,
) {
  const action = createGuildAction(definition, {
    getSession: getDashboardSession,
    mode: () => dashboardConfig().authMode,
    createApi: (session) => managementApi(session),
    record: recordWithCases,
    revalidate: (guildId) => {
      forgetGuildReads(guildId);
      revalidatePath(`/guilds/${guildId}`, "layout");
    },
  });
  return Object.assign(action, { definition });
}

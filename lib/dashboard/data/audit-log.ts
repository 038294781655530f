// Keeping the audit history current with the guild's own audit log before a page reads it (the history, the bans'
// actors, the prune previews' staleness): at most one sync per guild every few seconds per server process, shared by
// requests that arrive while it runs. Reading the log needs View Audit Log; without it (or when the API fails) the
// pages still show the dashboard's own entries and say why the rest is missing.
import "server-only";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { describeApiError } from "@/lib/api-client";
import { syncGuildAuditLog, type SyncResult } from "@/lib/dashboard/audit/guild-log/import";
import { hasPermission } from "@/lib/discord/permissions";
import { isBotMode, managementApi } from "./api";
import { rememberUsers } from "./users";
import type { GuildViewer } from "./viewer";

const MIN_INTERVAL_MS = 5_000;

export type AuditLogSync = ({ ok: true } & SyncResult) | { ok: false; reason: string };

const running = new Map<string, Promise<AuditLogSync>>();
const lastSync = new Map<string, { at: number; result: AuditLogSync }>();

export async function syncAuditLog(viewer: GuildViewer): Promise<AuditLogSync> {
  const guildId = viewer.guild.id;
  // In user mode the moderator's own token reads the log; in bot mode the bot's does, whoever is looking.
  if (!isBotMode() && !hasPermission(viewer.permissions, P.ViewAuditLog))
    return { ok: false, reason: "Entries made outside this dashboard need the View Audit Log permission." };
  const last = lastSync.get(guildId);
  if (last && Date.now() - last.at < MIN_INTERVAL_MS && last.result.ok) return last.result;
  const inFlight = running.get(guildId);
  if (inFlight) return inFlight;
  const sync = (async (): Promise<AuditLogSync> => {
    try {
      const api = await managementApi(viewer.session);
      const result = await syncGuildAuditLog(api, guildId, { remember: rememberUsers });
      return { ok: true, ...result };
    } catch (error) {
      return { ok: false, reason: `The server's own audit log could not be read: ${describeApiError(error)}` };
    }
  })();
  running.set(guildId, sync);
  try {
    const result = await sync;
    lastSync.set(guildId, { at: Date.now(), result });
    return result;
  } finally {
    running.delete(guildId);
  }
}

// Keeping the audit history current with the guild's own audit log before a page reads it (the history, the bans'
// actors, the prune previews' staleness). One import per guild per server process runs in the background, shared by
// every request: a page waits for it at most a moment (the import writes newest first, so what it shows is the newest)
// and renders with what is there, while the rest continues without it. A finished import is reused for a few
// seconds; a live change that names the guild's audit log (an entry made anywhere, by any client) forgets that at
// once, so the page it refreshes imports the entry first. The import is Get Guild Audit Log run on the viewer's
// behalf, so it runs only for a viewer the policy table lets read the log (View Audit Log), in both modes: in bot mode
// the bot's token would read it for anyone, so the dashboard judges the moderator as the API judges a user token.
// Without it (or when the API fails) the pages show the dashboard's own entries and say why the rest is missing.
import "server-only";
import { describeApiError } from "@/lib/api-client";
import { syncGuildAuditLog, type SyncResult } from "@/lib/dashboard/audit/guild-log/import";
import { syncCases } from "@/lib/dashboard/cases/store";
import { managementApi } from "./api";
import { rememberUsers } from "./users";
import { refusal, type GuildViewer } from "./viewer";

/** A finished import is reused this long (unless a live change forgets it). */
const MIN_INTERVAL_MS = 5_000;
/** How long a page waits for a running import before rendering with what is imported. */
export const PAGE_WAIT_MS = 150;

/** `pending`: the import was still running when the page stopped waiting (it goes on in the background). */
export type AuditLogSync = ({ ok: true; pending: boolean } & SyncResult) | { ok: false; reason: string };

interface GuildImport {
  /** The import running now, with its follow-up runs, if any. */
  running: Promise<AuditLogSync> | null;
  startedAt: number;
  /** When a live change last said the log has a new entry. */
  changedAt: number;
  last: { at: number; result: AuditLogSync } | null;
}

/** One table per process, on globalThis: the live hub (a route handler's bundle) forgets what the pages' bundle ran. */
const IMPORTS_KEY = Symbol.for("guildhall.auditLogImports");
const imports: Map<string, GuildImport> = ((globalThis as { [IMPORTS_KEY]?: Map<string, GuildImport> })[IMPORTS_KEY] ??=
  new Map());

function importOf(guildId: string): GuildImport {
  let state = imports.get(guildId);
  if (!state) imports.set(guildId, (state = { running: null, startedAt: 0, changedAt: 0, last: null }));
  return state;
}

/** The guild's audit log has a new entry (a live change): the next page imports before it reads. */
export function forgetAuditLogSync(guildId: string): void {
  importOf(guildId).changedAt = Date.now();
}

export async function syncAuditLog(viewer: GuildViewer, waitMs = PAGE_WAIT_MS): Promise<AuditLogSync> {
  const guildId = viewer.guild.id;
  // Judged before anything runs or is reused: the last import's result is not this viewer's to wait on either.
  if (refusal(viewer, "Get Guild Audit Log"))
    return { ok: false, reason: "Entries made outside this dashboard need the View Audit Log permission." };
  const state = importOf(guildId);
  const { last } = state;
  if (!state.running && last?.result.ok && Date.now() - last.at < MIN_INTERVAL_MS && state.changedAt <= last.at)
    return last.result;
  const running = state.running ?? startImport(state, viewer, guildId);
  let timer: NodeJS.Timeout | undefined;
  const waited = await Promise.race([
    running,
    new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), waitMs);
    }),
  ]);
  clearTimeout(timer);
  return waited ?? { ok: true, pending: true, imported: 0, matched: 0, backfilled: false };
}

/** Runs imports until one started after the last live change has finished; then it is the guild's last import. */
function startImport(state: GuildImport, viewer: GuildViewer, guildId: string): Promise<AuditLogSync> {
  const once = async (): Promise<AuditLogSync> => {
    state.startedAt = Date.now();
    try {
      const api = await managementApi(viewer.session);
      const result = await syncGuildAuditLog(api, guildId, { remember: rememberUsers });
      // Bans, kicks, timeouts and role changes made outside the dashboard become cases as they come in.
      await syncCases(guildId);
      return { ok: true, pending: false, ...result };
    } catch (error) {
      return { ok: false, reason: `The server's own audit log could not be read: ${describeApiError(error)}` };
    }
  };
  const run = (async () => {
    let result = await once();
    // A change that came in while the import was reading may be above the pages it read: read again.
    while (result.ok && state.changedAt >= state.startedAt) result = await once();
    state.last = { at: state.startedAt, result };
    return result;
  })().finally(() => {
    state.running = null;
  });
  state.running = run;
  return run;
}

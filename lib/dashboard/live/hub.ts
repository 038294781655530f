// The dashboard's live hub: one gateway connection for the whole server process (started when the first page
// subscribes), fanned out to the open pages' streams by guild. Dispatches of one guild arriving close together (a ban
// and its audit-log entry are committed together) are merged into one change, so a page refreshes once per change
// and can say who made it.
import "server-only";
import { GatewayIntentBits } from "discord-api-types/v10";
import { GuildApiClient } from "@/lib/api-client";
import { dashboardConfig } from "@/lib/dashboard/config";
import {
  actorOf,
  affects,
  departedUserOf,
  guildOf,
  mergeSections,
  sectionsOf,
  updatedMemberOf,
  type AffectedSections,
} from "./changes";
import { liveGatewayCredentials } from "./credentials";
import { LiveGatewayClient, type LiveGatewayStatus } from "./gateway-client";
import { forgetGuildReads } from "@/lib/dashboard/data/guild-read-cache";
import { forgetAuditLogSync } from "@/lib/dashboard/data/audit-log";
import { componentLogger } from "@/lib/server/logger";
import { currentRequestId, outsideRequest } from "@/lib/server/request-id";

const log = componentLogger("live");

/**
 * One change of a guild, whole: each page's stream sends its viewer only what they may see of it (stream.ts).
 */
export interface LiveChange {
  /** Sections of the policy table (SECTION_POLICIES), not yet judged for any viewer. */
  sections: AffectedSections;
  /** Who made it (audit-log entries' users), in the order named. */
  actorIds: string[];
  /** Members whose membership it ended. */
  departedUserIds: string[];
  /** Members whose roles or timeout it changed (what they may see may have changed with them). */
  updatedMemberIds: string[];
}

export type LiveListener = (change: LiveChange) => void;

/** Whether the connection follows a guild: unknown until READY, then yes or no. */
export type GuildLiveState = "connecting" | "live" | "not-followed" | "off";

/** Dispatches within this window of the first one are one change. */
const MERGE_WINDOW_MS = 60;

/**
 * What the connection asks for: guild structure (GUILDS), members (GUILD_MEMBERS, privileged: dropped by the client
 * if the application lacks it), bans and audit-log entries (GUILD_MODERATION), integrations, invites, voice, AutoMod
 * rules (AUTO_MODERATION_CONFIGURATION), emoji, stickers and sounds (GUILD_EXPRESSIONS), scheduled events.
 */
export const LIVE_INTENTS =
  GatewayIntentBits.Guilds |
  GatewayIntentBits.GuildMembers |
  GatewayIntentBits.GuildModeration |
  GatewayIntentBits.GuildIntegrations |
  GatewayIntentBits.GuildInvites |
  GatewayIntentBits.GuildVoiceStates |
  GatewayIntentBits.AutoModerationConfiguration |
  GatewayIntentBits.GuildExpressions |
  GatewayIntentBits.GuildScheduledEvents;

interface PendingChange extends LiveChange {
  timer: NodeJS.Timeout;
}

export class LiveHub {
  private readonly listeners = new Map<string, Set<LiveListener>>();
  private readonly stateListeners = new Set<() => void>();
  private readonly pending = new Map<string, PendingChange>();
  private status: LiveGatewayStatus = { state: "connecting" };

  private readonly client: LiveGatewayClient | null;

  /** `connect` builds the gateway client that feeds this hub (none: live updates are off). */
  constructor(connect: ((hub: LiveHub) => LiveGatewayClient) | null) {
    this.client = connect ? connect(this) : null;
  }

  start(): void {
    this.client?.start();
  }

  state(guildId: string): GuildLiveState {
    if (!this.client || this.status.state === "failed") return "off";
    if (this.status.state === "connecting") return "connecting";
    return this.status.guildIds.has(guildId) ? "live" : "not-followed";
  }

  /** Calls `listener` on every change of the guild from now on. Returns unsubscribe. */
  subscribe(guildId: string, listener: LiveListener): () => void {
    let set = this.listeners.get(guildId);
    if (!set) this.listeners.set(guildId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0) this.listeners.delete(guildId);
    };
  }

  /** Calls `listener` whenever the connection's state changes (connected, followed guilds, failed). */
  onStateChange(listener: () => void): () => void {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  }

  setStatus(status: LiveGatewayStatus): void {
    this.status = status;
    for (const listener of [...this.stateListeners]) listener();
  }

  /** One dispatch from the gateway. */
  receive(type: string, data: unknown): void {
    const guildId = guildOf(type, data);
    if (!guildId) return;
    const sections = sectionsOf(type);
    const actor = actorOf(type, data, this.client?.userId ?? null);
    const departed = departedUserOf(type, data);
    const updated = updatedMemberOf(type, data);
    if (sections !== "all" && sections.length === 0 && !departed) return;
    let change = this.pending.get(guildId);
    if (!change) {
      change = {
        sections: [],
        actorIds: [],
        departedUserIds: [],
        updatedMemberIds: [],
        timer: setTimeout(() => this.flush(guildId), MERGE_WINDOW_MS),
      };
      this.pending.set(guildId, change);
    }
    change.sections = mergeSections(change.sections, sections);
    if (actor && !change.actorIds.includes(actor)) change.actorIds.push(actor);
    if (departed && !change.departedUserIds.includes(departed)) change.departedUserIds.push(departed);
    if (updated && !change.updatedMemberIds.includes(updated)) change.updatedMemberIds.push(updated);
  }

  private flush(guildId: string): void {
    const change = this.pending.get(guildId);
    this.pending.delete(guildId);
    if (!change) return;
    // The pages about to refresh must not be served the guild as a moderator read it a moment ago.
    forgetGuildReads(guildId);
    const { sections, actorIds, departedUserIds, updatedMemberIds } = change;
    // Nor the audit history as last imported: the entry this change made is read before the page is rendered.
    if (affects(sections, "audit-history")) forgetAuditLogSync(guildId);
    for (const listener of [...(this.listeners.get(guildId) ?? [])]) {
      try {
        listener({ sections, actorIds, departedUserIds, updatedMemberIds });
      } catch (error) {
        log.error({ err: error }, "a page's listener threw");
      }
    }
  }

  stop(): void {
    this.client?.stop();
    for (const change of this.pending.values()) clearTimeout(change.timer);
    this.pending.clear();
  }
}

/** The process's hub, started on first use (kept on globalThis: Next may load this module in several bundles). */
const HUB_KEY = Symbol.for("guildhall.dashboard.liveHub");
type GlobalWithHub = typeof globalThis & { [HUB_KEY]?: LiveHub };

export function liveHub(): LiveHub {
  const global = globalThis as GlobalWithHub;
  const existing = global[HUB_KEY];
  if (existing) return existing;
  const credentials = liveGatewayCredentials();
  const hub = new LiveHub(
    credentials &&
      ((hub) =>
        new LiveGatewayClient({
          token: credentials.token,
          intents: LIVE_INTENTS,
          gatewayUrl: async () => {
            const config = dashboardConfig();
            const api = new GuildApiClient({
              requestId: currentRequestId,
              baseUrl: config.guildApiUrl,
              version: config.apiVersion,
              token: credentials.token,
              authPrefix: "Bot",
            });
            return (await api.gateway.getBot()).url;
          },
          onDispatch: (type, data) => hub.receive(type, data),
          onStatus: (status) => hub.setStatus(status),
        })),
  );
  global[HUB_KEY] = hub;
  // Started by the first page that needs it, and serving every page after: none of that page's request.
  outsideRequest(() => hub.start());
  return hub;
}

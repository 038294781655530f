// Discord's two limits on starting sessions, per application (per user for Bearer tokens): IDENTIFY once per
// identifyIntervalMs in each of max_concurrency buckets (bucket = shard_id % max_concurrency), and a daily budget
// of session starts. RESUME counts against neither. Kept in memory: one process serves the gateway.
import type { GatewayOptions } from "./options";

export interface SessionStartLimit {
  total: number;
  remaining: number;
  reset_after: number;
  max_concurrency: number;
}

interface DailyBudget {
  used: number;
  resetsAt: number;
}

export type IdentifyVerdict =
  { ok: true } | { ok: false; reason: "concurrency" } | { ok: false; reason: "daily"; resetAfterMs: number };

export class IdentifyLimits {
  private readonly lastIdentifyAt = new Map<string, number>();
  private readonly daily = new Map<string, DailyBudget>();

  constructor(private readonly options: GatewayOptions) {}

  private budget(key: string, now: number): DailyBudget {
    let budget = this.daily.get(key);
    if (!budget || budget.resetsAt <= now) {
      budget = { used: 0, resetsAt: now + this.options.sessionStartResetMs };
      this.daily.set(key, budget);
    }
    return budget;
  }

  /** What GET /gateway/bot reports for this caller. */
  sessionStartLimit(key: string, now = Date.now()): SessionStartLimit {
    const budget = this.daily.get(key);
    const live = budget && budget.resetsAt > now ? budget : null;
    return {
      total: this.options.sessionStartLimit,
      remaining: Math.max(0, this.options.sessionStartLimit - (live?.used ?? 0)),
      reset_after: live ? live.resetsAt - now : this.options.sessionStartResetMs,
      max_concurrency: this.options.maxConcurrency,
    };
  }

  /** Takes one IDENTIFY for `shardId`, or says which limit refuses it. */
  admit(key: string, shardId: number, now = Date.now()): IdentifyVerdict {
    const budget = this.budget(key, now);
    if (budget.used >= this.options.sessionStartLimit)
      return { ok: false, reason: "daily", resetAfterMs: budget.resetsAt - now };
    const bucket = `${key}:${shardId % this.options.maxConcurrency}`;
    const last = this.lastIdentifyAt.get(bucket);
    if (last !== undefined && now - last < this.options.identifyIntervalMs) return { ok: false, reason: "concurrency" };
    this.lastIdentifyAt.set(bucket, now);
    budget.used++;
    return { ok: true };
  }
}

/** Whose limits an identity draws on: its application's for a bot, its own for a user's Bearer token. */
export const limitKey = (identity: { kind: "bot" | "bearer"; applicationId: bigint; userId: bigint }): string =>
  identity.kind === "bot" ? `app:${identity.applicationId}` : `user:${identity.userId}`;

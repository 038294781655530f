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

// ── Sockets before IDENTIFY ────────────────────────────────────────────────────────────────────────────────────────

/**
 * The address a gateway socket is counted under: IPv4 as it is (an IPv4-mapped IPv6 address as its IPv4), IPv6 by
 * its /64, the smallest block a host is given, so one host cannot take a fresh address per socket.
 */
export function gatewayAddressKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(":")) return address;
  const [head, tail = ""] = address.toLowerCase().split("%")[0].split("::");
  const left = head ? head.split(":") : [];
  const right = address.includes("::") && tail ? tail.split(":") : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ""))
    .join(":")}::/64`;
}

export type UpgradeVerdict = { ok: true } | { ok: false; status: 429; retryAfterSeconds: number };

/**
 * Counts the sockets that have not identified yet, in all and per address (gatewayAddressKey), so that opening
 * sockets and never identifying cannot hold unbounded memory. Past an address's share its upgrades are refused
 * before ws builds anything; past the total the server makes room by closing the oldest (GatewayServer), so that a
 * flood from many addresses cannot keep everyone else out. A socket's slot is given back once, when it identifies
 * (or resumes) or closes.
 */
export class UnidentifiedSockets {
  private readonly perAddress = new Map<string, number>();
  private total = 0;

  constructor(private readonly options: GatewayOptions) {}

  /** Whether the total is reached: the next socket takes the place of the oldest. */
  get full(): boolean {
    return this.total >= this.options.maxUnidentified;
  }

  /** Whether one more socket from `address` may open; Retry-After: the pace at which sessions start anyway. */
  check(address: string): UpgradeVerdict {
    if ((this.perAddress.get(address) ?? 0) < this.options.maxUnidentifiedPerAddress) return { ok: true };
    return {
      ok: false,
      status: 429,
      retryAfterSeconds: Math.max(1, Math.ceil(this.options.identifyIntervalMs / 1000)),
    };
  }

  /** Takes a slot for a socket from `address`; the returned function gives it back (once, however often called). */
  take(address: string): () => void {
    this.total++;
    this.perAddress.set(address, (this.perAddress.get(address) ?? 0) + 1);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.total--;
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    };
  }
}

// The reason a dashboard change sends the API (X-Audit-Log-Reason). Its own module: the moderation scheduler's worker
// thread sends reasons too, and must not load the actions' machinery (their metrics among it) to do so.
import { AUDIT_LOG_REASON_MAX } from "@/lib/discord/limits";
import type { Actor } from "@/lib/dashboard/auth/session";

/** The reason as sent: trimmed, stamped with the moderator in bot mode, within Discord's 512 characters. */
export function auditReason(reason: string | undefined, actor: Actor, mode: "user" | "bot"): string | undefined {
  const text = reason?.trim() || undefined;
  const stamped = mode === "bot" ? `${actor.name} (${actor.id})${text ? `: ${text}` : ""}` : text;
  return stamped === undefined ? undefined : stamped.slice(0, AUDIT_LOG_REASON_MAX);
}

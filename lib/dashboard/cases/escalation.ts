// Escalation (issue #32): a guild's rules such as "3 warnings within 30 days → timeout 1 day". When a warning is
// added, the strictest rule its member now meets is proposed to the moderator, who applies it or not; nothing is done
// by itself. Pure: the rule's choice and its words; the store and the actions are beside it.
import { z } from "zod";
import { formatDuration } from "@/lib/moderation/durations";

export const ESCALATION_ACTIONS = ["timeout", "kick", "ban"] as const;
export type EscalationAction = (typeof ESCALATION_ACTIONS)[number];
export const ESCALATION_RULES_MAX = 10;
/** Discord's timeout cap: an escalation's timeout is set once, not renewed. */
const TIMEOUT_MAX_SECONDS = 28 * 86_400;

export interface EscalationRule {
  id: string;
  warnings: number;
  withinDays: number;
  action: EscalationAction;
  durationSeconds: number | null;
}

export const EscalationRuleSchema = z
  .object({
    warnings: z.coerce.number().int().min(1, "At least 1.").max(100, "At most 100."),
    withinDays: z.coerce.number().int().min(1, "At least 1 day.").max(365, "At most 365 days."),
    action: z.enum(ESCALATION_ACTIONS),
    durationSeconds: z.coerce.number().int().min(60).max(TIMEOUT_MAX_SECONDS).nullable().default(null),
  })
  .superRefine((rule, ctx) => {
    if (rule.action === "timeout" && rule.durationSeconds === null)
      ctx.addIssue({ code: "custom", path: ["durationSeconds"], message: "Say how long the timeout lasts." });
  });

export const EscalationRulesInputSchema = z.object({
  guildId: z.string().regex(/^\d{1,20}$/),
  rules: z.array(EscalationRuleSchema).max(ESCALATION_RULES_MAX, `At most ${ESCALATION_RULES_MAX} rules.`),
});

const SEVERITY: Record<EscalationAction, number> = { timeout: 1, kick: 2, ban: 3 };

/**
 * The rule to propose now that a member has warnings at `warningTimes` (ms): of the rules whose count they reach
 * within its days, the most severe action (a longer timeout over a shorter), or null.
 */
export function ruleToPropose(
  rules: readonly EscalationRule[],
  warningTimes: readonly number[],
  now = Date.now(),
): (EscalationRule & { count: number }) | null {
  let best: (EscalationRule & { count: number }) | null = null;
  for (const rule of rules) {
    const since = now - rule.withinDays * 86_400_000;
    const count = warningTimes.filter((at) => at >= since && at <= now).length;
    if (count < rule.warnings) continue;
    const better =
      !best ||
      SEVERITY[rule.action] > SEVERITY[best.action] ||
      (rule.action === best.action && (rule.durationSeconds ?? 0) > (best.durationSeconds ?? 0));
    if (better) best = { ...rule, count };
  }
  return best;
}

/** "3 warnings within 30 days → time out for 1 day". */
export function describeRule(rule: Pick<EscalationRule, "warnings" | "withinDays" | "action" | "durationSeconds">) {
  const outcome =
    rule.action === "timeout"
      ? `time out for ${formatDuration((rule.durationSeconds ?? 0) * 1000)}`
      : rule.action === "kick"
        ? "kick"
        : "ban";
  return `${rule.warnings} warning${rule.warnings === 1 ? "" : "s"} within ${rule.withinDays} day${rule.withinDays === 1 ? "" : "s"} → ${outcome}`;
}

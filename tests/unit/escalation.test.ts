import { describe, expect, test } from "vitest";
import {
  describeRule,
  EscalationRuleSchema,
  ruleToPropose,
  type EscalationRule,
} from "@/lib/dashboard/cases/escalation";

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 29);
const rule = (over: Partial<EscalationRule>): EscalationRule => ({
  id: "r",
  warnings: 3,
  withinDays: 30,
  action: "timeout",
  durationSeconds: 86_400,
  ...over,
});

describe("escalation rules", () => {
  test("proposes a rule once the member's warnings within its days reach its count", () => {
    const rules = [rule({ id: "a" })];
    expect(ruleToPropose(rules, [now - DAY, now - 2 * DAY], now)).toBeNull();
    expect(ruleToPropose(rules, [now - DAY, now - 2 * DAY, now], now)).toMatchObject({ id: "a", count: 3 });
    // Older than the window: not counted.
    expect(ruleToPropose(rules, [now - 40 * DAY, now - 2 * DAY, now], now)).toBeNull();
  });

  test("of several met, the most severe: a ban over a kick over a timeout, a longer timeout over a shorter", () => {
    const rules = [
      rule({ id: "short", durationSeconds: 3_600 }),
      rule({ id: "long", durationSeconds: 7 * 86_400 }),
      rule({ id: "kick", action: "kick", warnings: 5, durationSeconds: null }),
    ];
    const three = [now, now - DAY, now - 2 * DAY];
    expect(ruleToPropose(rules, three, now)?.id).toBe("long");
    expect(ruleToPropose(rules, [...three, now - 3 * DAY, now - 4 * DAY], now)?.id).toBe("kick");
  });

  test("reads as one line; a timeout rule needs its length", () => {
    expect(describeRule(rule({}))).toBe("3 warnings within 30 days → time out for 1 day");
    expect(describeRule(rule({ warnings: 1, withinDays: 1, action: "ban" }))).toBe("1 warning within 1 day → ban");
    expect(EscalationRuleSchema.safeParse({ warnings: 3, withinDays: 30, action: "timeout" }).success).toBe(false);
    expect(EscalationRuleSchema.safeParse({ warnings: "3", withinDays: "30", action: "kick" }).success).toBe(true);
  });
});

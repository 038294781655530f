// A dashboard action's outcome for guildhall_dashboard_actions_total, read from the result it answered: the
// dashboard's own input refusals (no API error code) are "invalid", any other 4xx "refused", the rest "failed".
import { expect, test } from "vitest";
import { actionOutcome, countedOutcome } from "@/lib/dashboard/actions/action-outcome";
import { metricsRegistry } from "@/lib/server/metrics";

const failed = (status?: number, code?: number) => ({ ok: false as const, error: "x", fieldErrors: {}, status, code });

test("ok, invalid, refused and failed", () => {
  expect(actionOutcome({ ok: true, data: undefined })).toBe("ok");
  expect(actionOutcome(failed(400))).toBe("invalid");
  expect(actionOutcome(failed(400, 50035))).toBe("refused");
  expect(actionOutcome(failed(403, 50013))).toBe("refused");
  expect(actionOutcome(failed(401))).toBe("refused");
  expect(actionOutcome(failed(429))).toBe("refused");
  expect(actionOutcome(failed(409))).toBe("refused");
  expect(actionOutcome(failed(500, 0))).toBe("failed");
  expect(actionOutcome(failed(undefined))).toBe("failed");
});

async function count(action: string, outcome: string): Promise<number> {
  const metric = await metricsRegistry.getSingleMetric("guildhall_dashboard_actions_total")!.get();
  return metric.values.find((v) => v.labels.action === action && v.labels.outcome === outcome)?.value ?? 0;
}

test("each settled action is counted once; a throw is a failure and is thrown on", async () => {
  await countedOutcome("Test Action", Promise.resolve({ ok: true, data: 1 }));
  await countedOutcome("Test Action", Promise.resolve(failed(400)));
  await expect(countedOutcome("Test Action", Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  expect(await count("Test Action", "ok")).toBe(1);
  expect(await count("Test Action", "invalid")).toBe(1);
  expect(await count("Test Action", "failed")).toBe(1);
});

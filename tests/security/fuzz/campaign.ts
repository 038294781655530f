// Runs the fuzz operation by operation, each against a fresh server, in one of two modes:
//  - checkOperation: fast-check's property run (stops at the first failure and shrinks it to a minimal request);
//  - sweepOperation: every generated request, collecting all failures (bench/fuzz.ts: a count and a grouped list).
// Each operation's seed is derived from the base seed and the operation's name, so adding a route never changes the
// requests another operation gets, and one operation's failure is reproduced with FUZZ_SEED alone.
import crypto from "node:crypto";
import fc from "fast-check";
import { apiRoutes } from "@/lib/guild-api/routes";
import { describeAnswer, describeRequest, judge, type Verdict } from "./engine";
import { fuzzOperations, type FuzzOperation } from "./operations";
import { oversizedBody, systematicIds, systematicMutations } from "./systematic";
import { startFuzzServer, type FuzzServer } from "./fuzz-server";

export const DEFAULT_SEED = 20_261_124;

export function operationSeed(baseSeed: number, key: string): number {
  return (baseSeed ^ crypto.createHash("sha256").update(key).digest().readInt32BE(0)) | 0;
}

/** The operation behind `key` on a fresh server; null when the route has no generator. */
async function withOperation<T>(
  templateFile: string,
  key: string,
  fn: (server: FuzzServer, operation: FuzzOperation) => Promise<T>,
): Promise<T | null> {
  const server = await startFuzzServer(templateFile);
  try {
    const route = apiRoutes.find((r) => `${r.method} ${r.path}` === key);
    if (!route) throw new Error(`no route ${key}`);
    const operation = fuzzOperations(server.world, [route]).operations[0];
    return operation ? await fn(server, operation) : null;
  } finally {
    await server.close();
  }
}

export interface CheckResult {
  requests: number;
  /** A report with the seed, the shrunk request and the answer, or null when every run held. */
  failure: string | null;
}

export async function checkOperation(templateFile: string, key: string, numRuns: number, baseSeed: number) {
  return withOperation(templateFile, key, async (server, operation): Promise<CheckResult> => {
    let requests = 0;
    for (const request of [...systematicIds(operation, server.world), ...systematicMutations(key, server.world)]) {
      requests++;
      const verdict = await judge(server.target, request);
      if (verdict.problems.length)
        return {
          requests,
          failure: [
            `${key}: ${verdict.problems.join("; ")}`,
            `  request: ${describeRequest(request)}`,
            `  answer:  ${describeAnswer(verdict.answer)}`,
          ].join("\n"),
        };
    }
    let last: Verdict | null = null;
    const seed = operationSeed(baseSeed, key);
    const details = await fc.check(
      fc.asyncProperty(operation.arbitrary, async (request) => {
        requests++;
        const verdict = await judge(server.target, request);
        if (verdict.problems.length === 0) return true;
        last = verdict;
        return false;
      }),
      { seed, numRuns, endOnFailure: process.env.FUZZ_SHRINK === "0" },
    );
    if (!details.failed) return { requests, failure: null };
    const verdict = last as Verdict | null;
    const request = (details.counterexample?.[0] ?? verdict?.request) as Verdict["request"];
    // The shrunk request is re-judged so the report shows its own answer, not the last one seen while shrinking.
    const final = await judge(server.target, request);
    const shown = final.problems.length ? final : verdict;
    return {
      requests,
      failure: [
        `${key}: ${shown?.problems.join("; ")}`,
        `  request: ${describeRequest(request)}`,
        `  answer:  ${describeAnswer(shown?.answer ?? null)}`,
        `  reproduce: FUZZ_SEED=${baseSeed} (operation seed ${seed}, path "${details.counterexamplePath}", ${details.numShrinks} shrinks)`,
      ].join("\n"),
    };
  });
}

export interface SweepResult {
  requests: number;
  failures: Verdict[];
  /** Answers by status code, to see how deep the generated requests get (2xx reached the write). */
  statuses: Record<number, number>;
}

export async function sweepOperation(templateFile: string, key: string, numRuns: number, baseSeed: number) {
  return withOperation(templateFile, key, async (server, operation): Promise<SweepResult> => {
    const failures: Verdict[] = [];
    const statuses: Record<number, number> = {};
    const requests = [
      ...systematicIds(operation, server.world),
      ...systematicMutations(key, server.world),
      ...(process.env.FUZZ_OVERSIZED === "0" ? [] : oversizedBody(operation, server.world)),
      ...fc.sample(operation.arbitrary, { seed: operationSeed(baseSeed, key), numRuns }),
    ];
    for (const request of requests) {
      const verdict = await judge(server.target, request);
      const status = verdict.answer?.status ?? 0;
      statuses[status] = (statuses[status] ?? 0) + 1;
      if (verdict.problems.length) failures.push(verdict);
    }
    return { requests: requests.length, failures, statuses };
  });
}

/** Failures grouped by operation, problem and answer code: one line per distinct cause, with its first request. */
export function groupFailures(failures: ReadonlyArray<{ key: string; verdict: Verdict }>): string[] {
  const groups = new Map<string, { count: number; example: Verdict }>();
  for (const { key, verdict } of failures) {
    const code = verdict.answer ? /"code":\s*(\d+)/.exec(verdict.answer.body)?.[1] : undefined;
    const group = `${key} | ${verdict.problems.join("; ").replace(/\d{3} server error/, (m) => m)} | code ${code ?? "-"}`;
    const entry = groups.get(group);
    if (entry) entry.count++;
    else groups.set(group, { count: 1, example: verdict });
  }
  return [...groups.entries()].map(
    ([group, { count, example }]) =>
      `${group} ×${count}\n    e.g. ${describeRequest(example.request)}\n    → ${describeAnswer(example.answer)}`,
  );
}

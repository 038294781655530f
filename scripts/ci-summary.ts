// The last lines .ci/run prints: each step's outcome and every failed test by name, with the first line of its error.
// CI keeps only the tail of a run's output, and a long run's failures scroll out of it; this puts them at the end.
// Usage: tsx scripts/ci-summary.ts "step name=exit status" ... (reads the JSON reports in test-results/).
import fs from "node:fs";

const REPORTS: Array<{ file: string; label: string; kind: "vitest" | "playwright" }> = [
  { file: "test-results/unit-results.json", label: "unit", kind: "vitest" },
  { file: "test-results/integration-results.json", label: "integration", kind: "vitest" },
  { file: "test-results/e2e-results.json", label: "browser", kind: "playwright" },
  { file: "test-results/e2e-bot-results.json", label: "browser, bot mode", kind: "playwright" },
  { file: "test-results/postgres-results.json", label: "postgres", kind: "vitest" },
  { file: "test-results/integration-postgresql-results.json", label: "integration on PostgreSQL", kind: "vitest" },
];

interface Failure {
  title: string;
  message: string;
}

/** The first line of an error that says something, without terminal colours, folded to one readable line. */
function firstLine(text: string | undefined): string {
  const plain = (text ?? "").replace(/\u001b\[[0-9;]*m/g, "");
  const line = plain.split("\n").find((candidate) => candidate.trim() !== "") ?? "";
  return line.trim().slice(0, 300);
}

interface VitestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults: Array<{ fullName: string; status: string; failureMessages: string[] }>;
  }>;
}

function vitestFailures(report: VitestReport): { passed: number; failures: Failure[] } {
  const failures: Failure[] = [];
  for (const file of report.testResults) {
    const where = file.name.replace(`${process.cwd()}/`, "");
    const failed = file.assertionResults.filter((test) => test.status === "failed");
    for (const test of failed)
      failures.push({ title: `${where} › ${test.fullName}`, message: firstLine(test.failureMessages[0]) });
    // A file that failed before or around its tests (an import error, a failing beforeAll) has no failed test.
    if (file.status === "failed" && failed.length === 0)
      failures.push({ title: where, message: firstLine(file.message) });
  }
  return { passed: report.numPassedTests, failures };
}

interface PlaywrightSuite {
  title: string;
  suites?: PlaywrightSuite[];
  specs?: Array<{
    title: string;
    tests: Array<{ status: string; results: Array<{ error?: { message?: string } }> }>;
  }>;
}

interface PlaywrightReport {
  suites: PlaywrightSuite[];
  stats: { expected: number; flaky: number; unexpected: number };
  errors?: Array<{ message?: string }>;
}

function playwrightFailures(report: PlaywrightReport): { passed: number; failures: Failure[] } {
  const failures: Failure[] = [];
  const walk = (suite: PlaywrightSuite, path: string[]) => {
    const here = suite.title ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? [])
      for (const test of spec.tests)
        if (test.status === "unexpected") {
          const error = test.results.map((result) => result.error?.message).find(Boolean);
          failures.push({ title: [...here, spec.title].join(" › "), message: firstLine(error) });
        }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites) walk(suite, []);
  for (const error of report.errors ?? [])
    failures.push({ title: "(outside any test)", message: firstLine(error.message) });
  return { passed: report.stats.expected + report.stats.flaky, failures };
}

function main(steps: string[]): void {
  console.log("\n══ CI summary ══");
  for (const step of steps) {
    const [name, status] = step.split("=");
    console.log(`${status === "0" ? "passed" : `FAILED (exit ${status})`}  ${name}`);
  }
  for (const { file, label, kind } of REPORTS) {
    if (!fs.existsSync(file)) {
      console.log(`\n${label}: no report (${file})`);
      continue;
    }
    let result: { passed: number; failures: Failure[] };
    try {
      const report: unknown = JSON.parse(fs.readFileSync(file, "utf8"));
      result =
        kind === "vitest" ? vitestFailures(report as VitestReport) : playwrightFailures(report as PlaywrightReport);
    } catch (error) {
      console.log(`\n${label}: unreadable report (${String(error)})`);
      continue;
    }
    console.log(`\n${label}: ${result.passed} passed, ${result.failures.length} failed`);
    for (const failure of result.failures) console.log(`  ✘ ${failure.title}\n      ${failure.message}`);
  }
}

main(process.argv.slice(2));

// npm test: everything, in order of cost: typecheck, lint, formatting, unit, integration (real SQLite, real HTTP),
// build, then browser tests (Playwright driving Debian's Chromium). Ends with one "N passed, N failed" line.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import { chromiumPath } from "../tests/e2e/chromium";
import { buildIfNeeded } from "./build-if-needed";

const bin = (name: string) => `node_modules/.bin/${name}`;
const env = { ...process.env, NEXT_TELEMETRY_DISABLED: "1" };

function run(title: string, command: string, args: string[]): boolean {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { stdio: "inherit", env });
  return result.status === 0;
}

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

function vitestCounts(file: string): Counts {
  try {
    const report = JSON.parse(fs.readFileSync(file, "utf8")) as {
      numPassedTests: number;
      numFailedTests: number;
      numPendingTests: number;
      numTodoTests: number;
    };
    return {
      passed: report.numPassedTests,
      failed: report.numFailedTests,
      skipped: report.numPendingTests + report.numTodoTests,
    };
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

function playwrightCounts(file: string): Counts {
  try {
    const report = JSON.parse(fs.readFileSync(file, "utf8")) as {
      stats: { expected: number; unexpected: number; flaky: number; skipped: number };
    };
    return {
      passed: report.stats.expected + report.stats.flaky,
      failed: report.stats.unexpected,
      skipped: report.stats.skipped,
    };
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

function main(): number {
  if (!chromiumPath()) {
    console.error(
      "npm test needs Debian's Chromium for the browser tests: run `apt-get install -y chromium` (or set CHROMIUM_PATH).",
    );
    return 1;
  }
  fs.mkdirSync("test-results", { recursive: true });
  const steps: Array<[string, boolean]> = [];
  steps.push(["typecheck", run("typecheck (tsc --noEmit)", bin("tsc"), ["--noEmit"])]);
  steps.push(["lint", run("lint (eslint)", bin("eslint"), ["--max-warnings", "0", "."])]);
  steps.push(["format", run("format (prettier --check)", bin("prettier"), ["--check", "--log-level", "warn", "."])]);
  const vitestArgs = (project: string) => [
    "run",
    "--project",
    project,
    "--reporter=default",
    "--reporter=json",
    `--outputFile.json=test-results/${project}-results.json`,
  ];
  steps.push(["unit tests", run("unit tests (vitest)", bin("vitest"), vitestArgs("unit"))]);
  steps.push([
    "integration tests",
    run("integration tests (vitest, real SQLite + HTTP)", bin("vitest"), vitestArgs("integration")),
  ]);
  let built = true;
  try {
    console.log("\n▶ build (next build, if stale)");
    buildIfNeeded();
  } catch (error) {
    console.error(error);
    built = false;
  }
  steps.push(["build", built]);
  // A browser run that could not start its servers executes no test: that is a failure, not a pass.
  if (built)
    steps.push(["browser tests", run("browser tests (Playwright + Debian Chromium)", bin("playwright"), ["test"])]);

  const counts = [
    vitestCounts("test-results/unit-results.json"),
    vitestCounts("test-results/integration-results.json"),
    built ? playwrightCounts("test-results/e2e-results.json") : { passed: 0, failed: 1, skipped: 0 },
  ];
  const total = counts.reduce(
    (a, c) => ({ passed: a.passed + c.passed, failed: a.failed + c.failed, skipped: a.skipped + c.skipped }),
    { passed: 0, failed: 0, skipped: 0 },
  );
  if (built && counts[2].passed + counts[2].failed === 0) steps.push(["browser tests ran no test", false]);
  // A step that failed with its failures already counted (a failing test) is not counted twice.
  const failedSteps = steps
    .filter(
      ([name, passed]) =>
        !passed &&
        !(name === "unit tests" && counts[0].failed) &&
        !(name === "integration tests" && counts[1].failed) &&
        !(name === "browser tests" && counts[2].failed),
    )
    .map(([name]) => name);
  console.log(
    `\nunit ${counts[0].passed}/${counts[0].passed + counts[0].failed}, integration ${counts[1].passed}/${counts[1].passed + counts[1].failed}, browser ${counts[2].passed}/${counts[2].passed + counts[2].failed}` +
      (failedSteps.length ? `; failed steps: ${failedSteps.join(", ")}` : ""),
  );
  // Each failed step (typecheck, lint, build) counts as one failure in the closing line.
  const failed = total.failed + failedSteps.length;
  console.log(`${total.passed} passed, ${failed} failed${total.skipped ? `, ${total.skipped} skipped` : ""}`);
  return failed === 0 && total.passed > 0 ? 0 : 1;
}

process.exit(main());

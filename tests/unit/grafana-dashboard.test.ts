// deploy/grafana/guildhall-dashboard.json names only metrics the process exports: every panel's expressions, their
// metric names with the histogram suffixes stripped, are registered in the one registry GET /metrics serves (the
// process's own and prom-client's default metrics). A panel that names a metric renamed or never made fails here.
import fs from "node:fs";
import path from "node:path";
import { Histogram } from "prom-client";
import { expect, test } from "vitest";
import { metricsRegistry } from "@/lib/server/metrics";

interface Panel {
  title: string;
  type: string;
  targets?: Array<{ expr: string }>;
  panels?: Panel[];
}

const dashboard = JSON.parse(
  fs.readFileSync(path.join(process.cwd(), "deploy/grafana/guildhall-dashboard.json"), "utf8"),
) as { panels: Panel[]; schemaVersion: number; __inputs: Array<{ name: string }> };

const PROMQL_WORDS = new Set(["by", "without", "on", "ignoring", "group_left", "group_right", "offset", "bool"]);
/** _bucket, _sum and _count are a histogram's (or summary's) series, not metrics of their own. */
const SERIES_SUFFIX = /_(bucket|sum|count)$/;

/** The metric names an expression reads, as written (suffixes kept). */
function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // label values, which may hold anything
    .replace(/\{[^}]*\}/g, " ") // label matchers
    .replace(/\[[^\]]*\]/g, " ") // ranges ([$__rate_interval], [5m])
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, " "); // grouping labels
  const names: string[] = [];
  for (const match of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*/g)) {
    const rest = bare.slice(match.index + match[0].length);
    if (/^\s*\(/.test(rest) || PROMQL_WORDS.has(match[0]) || match[0].startsWith("$")) continue;
    if (bare[match.index - 1] === "$") continue; // $instance, $__rate_interval
    names.push(match[0]);
  }
  return names;
}

const registered = new Map(metricsRegistry.getMetricsAsArray().map((metric) => [metric.name, metric]));

/** The names `expr` reads that the registry does not have (a _bucket of anything but a histogram counts as missing). */
function unknownMetrics(expr: string): string[] {
  return metricNamesIn(expr).filter((name) => {
    const base = name.replace(SERIES_SUFFIX, "");
    const metric = registered.get(base) ?? (base !== name ? undefined : registered.get(name));
    if (!metric) return !registered.has(name);
    return name.endsWith("_bucket") && !(metric instanceof Histogram);
  });
}

const allPanels = (panels: Panel[]): Panel[] => panels.flatMap((panel) => [panel, ...allPanels(panel.panels ?? [])]);

test("the check finds a metric that does not exist, and reads names through PromQL's syntax", () => {
  expect(
    metricNamesIn('histogram_quantile(0.99, sum by (le, operation) (rate(a_b_bucket{x="y"}[$__rate_interval])))'),
  ).toEqual(["a_b_bucket"]);
  expect(unknownMetrics("sum(rate(guildhall_no_such_metric_total[5m]))")).toEqual(["guildhall_no_such_metric_total"]);
  expect(unknownMetrics("rate(guildhall_dashboard_actions_total_bucket[5m])")).toEqual([
    "guildhall_dashboard_actions_total_bucket",
  ]);
  expect(unknownMetrics("rate(guildhall_api_request_duration_seconds_bucket[5m])")).toEqual([]);
});

test("every panel's expressions name registered metrics only", () => {
  const panels = allPanels(dashboard.panels).filter((panel) => panel.type !== "row");
  expect(panels.length).toBeGreaterThan(10);
  for (const panel of panels) {
    expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    for (const { expr } of panel.targets ?? []) {
      expect(metricNamesIn(expr).length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
      expect(unknownMetrics(expr), `${panel.title}: ${expr}`).toEqual([]);
    }
  }
});

test("every metric the process defines has a panel", () => {
  const used = new Set(
    allPanels(dashboard.panels)
      .flatMap((panel) => panel.targets ?? [])
      .flatMap(({ expr }) => metricNamesIn(expr).map((name) => name.replace(SERIES_SUFFIX, ""))),
  );
  const ours = [...registered.keys()].filter((name) => name.startsWith("guildhall_"));
  expect(ours.filter((name) => !used.has(name))).toEqual([]);
});

test("the dashboard imports with a Prometheus data source chosen at import", () => {
  expect(dashboard.schemaVersion).toBe(39);
  expect(dashboard.__inputs.map((input) => input.name)).toEqual(["DS_PROMETHEUS"]);
});

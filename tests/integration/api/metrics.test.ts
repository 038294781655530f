// GET /metrics counts what the API did: N Get Guild calls are N more in the histogram's count for that operation and
// status, an unknown guild is counted under its 404, and Node's process metrics are there for the soak and Grafana.
import { afterAll, beforeAll, expect, test } from "vitest";
import { Routes } from "discord-api-types/v10";
import { startTestServer, type TestServer } from "../harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ rateLimits: { enabled: false } });
});
afterAll(() => server?.close());

async function metricsText(): Promise<string> {
  const response = await fetch(`${server.baseUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return response.text();
}

/** The value of the sample `name{labels}` in the text (0 when the series does not exist yet). */
function sample(text: string, name: string, labels: string): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name}{${labels}} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : 0;
}

test("N Get Guild calls are N more in the operation's count; an unknown guild counts under 404", async () => {
  const count = "guildhall_api_request_duration_seconds_count";
  const before = await metricsText();
  for (let i = 0; i < 7; i++) await server.rest("owner").get(Routes.guild(server.world.guildId));
  await expect(server.rest("owner").get(Routes.guild("1234567890123456789"))).rejects.toThrow();
  const after = await metricsText();
  const ok = 'operation="Get Guild",status="200"';
  const unknown = 'operation="Get Guild",status="404"';
  expect(sample(after, count, ok) - sample(before, count, ok)).toBe(7);
  expect(sample(after, count, unknown) - sample(before, count, unknown)).toBe(1);
  // Buckets are cumulative: the last one holds every call.
  expect(sample(after, "guildhall_api_request_duration_seconds_bucket", `le="+Inf",${ok}`)).toBe(
    sample(after, count, ok),
  );
});

test("Node's process metrics: resident memory, heap used, event-loop delay, handles", async () => {
  const text = await metricsText();
  for (const name of [
    "process_resident_memory_bytes",
    "nodejs_heap_size_used_bytes",
    "nodejs_eventloop_lag_p99_seconds",
    "nodejs_active_handles_total",
  ])
    expect(text).toMatch(new RegExp(`^${name} \\d`, "m"));
});

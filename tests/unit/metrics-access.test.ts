// Who may read /metrics: a client on this machine by its socket's address (a forwarded header cannot make a remote
// caller look local), anyone else only with METRICS_TOKEN as a Bearer token.
import type { IncomingMessage } from "node:http";
import { expect, test } from "vitest";
import { mayReadMetrics } from "@/lib/server/metrics";

const request = (remoteAddress: string, headers: Record<string, string> = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as IncomingMessage;

test("loopback clients read the metrics without a token", () => {
  for (const address of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) expect(mayReadMetrics(request(address))).toBe(true);
});

test("others need the token: none configured, none sent, a wrong one or another scheme is refused", () => {
  const remote = "203.0.113.7";
  expect(mayReadMetrics(request(remote, { "x-forwarded-for": "127.0.0.1" }))).toBe(false);
  expect(mayReadMetrics(request(remote, { authorization: "Bearer anything" }), undefined)).toBe(false);
  expect(mayReadMetrics(request(remote), "s3cret-token")).toBe(false);
  expect(mayReadMetrics(request(remote, { authorization: "Bearer s3cret-tokeN" }), "s3cret-token")).toBe(false);
  expect(mayReadMetrics(request(remote, { authorization: "Bot s3cret-token" }), "s3cret-token")).toBe(false);
  expect(mayReadMetrics(request(remote, { authorization: "Bearer s3cret-token" }), "s3cret-token")).toBe(true);
});

// The fuzz suite's own judges must be able to fail: the database fingerprint sees a write and forgives a rollback,
// the error-shape check refuses what Discord would never send, and /cdn (outside the API router, named by issue 12)
// answers hostile owner ids at once.
import "./rate-limits-off";
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest";
import { errorBodyProblems, type Answer } from "./engine";
import { startFuzzServer, type FuzzServer } from "./fuzz-server";
import { HOSTILE_SNOWFLAKES } from "./hostile";
import { encodeComponent } from "./encoding";
import type { FuzzRequest } from "./operations";

let server: FuzzServer;
beforeAll(async () => {
  server = await startFuzzServer(inject("templateDatabase"));
});
afterAll(() => server.close());

describe("database fingerprint", () => {
  test("a committed write is a change", async () => {
    const { db } = await import("@/lib/guild-api/store/db");
    const before = server.target.fingerprint.before();
    db()
      .prepare("UPDATE guilds SET description = 'changed by the test' WHERE id = ?")
      .run(BigInt(server.world.guildId));
    expect(server.target.fingerprint.unchangedSince(before)).toBe(false);
  });

  test("a rolled-back write moves total_changes() but is no change", async () => {
    const { db, transaction } = await import("@/lib/guild-api/store/db");
    const before = server.target.fingerprint.before();
    await expect(
      transaction(async () => {
        db().prepare("DELETE FROM bans").run();
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    const changes = db().prepare("SELECT total_changes()").pluck().get() as bigint;
    expect(changes).not.toBe(before.changes);
    expect(server.target.fingerprint.unchangedSince(before)).toBe(true);
  });
});

describe("error shape", () => {
  const request: FuzzRequest = { caller: "bot", method: "PATCH", path: "/guilds/1", query: "", variant: "test" };
  const answer = (status: number, body: unknown, contentType = "application/json"): Answer => ({
    status,
    contentType,
    body: typeof body === "string" ? body : JSON.stringify(body),
    ms: 1,
  });

  test("accepts Discord's bodies", () => {
    expect(errorBodyProblems(request, answer(404, { message: "Unknown Guild", code: 10004 }))).toEqual([]);
    const tree = { name: { _errors: [{ code: "BASE_TYPE_REQUIRED", message: "This field is required" }] } };
    expect(
      errorBodyProblems(request, answer(400, { message: "Invalid Form Body", code: 50035, errors: tree })),
    ).toEqual([]);
  });

  test("the token endpoints answer OAuth2's {error}, except Discord's 413 for a body too large to read", () => {
    const token: FuzzRequest = { ...request, method: "POST", path: "/oauth2/token" };
    expect(errorBodyProblems(token, answer(400, { error: "invalid_grant" }))).toEqual([]);
    expect(
      errorBodyProblems(token, answer(400, { message: "Invalid Form Body", code: 50035, errors: {} })),
    ).not.toEqual([]);
    expect(errorBodyProblems(token, answer(413, { message: "Request entity too large", code: 40005 }))).toEqual([]);
  });

  test.each([
    ["no JSON", answer(400, "", "text/plain")],
    ["a string code", answer(403, { message: "Missing Access", code: "50001" })],
    ["no message", answer(403, { code: 50001 })],
    ["50035 without errors", answer(400, { message: "Invalid Form Body", code: 50035 })],
    ["an empty branch", answer(400, { message: "Invalid Form Body", code: 50035, errors: { name: {} } })],
    [
      "an _errors entry without a message",
      answer(400, { message: "x", code: 50035, errors: { a: { _errors: [{ code: "X" }] } } }),
    ],
  ])("refuses %s", (_, bad) => {
    expect(errorBodyProblems(request, bad)).not.toEqual([]);
  });
});

describe("/cdn", () => {
  // Finding 4: an owner id above 2^63 threw outside any handler and the request hung for 300 s.
  const ids = HOSTILE_SNOWFLAKES.filter((id) => id !== "").map((id) => [
    id.length > 30 ? `${id.slice(0, 12)}… (${id.length} characters)` : JSON.stringify(id),
    id,
  ]);
  test.each(ids)("owner id %s is answered at once without a 5xx", async (_, id) => {
    const url = `${server.target.baseUrl}/cdn/icons/${encodeComponent(id)}/${"a".repeat(32)}.png`;
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    expect(response.status).toBeGreaterThanOrEqual(200);
    expect(response.status).toBeLessThan(500);
  });
});

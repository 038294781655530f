// Finding 4 (the handler): any unexpected throw, synchronous or not, in the API or the CDN, is answered with
// Discord's JSON 500 at once and logged, instead of escaping the request listener and leaving the request hanging.
// The store's get() is made to throw under the running server (in this process), on either engine's driver, as a
// RangeError from the database driver did for the /cdn owner id above 2^63.
import { expect, test, vi } from "vitest";
import { tapLogs } from "@/lib/server/logger";
import { testServerForFile } from "../integration/harness";
import { SerializedDriver } from "@/lib/guild-api/store/serialized-driver";

const server = testServerForFile();

const quick = () => ({ signal: AbortSignal.timeout(5_000) });

test("a throw in the CDN and in an API route answers a JSON 500 at once and is logged", async () => {
  const cdnUrl = `${server.baseUrl}/cdn/icons/1/${"0".repeat(32)}.png`;
  expect((await fetch(cdnUrl, quick())).status).toBe(404);
  const logged: Array<Record<string, unknown>> = [];
  const untap = tapLogs((line) => logged.push(line));
  const failing = vi.spyOn(SerializedDriver.prototype, "get").mockImplementation(() => {
    throw new RangeError("The database driver failed");
  });
  try {
    const cdn = await fetch(cdnUrl, quick());
    expect(cdn.status).toBe(500);
    expect(cdn.headers.get("content-type")).toBe("application/json");
    expect(await cdn.json()).toEqual({ code: 0, message: "500: Internal Server Error" });

    const api = await fetch(`${server.baseUrl}/api/v10/guilds/${server.world.guildId}`, {
      headers: { authorization: `Bot ${server.botToken}` },
      ...quick(),
    });
    expect(api.status).toBe(500);
    expect(await api.json()).toEqual({ code: 0, message: "500: Internal Server Error" });
    const errors = logged.filter((line) => line.level === 50);
    expect(errors.length).toBeGreaterThan(0);
    // The log names the request by path only: never a query string, which may carry codes or tokens.
    expect(errors.some((line) => line.path === `/cdn/icons/1/${"0".repeat(32)}.png`)).toBe(true);
  } finally {
    failing.mockRestore();
    untap();
  }
});

// Finding 10 (incident actions): only JSON null lifts an action. "-1", "%00" and other strings that are not ISO 8601
// timestamps are refused with a field error, and the action stays as it was.
import { expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();

const route = () => `/guilds/${server.world.guildId}/incident-actions`;
const put = (body: unknown) => server.api("owner", "PUT", route(), body);

test("null forms other than null are refused; null and ISO timestamps work", async () => {
  const until = new Date(Date.now() + 60 * 60 * 1000).toISOString();
  const set = await put({ invites_disabled_until: until, dms_disabled_until: until });
  expect(set.status).toBe(200);
  const active = (await set.json()) as Record<string, string | null>;
  expect(active.invites_disabled_until).toBe(until);

  for (const value of ["-1", "%00", "0", "", "null", "1", "tomorrow", "2026-13-45T00:00:00Z", "2026-01-01"]) {
    for (const field of ["invites_disabled_until", "dms_disabled_until"]) {
      const response = await put({ [field]: value });
      expect(response.status, `${field}: ${JSON.stringify(value)}`).toBe(400);
      const body = (await response.json()) as { code: number; errors: Record<string, { _errors: unknown[] }> };
      expect(body.code).toBe(50035);
      expect(body.errors[field]._errors).toHaveLength(1);
    }
  }
  const guild = (await (await server.api("owner", "GET", `/guilds/${server.world.guildId}`)).json()) as {
    incidents_data: Record<string, string | null> | null;
  };
  expect(guild.incidents_data?.invites_disabled_until).toBe(until);

  const lifted = (await (await put({ invites_disabled_until: null, dms_disabled_until: null })).json()) as Record<
    string,
    string | null
  >;
  expect(lifted.invites_disabled_until).toBeNull();
  expect(lifted.dms_disabled_until).toBeNull();
});

// Finding 10 (names): guild, channel and role names (and nicks) are trimmed as Discord trims them; a name that is
// only whitespace, or holds NUL, other control characters or an unpaired surrogate, is refused and nothing changes.
import { describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();

// JSON.stringify writes an unpaired surrogate as a \ud800 escape, which the server decodes back to one.
const BAD_NAMES = ["   ", "\t\n", "bad\u0000name", "bad\u0007name", "bad\u009fname", "bad\ud800name", "bad\udc00"];

async function expectNameRefused(response: Response, field: string) {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { code: number; errors: Record<string, { _errors: unknown[] }> };
  expect(body.code).toBe(50035);
  expect(body.errors[field]._errors.length).toBeGreaterThan(0);
}

describe("names", () => {
  test("guild names", async () => {
    const route = `/guilds/${server.world.guildId}`;
    const before = (await (await server.api("owner", "GET", route)).json()) as { name: string };
    for (const name of BAD_NAMES) await expectNameRefused(await server.api("owner", "PATCH", route, { name }), "name");
    expect(((await (await server.api("owner", "GET", route)).json()) as { name: string }).name).toBe(before.name);
    const trimmed = await server.api("owner", "PATCH", route, { name: `  ${before.name}\t` });
    expect(((await trimmed.json()) as { name: string }).name).toBe(before.name);
  });

  test("channel names", async () => {
    const route = `/guilds/${server.world.guildId}/channels`;
    const count = async () => ((await (await server.api("owner", "GET", route)).json()) as unknown[]).length;
    const before = await count();
    for (const name of BAD_NAMES) await expectNameRefused(await server.api("owner", "POST", route, { name }), "name");
    expect(await count()).toBe(before);
    const created = (await (await server.api("owner", "POST", route, { name: "  lobby  " })).json()) as {
      name: string;
    };
    expect(created.name).toBe("lobby");
  });

  test("role names", async () => {
    const route = `/guilds/${server.world.guildId}/roles`;
    const count = async () => ((await (await server.api("owner", "GET", route)).json()) as unknown[]).length;
    const before = await count();
    for (const name of BAD_NAMES) await expectNameRefused(await server.api("owner", "POST", route, { name }), "name");
    expect(await count()).toBe(before);
    const created = (await (await server.api("owner", "POST", route, { name: " Crew " })).json()) as { name: string };
    expect(created.name).toBe("Crew");
  });

  test("nicks refuse control characters and unpaired surrogates", async () => {
    const route = `/guilds/${server.world.guildId}/members/${server.world.users.member}`;
    for (const nick of BAD_NAMES.slice(2))
      await expectNameRefused(await server.api("owner", "PATCH", route, { nick }), "nick");
  });
});

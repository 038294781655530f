// discord.py sends snowflakes as JSON integers, and JSON.parse rounds integers above 2^53: every id field takes a
// string or an integer, and an integer id arrives exact. Boolean strings and query booleans as Discord takes them.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../harness";

let server: TestServer;
// Ids near 2^60 that a double can't hold: JSON.parse would turn 1100000000000000001 into 1100000000000000000.
const ROLE = "1100000000000000001";
const USER = "1100000000000000002";
const CHANNEL = "1100000000000000003";
beforeAll(async () => {
  server = await startTestServer();
  const { sql } = await import("@/lib/guild-api/store/db");
  const guildId = BigInt(server.world.guildId);
  await sql.run(
    "INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, 'Exact', 0, 1)",
    BigInt(ROLE),
    guildId,
  );
  await sql.run(
    "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, 'exact', '0', FALSE, 0)",
    BigInt(USER),
  );
  await sql.run(
    "INSERT INTO channels (id, guild_id, type, name, position) VALUES (?, ?, 0, 'exact', 50)",
    BigInt(CHANNEL),
    guildId,
  );
});
afterAll(() => server?.close());

/** Sends `json` as written: integers in it stay integer literals, as discord.py writes them. */
const raw = async (method: string, route: string, json: string, as = "owner") => {
  const response = await fetch(`${server.baseUrl}/api/v10${route}`, {
    method,
    headers: { authorization: `Bearer ${await server.tokenFor(as)}`, "content-type": "application/json" },
    body: json,
  });
  const text = await response.text();
  expect(response.status, `${method} ${route} ${json}: ${text}`).toBeLessThan(300);
  return text ? (JSON.parse(text) as unknown) : null;
};
const get = async <T>(route: string) => (await (await server.api("owner", "GET", route)).json()) as T;

/** The ids used here are not exact as doubles, so a rounding parser would send the test a different id. */
const inexact = (id: string) => {
  expect(BigInt(Number(id)) === BigInt(id), `${id} must not survive a round trip through a double`).toBe(false);
  return id;
};

const guild = () => server.world.guildId;

describe("integer snowflakes", () => {
  test("member roles and a role position move", async () => {
    const role = inexact(ROLE);
    const member = `/guilds/${guild()}/members/${server.world.users.member}`;
    await raw("PATCH", member, `{"roles": [${role}]}`);
    expect((await get<{ roles: string[] }>(member)).roles).toEqual([role]);

    const roles = await get<Array<{ id: string; position: number }>>(`/guilds/${guild()}/roles`);
    const position = roles.find((r) => r.id === role)!.position;
    await raw("PATCH", `/guilds/${guild()}/roles`, `[{"id": ${role}, "position": ${position}}]`);
  });

  test("guild channel ids, widget channel_id, channel positions with parent_id, overwrite ids", async () => {
    const general = inexact(CHANNEL);
    const updated = (await raw(
      "PATCH",
      `/guilds/${guild()}`,
      `{"system_channel_id": ${general}, "rules_channel_id": ${general}}`,
    )) as Record<string, string>;
    expect(updated.system_channel_id).toBe(general);
    expect(updated.rules_channel_id).toBe(general);

    const widget = (await raw("PATCH", `/guilds/${guild()}/widget`, `{"enabled": true, "channel_id": ${general}}`)) as {
      channel_id: string;
    };
    expect(widget.channel_id).toBe(general);

    const category = (await raw("POST", `/guilds/${guild()}/channels`, `{"name": "ints", "type": 4}`)) as {
      id: string;
    };
    const role = inexact(ROLE);
    const child = (await raw(
      "POST",
      `/guilds/${guild()}/channels`,
      // allow: a permission bitfield as an integer beyond 2^53 (1 << 53 | VIEW_CHANNEL).
      `{"name": "int-child", "permission_overwrites": [{"id": ${role}, "type": 0, "allow": ${(1n << 53n) | 1024n}, "deny": 0}]}`,
    )) as { id: string; permission_overwrites: Array<{ id: string; allow: string }> };
    // The id arrives exact; the bitfield integer beyond 2^53 is read exactly too (bits Discord doesn't define are dropped).
    expect(child.permission_overwrites.map((o) => [o.id, BigInt(o.allow) & 1024n])).toEqual([[role, 1024n]]);

    await raw("PATCH", `/guilds/${guild()}/channels`, `[{"id": ${CHANNEL}, "parent_id": ${category.id}}]`);
    const channels = await get<Array<{ id: string; parent_id: string | null }>>(`/guilds/${guild()}/channels`);
    expect(channels.find((c) => c.id === CHANNEL)!.parent_id).toBe(category.id);
  });

  test("welcome screen channel_id", async () => {
    const general = inexact(CHANNEL);
    const screen = (await raw(
      "PATCH",
      `/guilds/${guild()}/welcome-screen`,
      `{"welcome_channels": [{"channel_id": ${general}, "description": "Say hi"}]}`,
    )) as { welcome_channels: Array<{ channel_id: string }> };
    expect(screen.welcome_channels.map((c) => c.channel_id)).toEqual([general]);
  });

  test("bulk-ban user_ids as integers", async () => {
    const outsider = inexact(USER);
    const result = (await raw("POST", `/guilds/${guild()}/bulk-ban`, `{"user_ids": [${outsider}]}`)) as {
      banned_users: string[];
    };
    expect(result.banned_users).toEqual([outsider]);
    expect((await server.api("owner", "GET", `/guilds/${guild()}/bans/${outsider}`)).status).toBe(200);
  });
});

describe("booleans as Discord takes them", () => {
  test('prune with compute_prune_count "false" and "true" (as discord.py sends it), include_roles as integers', async () => {
    const role = ROLE;
    const route = `/guilds/${guild()}/prune`;
    expect(
      await raw("POST", route, `{"days": 30, "compute_prune_count": "false", "include_roles": [${role}]}`),
    ).toEqual({
      pruned: null,
    });
    expect(await raw("POST", route, `{"days": 30, "compute_prune_count": "true"}`)).toEqual({
      pruned: expect.any(Number),
    });
    const refused = await server.api("owner", "POST", route, { compute_prune_count: "maybe" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      errors: { compute_prune_count: { _errors: [{ code: "BOOLEAN_TYPE_COERCE" }] } },
    });
  });

  test("query booleans: true, false, True, False, 1, 0", async () => {
    for (const [value, counted] of [
      ["true", true],
      ["True", true],
      ["1", true],
      ["false", false],
      ["False", false],
      ["0", false],
    ] as const) {
      const body = await get<Record<string, unknown>>(`/guilds/${guild()}?with_counts=${value}`);
      expect("approximate_member_count" in body, value).toBe(counted);
    }
    expect((await server.api("owner", "GET", `/guilds/${guild()}?with_counts=yes`)).status).toBe(400);
  });
});

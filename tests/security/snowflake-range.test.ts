// Finding 4: a snowflake out of the 64-bit range (path, query, body, /cdn) is answered 400 50035 with a field error at
// once: never a 500, a hang, or a throw outside any handler.
import { describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();

const TOO_BIG = "9223372036854775808"; // 2^63
const WAY_TOO_BIG = "99999999999999999999";

/** Fails fast instead of hanging: the finding's /cdn request hung for 300 s. */
const quick = { signal: AbortSignal.timeout(5_000) };

async function expectFieldError(response: Response, path: Array<string | number>) {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { code: number; errors: Record<string, unknown> };
  expect(body.code).toBe(50035);
  let node: unknown = body.errors;
  for (const key of path) node = (node as Record<string, unknown>)[String(key)];
  expect(node).toMatchObject({ _errors: [{ code: "NUMBER_TYPE_COERCE" }] });
}

const api = (as: string, method: string, route: string, body?: unknown) => server.api(as, method, route, body);

describe("out-of-range snowflakes", () => {
  test("/cdn with an owner id above 2^63 answers 400 JSON at once", async () => {
    const hash = "0".repeat(32);
    for (const owner of [TOO_BIG, WAY_TOO_BIG]) {
      const response = await fetch(`${server.baseUrl}/cdn/icons/${owner}/${hash}.png`, quick);
      await expectFieldError(response, ["owner_id"]);
    }
    // In range and unknown is still a plain 404.
    expect((await fetch(`${server.baseUrl}/cdn/icons/1/${hash}.png`, quick)).status).toBe(404);
  });

  test("query cursors: members?after=2^63, bans?before=…, audit-logs?user_id=…", async () => {
    const guild = server.world.guildId;
    await expectFieldError(await api("owner", "GET", `/guilds/${guild}/members?after=${TOO_BIG}`), ["after"]);
    await expectFieldError(await api("owner", "GET", `/guilds/${guild}/bans?before=${WAY_TOO_BIG}`), ["before"]);
    await expectFieldError(await api("owner", "GET", `/guilds/${guild}/audit-logs?user_id=${TOO_BIG}`), ["user_id"]);
    await expectFieldError(await api("owner", "GET", `/users/@me/guilds?after=${TOO_BIG}`), ["after"]);
    await expectFieldError(await api("owner", "GET", `/guilds/${guild}/prune?include_roles=${TOO_BIG}`), [
      "include_roles",
      0,
    ]);
    // after=0 starts before every id, as on Discord.
    expect((await api("owner", "GET", `/guilds/${guild}/members?after=0`)).status).toBe(200);
  });

  test("path ids above 2^63", async () => {
    await expectFieldError(await api("owner", "GET", `/guilds/${TOO_BIG}`), ["guild_id"]);
    await expectFieldError(await api("owner", "GET", `/guilds/${server.world.guildId}/members/${WAY_TOO_BIG}`), [
      "user_id",
    ]);
  });

  test("body ids: a member's channel_id and roles, role and channel positions, bulk-ban user_ids, overwrites", async () => {
    const guild = server.world.guildId;
    const member = `/guilds/${guild}/members/${server.world.users.member}`;
    await expectFieldError(await api("owner", "PATCH", member, { channel_id: WAY_TOO_BIG }), ["channel_id"]);
    await expectFieldError(await api("owner", "PATCH", member, { roles: [TOO_BIG] }), ["roles", 0]);
    await expectFieldError(await api("owner", "PATCH", `/guilds/${guild}/roles`, [{ id: TOO_BIG, position: 1 }]), [
      0,
      "id",
    ]);
    await expectFieldError(
      await api("owner", "PATCH", `/guilds/${guild}/channels`, [{ id: WAY_TOO_BIG, position: 1 }]),
      [0, "id"],
    );
    await expectFieldError(await api("owner", "POST", `/guilds/${guild}/bulk-ban`, { user_ids: [TOO_BIG] }), [
      "user_ids",
      0,
    ]);
    await expectFieldError(
      await api("owner", "POST", `/guilds/${guild}/channels`, {
        name: "x",
        permission_overwrites: [{ id: TOO_BIG, type: 0 }],
      }),
      ["permission_overwrites", 0, "id"],
    );
    await expectFieldError(await api("owner", "PATCH", `/guilds/${guild}`, { afk_channel_id: TOO_BIG }), [
      "afk_channel_id",
    ]);
    await expectFieldError(await api("owner", "PATCH", `/guilds/${guild}/widget`, { channel_id: WAY_TOO_BIG }), [
      "channel_id",
    ]);
  });

  test("JSON integers out of range (or not integers) are refused the same way", async () => {
    const member = `/guilds/${server.world.guildId}/members/${server.world.users.member}`;
    for (const literal of [TOO_BIG, WAY_TOO_BIG, "-5", "1.5", "0"]) {
      const response = await fetch(`${server.baseUrl}/api/v10${member}`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${await server.tokenFor("owner")}`, "content-type": "application/json" },
        body: `{"channel_id": ${literal}}`,
      });
      await expectFieldError(response, ["channel_id"]);
    }
  });
});

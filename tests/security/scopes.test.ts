// Finding 2 of issue 12: a Bearer token does exactly what its scopes grant. Managing a guild with a user's token
// needs Guildhall's own scope (guildhall.manage); guilds.join is needed to join through an invite; the
// client_credentials grant never yields management or guilds.join; `npm run token` keeps a dashboard-capable default.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { Routes } from "discord-api-types/v10";
import { describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();

const UNAUTHORIZED = { code: 0, message: "401: Unauthorized" };

/** A raw call with a given Bearer token (the harness's api() mints its own). */
function call(token: string, method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(`${server.baseUrl}/api/v10${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

const guildState = async () => {
  const guild = (await server.rest("owner").get(Routes.guild(server.world.guildId), {
    query: new URLSearchParams({ with_counts: "true" }),
  })) as { name: string; approximate_member_count: number };
  return { name: guild.name, members: guild.approximate_member_count };
};

const isMember = async (userId: string) =>
  (await server.api("owner", "GET", `/guilds/${server.world.guildId}/members/${userId}`)).status === 200;

async function createInvite(): Promise<string> {
  const response = await server.api("owner", "POST", `/channels/${server.world.channels.general}/invites`, {
    unique: true,
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { code: string }).code;
}

function clientCredentials(scope: string): Promise<Response> {
  return fetch(`${server.baseUrl}/api/v10/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: server.world.applicationId,
      client_secret: server.clientSecret,
      grant_type: "client_credentials",
      scope,
    }),
  });
}

describe("management needs guildhall.manage", () => {
  test("an identify-only token cannot modify the guild, ban or prune (401 as Discord answers), and nothing changes", async () => {
    const { guildId, users } = server.world;
    const token = await server.tokenFor("mod", ["identify"]);
    const before = await guildState();

    const patched = await call(token, "PATCH", `/guilds/${guildId}`, { name: "Renamed with identify" });
    expect(patched.status).toBe(401);
    expect(await patched.json()).toEqual(UNAUTHORIZED);

    const banned = await call(token, "PUT", `/guilds/${guildId}/bans/${users.member}`, {});
    expect(banned.status).toBe(401);
    expect(await banned.json()).toEqual(UNAUTHORIZED);

    const pruned = await call(token, "POST", `/guilds/${guildId}/prune`, { days: 1 });
    expect(pruned.status).toBe(401);
    expect(await pruned.json()).toEqual(UNAUTHORIZED);

    // Reads of the guild are management too.
    expect((await call(token, "GET", `/guilds/${guildId}`)).status).toBe(401);

    expect(await guildState()).toEqual(before);
    expect((await server.api("owner", "GET", `/guilds/${guildId}/bans/${users.member}`)).status).toBe(404);
    expect(await isMember(users.member)).toBe(true);
    // What identify grants still works, and Discord lets any user token list a guild's channels.
    expect((await call(token, "GET", "/users/@me")).status).toBe(200);
    expect((await call(token, "GET", `/guilds/${guildId}/channels`)).status).toBe(200);
  });

  test("the same moderator with guildhall.manage is judged by their permissions; bot tokens are unaffected", async () => {
    const { guildId } = server.world;
    const token = await server.tokenFor("mod", ["identify", "guildhall.manage"]);
    expect((await call(token, "GET", `/guilds/${guildId}/bans`)).status).toBe(200);
    // A helper with the scope still lacks BAN_MEMBERS.
    const helper = await server.tokenFor("helper", ["guildhall.manage"]);
    expect(await (await call(helper, "GET", `/guilds/${guildId}/bans`)).json()).toMatchObject({ code: 50013 });
    expect((await server.api("bot", "GET", `/guilds/${guildId}`)).status).toBe(200);
  });

  test("a scope for something else (guilds, guilds.join) grants no management", async () => {
    const { guildId } = server.world;
    const before = await guildState();
    const token = await server.tokenFor("owner", ["identify", "guilds", "guilds.join", "guilds.members.read"]);
    expect((await call(token, "PATCH", `/guilds/${guildId}`, { name: "Owner without the scope" })).status).toBe(401);
    expect(await guildState()).toEqual(before);
    expect((await call(token, "GET", "/users/@me/guilds")).status).toBe(200);
    expect((await call(token, "GET", `/users/@me/guilds/${guildId}/member`)).status).toBe(200);
  });
});

describe("guilds.join", () => {
  test("joining through an invite needs guilds.join; without it nothing changes", async () => {
    const { users } = server.world;
    const code = await createInvite();
    const before = await guildState();

    const refused = await call(await server.tokenFor("outsider", ["identify", "guilds"]), "POST", `/invites/${code}`);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 50026 });
    expect(await isMember(users.outsider)).toBe(false);
    expect(await guildState()).toEqual(before);

    const accepted = await call(await server.tokenFor("outsider", ["guilds.join"]), "POST", `/invites/${code}`);
    expect(accepted.status).toBe(200);
    expect(await isMember(users.outsider)).toBe(true);
  });

  test("a user's token may not add members for others even with guilds.join (Add Guild Member is the bot's)", async () => {
    const { guildId, users } = server.world;
    const response = await call(await server.tokenFor("owner"), "PUT", `/guilds/${guildId}/members/${users.helper}`, {
      access_token: await server.tokenFor("helper", ["guilds.join"]),
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 20002 });
  });
});

describe("client_credentials", () => {
  test("never grants guilds.join or guild management", async () => {
    for (const scope of ["guildhall.manage", "identify guilds.join", "guilds.join", "identify guildhall.manage"]) {
      const response = await clientCredentials(scope);
      expect(response.status, scope).toBe(400);
      expect(await response.json()).toMatchObject({ error: "invalid_scope" });
    }
  });

  test("its token does not act with the owner's rights: management and joining are refused, nothing changes", async () => {
    const { guildId, users } = server.world;
    const response = await clientCredentials("identify guilds");
    expect(response.status).toBe(200);
    const { access_token: token } = (await response.json()) as { access_token: string };
    const before = await guildState();

    const patched = await call(token, "PATCH", `/guilds/${guildId}`, { name: "Renamed by client credentials" });
    expect(patched.status).toBe(401);
    expect(await patched.json()).toEqual(UNAUTHORIZED);
    expect((await call(token, "PUT", `/guilds/${guildId}/bans/${users.member}`, {})).status).toBe(401);
    expect((await call(token, "POST", `/invites/${await createInvite()}`)).status).toBe(403);

    expect(await guildState()).toEqual(before);
    expect((await server.api("owner", "GET", `/guilds/${guildId}/bans/${users.member}`)).status).toBe(404);
    // It is still the owner's token for what its scopes grant.
    expect(((await (await call(token, "GET", "/users/@me")).json()) as { username: string }).username).toBe("owner");
  });
});

describe("npm run token", () => {
  test("with no scopes prints a token that can do what the dashboard's sign-in can", async () => {
    const root = path.resolve(__dirname, "../..");
    const { stdout } = await promisify(execFile)(
      path.join(root, "node_modules/.bin/tsx"),
      ["scripts/token.ts", "mod"],
      {
        cwd: root,
        env: { ...process.env, NODE_ENV: "development" },
      },
    );
    const token = stdout.trim();
    const info = (await (await call(token, "GET", "/oauth2/@me")).json()) as { scopes: string[] };
    expect(info.scopes).toEqual(expect.arrayContaining(["identify", "guilds", "guildhall.manage"]));

    const { guildId } = server.world;
    const before = await guildState();
    const renamed = await call(token, "PATCH", `/guilds/${guildId}`, { name: "Renamed by the dev token" });
    expect(renamed.status).toBe(200);
    expect((await guildState()).name).toBe("Renamed by the dev token");
    expect((await call(token, "PATCH", `/guilds/${guildId}`, { name: before.name })).status).toBe(200);
  });
});

// Applications: Get/Edit Current Application and Get Global Application Commands over HTTP, and the Developer
// Portal's rules (redirect URIs, URL Mappings, Activities and the entry point, installation contexts, secret resets)
// through the service the portal's server actions call. Tests run in order and restore what they change;
// the secret resets run last because they invalidate the harness's bot token.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { expectOperationResponse, expectSchema } from "../openapi";
import { redirectUrisOf } from "@/lib/guild-api/store/applications";
import { sql } from "@/lib/guild-api/store/db";

let server: TestServer;
let baseUrl: string;
let closeApi: () => Promise<void> = async () => {};
let apps: typeof import("@/lib/guild-api/services/applications");
let oauth2: typeof import("@/lib/guild-api/services/oauth2");
let ApiErrorClass: typeof import("@/lib/guild-api/errors").ApiError;
let botToken: string;

const EMBEDDED = 1 << 17;
const GATEWAY_GUILD_MEMBERS = 1 << 14;
const GATEWAY_GUILD_MEMBERS_LIMITED = 1 << 15;
const OTHER_APP = 8_100_000_000n;
const OTHER_BOT = 8_100_000_001n;
const OTHER_BOT_TOKEN = "other-bot-token";

beforeAll(async () => {
  server = await startTestServer();
  botToken = server.botToken;
  apps = await import("@/lib/guild-api/services/applications");
  oauth2 = await import("@/lib/guild-api/services/oauth2");
  ({ ApiError: ApiErrorClass } = await import("@/lib/guild-api/errors"));
  const { apiRoutes, createApiRouter } = await import("@/lib/guild-api/routes");
  const registered = apiRoutes.some((r) => r.path === "/applications/@me");
  if (registered) {
    baseUrl = server.baseUrl;
  } else {
    // Until routes/index.ts registers applicationRoutes, serve them beside the others on a server of our own.
    const { applicationRoutes } = await import("@/lib/guild-api/routes/applications");
    const { handleApiRequest } = await import("@/lib/guild-api/http");
    const router = createApiRouter([...apiRoutes, ...applicationRoutes]);
    const api = http.createServer((req, res) => {
      const [path, search = ""] = (req.url ?? "/").split("?");
      void handleApiRequest(router, req, res, path.slice("/api/v10".length), search, baseUrl, "test");
    });
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    baseUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
    closeApi = () => new Promise((resolve) => api.close(() => resolve()));
  }
  // A second application (owned by admin) with its own bot, to check that access stays within one application.
  const { hashSecret } = await import("@/lib/guild-api/tokens");
  await sql.run(
    "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, 'other-bot', '0', TRUE, 0)",
    OTHER_BOT,
  );
  await sql.run(
    "INSERT INTO applications (id, name, owner_id, bot_user_id, bot_token_hash, client_secret_hash, created_at) VALUES (?, 'Other', ?, ?, ?, 'x', 0)",
    OTHER_APP,
    BigInt(server.world.users.admin),
    OTHER_BOT,
    hashSecret(OTHER_BOT_TOKEN),
  );
});
afterAll(async () => {
  await closeApi();
  await server?.close();
});

const tokens = new Map<string, string>();
async function auth(as: string): Promise<string> {
  if (as === "bot") return `Bot ${botToken}`;
  if (as === "other-bot") return `Bot ${OTHER_BOT_TOKEN}`;
  let token = tokens.get(as);
  if (!token) tokens.set(as, (token = await server.tokenFor(as)));
  return `Bearer ${token}`;
}

// Bodies are validated against Discord's OpenAPI schemas where it matters, then read field by field.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;

async function api(
  as: string | null,
  method: string,
  route: string,
  body?: unknown,
): Promise<{ status: number; json: Loose }> {
  const headers: Record<string, string> = {};
  if (as) headers.authorization = await auth(as);
  if (body !== undefined) headers["content-type"] = "application/json";
  const res = await fetch(`${baseUrl}/api/v10${route}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

const appId = () => server.world.applicationId;
const ownerAccess = async () => await apps.applicationAccessForOwner(appId(), BigInt(server.world.users.owner));
const row = async () =>
  (await sql.get("SELECT * FROM applications WHERE id = ?", BigInt(appId()))) as Record<string, Loose>;
const entryPoints = async () =>
  (await sql.all("SELECT * FROM application_commands WHERE application_id = ? AND type = 4", BigInt(appId()))) as Array<
    Record<string, Loose>
  >;

/** Runs fn expecting an ApiError; returns it for assertions on status, code and field errors. */
async function apiError(pending: Promise<unknown>): Promise<import("@/lib/guild-api/errors").ApiError> {
  try {
    await pending;
  } catch (error) {
    if (error instanceof ApiErrorClass) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}
const fieldCodes = (error: { errors?: unknown }) => JSON.stringify(error.errors ?? {});

describe("GET /applications/@me", () => {
  test("the bot token's application, in Discord's private shape", async () => {
    const { status, json } = await api("bot", "GET", "/applications/@me");
    expect(status).toBe(200);
    expectOperationResponse("GET", "/applications/@me", 200, json);
    expectSchema("PrivateApplicationResponse", json);
    expect(json).toMatchObject({
      id: appId(),
      name: "Guildhall Demo",
      owner: { id: server.world.users.owner },
      bot: { id: server.world.botUserId, bot: true },
    });
    expect(json.redirect_uris).toContain("https://127.0.0.1/placeholder");
    // Activities are on in the demo: EMBEDDED is set beside the stored GATEWAY_GUILD_MEMBERS.
    expect(json.flags).toBe(GATEWAY_GUILD_MEMBERS | EMBEDDED);
    expect(Object.keys(json.integration_types_config).sort()).toEqual(["0", "1"]);
    expect(json.approximate_guild_count).toBeGreaterThanOrEqual(1);
  });

  test("the owner's Bearer token works; another user's is refused; no token is 401", async () => {
    const owner = await api("owner", "GET", "/applications/@me");
    expect(owner.status).toBe(200);
    expect(owner.json.id).toBe(appId());
    expectSchema("PrivateApplicationResponse", owner.json);
    const member = await api("member", "GET", "/applications/@me");
    expect(member.status).toBe(403);
    expect(member.json.code).toBe(50001);
    expect((await api(null, "GET", "/applications/@me")).status).toBe(401);
  });

  test("another application's bot sees its own application", async () => {
    const { status, json } = await api("other-bot", "GET", "/applications/@me");
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: String(OTHER_APP),
      name: "Other",
      owner: { id: server.world.users.admin },
      redirect_uris: [],
    });
    expect(json.flags & EMBEDDED).toBe(0);
  });
});

describe("PATCH /applications/@me", () => {
  test("description and installation contexts (the keys of integration_types_config)", async () => {
    const { status, json } = await api("bot", "PATCH", "/applications/@me", {
      description: "Updated by the bot",
      integration_types_config: { "1": {} },
    });
    expect(status).toBe(200);
    expectOperationResponse("PATCH", "/applications/@me", 200, json);
    expect(json.description).toBe("Updated by the bot");
    expect(Object.keys(json.integration_types_config)).toEqual(["1"]);
    expect(JSON.parse((await row()).integration_types)).toEqual([1]);

    // Discord's localized form of the description, and both contexts back.
    const back = await api("owner", "PATCH", "/applications/@me", {
      description: { default: "Back again" },
      integration_types_config: { "0": null, "1": { oauth2_install_params: null } },
    });
    expect(back.status).toBe(200);
    expect(back.json.description).toBe("Back again");
    expect(JSON.parse((await row()).integration_types)).toEqual([0, 1]);
  });

  test("at least one installation context; only 0 and 1 exist", async () => {
    const none = await api("bot", "PATCH", "/applications/@me", { integration_types_config: {} });
    expect(none.status).toBe(400);
    expect(none.json.code).toBe(50035);
    expect(none.json.errors.integration_types_config._errors[0].message).toMatch(/at least one installation context/);
    const unknown = await api("bot", "PATCH", "/applications/@me", { integration_types_config: { "2": {} } });
    expect(unknown.status).toBe(400);
    expect(JSON.parse((await row()).integration_types)).toEqual([0, 1]);
  });

  test("flags: the limited gateway intents can change, the others can't", async () => {
    const limited = await api("bot", "PATCH", "/applications/@me", {
      flags: GATEWAY_GUILD_MEMBERS | GATEWAY_GUILD_MEMBERS_LIMITED | EMBEDDED,
    });
    expect(limited.status).toBe(200);
    expect(limited.json.flags).toBe(GATEWAY_GUILD_MEMBERS | GATEWAY_GUILD_MEMBERS_LIMITED | EMBEDDED);
    expect(Number((await row()).flags)).toBe(GATEWAY_GUILD_MEMBERS | GATEWAY_GUILD_MEMBERS_LIMITED);

    const fixed = await api("bot", "PATCH", "/applications/@me", { flags: 0 });
    expect(fixed.status).toBe(400);
    expect(fixed.json.errors.flags._errors[0].code).toBe("BASE_TYPE_INVALID");
    expect(Number((await row()).flags)).toBe(GATEWAY_GUILD_MEMBERS | GATEWAY_GUILD_MEMBERS_LIMITED);

    expect((await api("bot", "PATCH", "/applications/@me", { flags: GATEWAY_GUILD_MEMBERS })).status).toBe(200);
    expect(Number((await row()).flags)).toBe(GATEWAY_GUILD_MEMBERS);
  });

  test("bad bodies are 400 50035 with field errors, never 500", async () => {
    const long = await api("bot", "PATCH", "/applications/@me", { description: "x".repeat(401) });
    expect(long.status).toBe(400);
    expect(long.json.errors.description._errors[0].code).toBe("BASE_TYPE_MAX_LENGTH");
    const wrongType = await api("bot", "PATCH", "/applications/@me", { flags: "many" });
    expect(wrongType.status).toBe(400);
    expect((await api("member", "PATCH", "/applications/@me", { description: "hijack" })).status).toBe(403);
    expect((await row()).description).toBe("Back again");
  });
});

describe("GET /applications/{application.id}/commands", () => {
  test("the entry point command, with its handler, for the bot and the owner", async () => {
    for (const as of ["bot", "owner"]) {
      const { status, json } = await api(as, "GET", `/applications/${appId()}/commands`);
      expect(status).toBe(200);
      expectOperationResponse("GET", "/applications/{application_id}/commands", 200, json);
      expect(json).toHaveLength(1);
      expectSchema("ApplicationCommandResponse", json[0]);
      expect(json[0]).toMatchObject({
        application_id: appId(),
        type: 4,
        name: "launch",
        description: "Launch Guildhall Demo",
        handler: 2,
        integration_types: [0, 1],
        contexts: [0, 1, 2],
      });
    }
  });

  test("other callers: 403 for a stranger or another app's bot, 404 for an unknown application", async () => {
    expect((await api("member", "GET", `/applications/${appId()}/commands`)).json.code).toBe(50001);
    expect((await api("other-bot", "GET", `/applications/${appId()}/commands`)).status).toBe(403);
    const unknown = await api("bot", "GET", "/applications/123/commands");
    expect(unknown.status).toBe(404);
    expect(unknown.json.code).toBe(10002);
    expect((await api("bot", "GET", "/applications/not-an-id/commands")).status).toBe(404);
    // The other app has no commands yet.
    expect((await api("other-bot", "GET", `/applications/${OTHER_APP}/commands`)).json).toEqual([]);
  });
});

describe("portal access", () => {
  test("only the owner gets access; unknown applications are 404", async () => {
    expect((await ownerAccess()).application.name).toBe("Guildhall Demo");
    expect((await apiError(apps.applicationAccessForOwner(appId(), BigInt(server.world.users.member)))).status).toBe(
      403,
    );
    expect((await apiError(apps.applicationAccessForOwner(appId(), BigInt(server.world.users.admin)))).status).toBe(
      403,
    );
    expect((await apiError(apps.applicationAccessForOwner("42", BigInt(server.world.users.owner)))).code).toBe(10002);
  });

  test("the application list holds what the user owns", async () => {
    // The dashboard's application and the sample Activity's own (issue 29, finding 5).
    expect((await apps.listOwnedApplications(BigInt(server.world.users.owner))).map((a) => a.name)).toEqual([
      "Guildhall Demo",
      "Guildhall Activity",
    ]);
    expect((await apps.listOwnedApplications(BigInt(server.world.users.admin))).map((a) => a.name)).toEqual(["Other"]);
    expect(await apps.listOwnedApplications(BigInt(server.world.users.member))).toEqual([]);
  });
});

describe("redirect URIs (setup rule 1)", () => {
  test.each([
    ["ftp://files.example.com/cb", "URL_TYPE_INVALID_SCHEME"],
    ["javascript:alert(1)", "URL_TYPE_INVALID_SCHEME"],
    ["/relative/callback", "URL_TYPE_INVALID_URL"],
    ["example.com/callback", "URL_TYPE_INVALID_URL"],
    ["https://example.com/cb#fragment", "URL_TYPE_INVALID_URL"],
    ["https://exa mple.com/cb", "URL_TYPE_INVALID_URL"],
    ["", "URL_TYPE_INVALID_URL"],
  ])("refuses %j (%s)", async (uri, code) => {
    const error = await apiError(apps.addRedirectUri(await ownerAccess(), uri));
    expect(error.status).toBe(400);
    expect(fieldCodes(error)).toContain(code);
  });

  test("a placeholder address is accepted; the authorize endpoint then accepts it, and refuses it once removed", async () => {
    const placeholder = "https://127.0.0.1/another-placeholder";
    const before = redirectUrisOf(await apps.getApplicationOrThrow(appId()));
    expect(await apps.addRedirectUri(await ownerAccess(), placeholder)).toEqual([...before, placeholder]);
    const query = { client_id: appId(), response_type: "code", scope: "identify", redirect_uri: placeholder };
    expect((await oauth2.parseAuthorizeRequest(query)).redirectUri).toBe(placeholder);
    expect(fieldCodes(await apiError(apps.addRedirectUri(await ownerAccess(), placeholder)))).toContain(
      "already registered",
    );

    expect(await apps.removeRedirectUri(await ownerAccess(), placeholder)).toEqual(before);
    await expect(oauth2.parseAuthorizeRequest(query)).rejects.toThrow(/not registered/);
    expect(fieldCodes(await apiError(apps.removeRedirectUri(await ownerAccess(), placeholder)))).toContain(
      "not registered",
    );
  });

  test("at most 10", async () => {
    const before = redirectUrisOf(await apps.getApplicationOrThrow(appId()));
    const extra = Array.from({ length: 10 - before.length }, (_, i) => `http://localhost:${4000 + i}/cb`);
    for (const uri of extra) await apps.addRedirectUri(await ownerAccess(), uri);
    expect(redirectUrisOf(await apps.getApplicationOrThrow(appId()))).toHaveLength(10);
    const error = await apiError(apps.addRedirectUri(await ownerAccess(), "http://localhost:5000/cb"));
    expect(fieldCodes(error)).toContain("at most 10");
    expect(
      (await apiError(apps.setRedirectUris(await ownerAccess(), [...before, ...extra, "http://localhost:5000/cb"])))
        .status,
    ).toBe(400);
    expect((await apiError(apps.setRedirectUris(await ownerAccess(), [before[0], before[0]]))).status).toBe(400);
    expect(await apps.setRedirectUris(await ownerAccess(), before)).toEqual(before);
    expect(JSON.parse((await row()).redirect_uris)).toEqual(before);
  });
});

describe("URL Mappings (setup rule 4)", () => {
  test("a valid table is stored with normalized prefixes", async () => {
    const saved = await apps.setUrlMappings(await ownerAccess(), [
      { prefix: "/", target: "localhost:3000" },
      { prefix: "/api/", target: "api.example.com/v1" },
      { prefix: "/cdn", target: "cdn.example.com:8443" },
    ]);
    expect(saved.map((m) => m.prefix)).toEqual(["/", "/api", "/cdn"]);
    expect(JSON.parse((await row()).url_mappings)).toEqual([
      { prefix: "/", target: "localhost:3000" },
      { prefix: "/api", target: "api.example.com/v1" },
      { prefix: "/cdn", target: "cdn.example.com:8443" },
    ]);
  });

  test.each([
    [
      [
        { prefix: "/", target: "a.com" },
        { prefix: "/api", target: "b.com" },
        { prefix: "/api/", target: "c.com" },
      ],
      /already mapped/,
    ],
    [[{ prefix: "/", target: "http://a.com" }], /scheme/],
    [[{ prefix: "/", target: "a .com" }], /spaces/],
    [[{ prefix: "/", target: "" }], /Enter a target/],
    [
      [
        { prefix: "api", target: "a.com" },
        { prefix: "/", target: "a.com" },
      ],
      /start with/,
    ],
    [[{ prefix: "/api", target: "a.com" }], /root mapping/],
    [[], /root mapping/],
  ])("refuses %j", async (mappings, message) => {
    const before = (await row()).url_mappings;
    const error = await apiError(apps.setUrlMappings(await ownerAccess(), mappings));
    expect(error.status).toBe(400);
    expect(error.code).toBe(50035);
    expect(fieldCodes(error)).toMatch(message);
    expect((await row()).url_mappings).toBe(before);
  });

  test("field errors point at the offending row", async () => {
    const error = await apiError(
      apps.setUrlMappings(await ownerAccess(), [
        { prefix: "/", target: "a.com" },
        { prefix: "/x", target: "https://b.com" },
      ]),
    );
    expect((error.errors as Loose).url_mappings["1"].target._errors[0].code).toBe("BASE_TYPE_INVALID");
  });
});

describe("Activities and the entry point (setup rule 6)", () => {
  test("disabling removes the entry point and EMBEDDED; the root mapping may then go", async () => {
    expect(await apps.setActivitiesEnabled(await ownerAccess(), false)).toBeNull();
    expect((await row()).activities_enabled).toBe(0n);
    expect(await entryPoints()).toEqual([]);
    expect((await api("bot", "GET", `/applications/${appId()}/commands`)).json).toEqual([]);
    expect((await api("bot", "GET", "/applications/@me")).json.flags & EMBEDDED).toBe(0);
    expect(await apps.setUrlMappings(await ownerAccess(), [])).toEqual([]);
    // No entry point to switch while Activities are off.
    const error = await apiError(apps.setEntryPointHandler(await ownerAccess(), 1));
    expect(error.status).toBe(404);
    expect(error.code).toBe(10063);
  });

  test("enabling needs the root mapping", async () => {
    const error = await apiError(apps.setActivitiesEnabled(await ownerAccess(), true));
    expect(fieldCodes(error)).toMatch(/URL mapping for the prefix/);
    expect((await row()).activities_enabled).toBe(0n);
    expect(await entryPoints()).toEqual([]);
  });

  test("enabling creates the default Launch entry point once", async () => {
    await apps.setUrlMappings(await ownerAccess(), [{ prefix: "/", target: "localhost:3000" }]);
    const created = await apps.setActivitiesEnabled(await ownerAccess(), true);
    expect(created).toMatchObject({ name: "launch", description: "Launch Guildhall Demo", handler: 2 });
    const again = await apps.setActivitiesEnabled(await ownerAccess(), true);
    expect(again?.id).toBe(created?.id);
    expect(await entryPoints()).toHaveLength(1);
    expect((await entryPoints())[0]).toMatchObject({
      type: 4n,
      name: "launch",
      handler: 2n,
      guild_id: null,
      integration_types: "[0,1]",
    });
    const { json } = await api("bot", "GET", `/applications/${appId()}/commands`);
    expect(json.map((c: { id: string }) => c.id)).toEqual([created?.id]);
    expect((await api("bot", "GET", "/applications/@me")).json.flags & EMBEDDED).toBe(EMBEDDED);
  });

  test("the handler switches between 1 APP_HANDLER and 2 DISCORD_LAUNCH_ACTIVITY, bumping the version", async () => {
    const before = (await entryPoints())[0];
    const switched = await apps.setEntryPointHandler(await ownerAccess(), 1);
    expect(switched.handler).toBe(1);
    expectSchema("ApplicationCommandResponse", switched);
    expect(switched.version).not.toBe(String(before.version));
    expect((await api("owner", "GET", `/applications/${appId()}/commands`)).json[0].handler).toBe(1);

    expect((await apiError(apps.setEntryPointHandler(await ownerAccess(), 3))).status).toBe(400);
    expect((await entryPoints())[0].handler).toBe(1n);
    expect((await apps.setEntryPointHandler(await ownerAccess(), 2)).handler).toBe(2);
    expect(await entryPoints()).toHaveLength(1);
  });

  test("the root mapping can't be removed while Activities are on", async () => {
    const error = await apiError(
      apps.setUrlMappings(await ownerAccess(), [{ prefix: "/api", target: "api.example.com" }]),
    );
    expect(fieldCodes(error)).toMatch(/root mapping/);
    expect(JSON.parse((await row()).url_mappings)).toEqual([{ prefix: "/", target: "localhost:3000" }]);
  });
});

describe("installation contexts (setup rule 7)", () => {
  test("server, user or both; never none", async () => {
    expect(await apps.setInstallationContexts(await ownerAccess(), [0])).toEqual([0]);
    expect(Object.keys((await api("bot", "GET", "/applications/@me")).json.integration_types_config)).toEqual(["0"]);
    expect(await apps.setInstallationContexts(await ownerAccess(), [1, 0, 1])).toEqual([0, 1]);
    const none = await apiError(apps.setInstallationContexts(await ownerAccess(), []));
    expect(fieldCodes(none)).toMatch(/at least one installation context/);
    expect((await apiError(apps.setInstallationContexts(await ownerAccess(), [2]))).status).toBe(400);
    expect(JSON.parse((await row()).integration_types)).toEqual([0, 1]);
  });
});

describe("secret resets (last: they replace the harness's credentials)", () => {
  test("Reset Secret: the new client secret is shown once, only its hash is kept, the old one stops working", async () => {
    const { readDemoSecrets } = await import("@/lib/seed/demo-secrets");
    const { hashSecret } = await import("@/lib/guild-api/tokens");
    const old = server.clientSecret;
    const secret = await apps.resetClientSecret(await ownerAccess());
    expect(secret).toMatch(/^[\w-]{32}$/);
    expect(secret).not.toBe(old);
    expect((await row()).client_secret_hash).toBe(hashSecret(secret));
    expect(Object.values(await row()).map(String)).not.toContain(secret);
    await expect(oauth2.authenticateClient(appId(), old)).rejects.toThrow();
    expect((await oauth2.authenticateClient(appId(), secret)).id).toBe(BigInt(appId()));
    // The demo secrets file follows, so the Activity backend and the dashboard keep working.
    expect(readDemoSecrets()?.clientSecret).toBe(secret);
  });

  test("Reset Token: the new bot token works at once, the old one is refused", async () => {
    const { readDemoSecrets } = await import("@/lib/seed/demo-secrets");
    const old = botToken;
    const token = await apps.resetBotToken(await ownerAccess());
    expect(token.split(".")[0]).toBe(Buffer.from(server.world.botUserId).toString("base64url"));
    expect((await api("bot", "GET", "/applications/@me")).status).toBe(401);
    botToken = token;
    expect((await api("bot", "GET", "/applications/@me")).json.id).toBe(appId());
    expect(old).not.toBe(token);
    expect(readDemoSecrets()?.botToken).toBe(token);
  });

  test("resetting another application's secrets leaves the demo secrets file alone", async () => {
    const { readDemoSecrets } = await import("@/lib/seed/demo-secrets");
    const before = readDemoSecrets();
    const access = await apps.applicationAccessForOwner(String(OTHER_APP), BigInt(server.world.users.admin));
    await apps.resetClientSecret(access);
    await apps.resetBotToken(access);
    expect(readDemoSecrets()).toEqual(before);
  });
});

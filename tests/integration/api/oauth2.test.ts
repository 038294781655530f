// The built-in OAuth2 provider over real HTTP: the token endpoint's grants, revocation and /oauth2/@me. Codes are
// made with the provider's own service function (the consent page's step; the page itself is covered by e2e),
// in this process, on the server's database. The authorization request checks run against the same database.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { expectOperationResponse, expectSchema } from "../openapi";
import { sql } from "@/lib/guild-api/store/db";

let server: TestServer;
let oauth2: typeof import("@/lib/guild-api/services/oauth2");
const REDIRECT = "http://localhost:3000/api/auth/callback/guildhall";
// A second application, to check that codes and tokens stay with the client they were issued to.
const OTHER_APP = 8_100_000_000n;
const OTHER_SECRET = "other-client-secret";

beforeAll(async () => {
  // Dozens of token requests from one address within a second, on purpose: see TestServerOptions.rateLimits.
  server = await startTestServer({ rateLimits: { enabled: false } });
  oauth2 = await import("@/lib/guild-api/services/oauth2");
  const { hashSecret } = await import("@/lib/guild-api/tokens");
  await sql.run(
    "INSERT INTO applications (id, name, owner_id, client_secret_hash, redirect_uris, integration_types, created_at) VALUES (?, 'Other', ?, ?, ?, '[1]', 0)",
    OTHER_APP,
    BigInt(server.world.users.admin),
    hashSecret(OTHER_SECRET),
    JSON.stringify(["https://other.example/cb"]),
  );
});
afterAll(() => server?.close());

type User = keyof TestServer["world"]["users"];

const code = async (
  options: {
    redirectUri?: string | null;
    scopes?: string[];
    challenge?: string;
    now?: number;
    user?: User;
    app?: bigint;
  } = {},
) =>
  await oauth2.createAuthorizationCode({
    applicationId: options.app ?? BigInt(server.world.applicationId),
    userId: BigInt(server.world.users[options.user ?? "mod"]),
    scopes: options.scopes ?? ["identify", "guilds"],
    redirectUri: options.redirectUri === undefined ? REDIRECT : options.redirectUri,
    codeChallenge: options.challenge ?? null,
    codeChallengeMethod: options.challenge ? "S256" : null,
    now: options.now,
  });

function post(path: string, form: Record<string, string>, init: { basic?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (init.basic) headers.authorization = `Basic ${Buffer.from(init.basic).toString("base64")}`;
  return fetch(`${server.baseUrl}${path}`, { method: "POST", headers, body: new URLSearchParams(form) });
}
const token = (form: Record<string, string>, init: { basic?: string; path?: string } = {}) =>
  post(init.path ?? "/api/v10/oauth2/token", form, init);
const revoke = (form: Record<string, string>) => post("/api/v10/oauth2/token/revoke", form);

const client = () => ({ client_id: server.world.applicationId, client_secret: server.clientSecret });

interface Tokens {
  access_token: string;
  token_type: string;
  expires_in: number;
  refresh_token: string;
  scope: string;
}

async function exchange(form: Record<string, string> = {}): Promise<Tokens> {
  const response = await token({
    ...client(),
    grant_type: "authorization_code",
    code: await code(),
    redirect_uri: REDIRECT,
    ...form,
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Tokens;
}

const me = (accessToken: string) =>
  fetch(`${server.baseUrl}/api/v10/users/@me`, { headers: { authorization: `Bearer ${accessToken}` } });

describe("POST /oauth2/token: authorization_code", () => {
  test("exchanges a code once for a working bearer token; a replay fails and revokes what the code produced", async () => {
    const c = await code();
    const response = await token({ ...client(), grant_type: "authorization_code", code: c, redirect_uri: REDIRECT });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = (await response.json()) as Tokens;
    // RESTPostOAuth2AccessTokenResult, nothing more.
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "refresh_token", "scope", "token_type"]);
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 604800, scope: "identify guilds" });
    const user = await me(body.access_token);
    expect(((await user.json()) as { username: string }).username).toBe("mod");

    const again = await token({ ...client(), grant_type: "authorization_code", code: c, redirect_uri: REDIRECT });
    expect(again.status).toBe(400);
    expect(await again.json()).toEqual({ error: "invalid_grant", error_description: 'Invalid "code" in request.' });
    expect((await me(body.access_token)).status).toBe(401);
    const refresh = await token({ ...client(), grant_type: "refresh_token", refresh_token: body.refresh_token });
    expect(await refresh.json()).toMatchObject({ error: "invalid_grant" });
  });

  test("the unversioned alias /api/oauth2/token works, with HTTP Basic client authentication", async () => {
    const response = await token(
      { grant_type: "authorization_code", code: await code(), redirect_uri: REDIRECT },
      { basic: `${server.world.applicationId}:${server.clientSecret}`, path: "/api/oauth2/token" },
    );
    expect(response.status).toBe(200);
  });

  test("a code issued without redirect_uri (the Activity SDK's flow) is exchangeable without one", async () => {
    const response = await token({
      ...client(),
      grant_type: "authorization_code",
      code: await code({ redirectUri: null }),
    });
    expect(response.status).toBe(200);
  });

  test("a code issued with a redirect_uri needs the same one", async () => {
    const missing = await token({ ...client(), grant_type: "authorization_code", code: await code() });
    expect(await missing.json()).toMatchObject({
      error: "invalid_grant",
      error_description: 'Invalid "redirect_uri" in request.',
    });
    const other = await token({
      ...client(),
      grant_type: "authorization_code",
      code: await code(),
      redirect_uri: "http://localhost:3000/elsewhere",
    });
    expect(other.status).toBe(400);
    expect(await other.json()).toMatchObject({ error: "invalid_grant" });
  });

  test("a code expires after 10 minutes", async () => {
    const expired = await token({
      ...client(),
      grant_type: "authorization_code",
      code: await code({ now: Date.now() - 10 * 60_000 - 1 }),
      redirect_uri: REDIRECT,
    });
    expect(await expired.json()).toMatchObject({ error: "invalid_grant" });
    const fresh = await token({
      ...client(),
      grant_type: "authorization_code",
      code: await code({ now: Date.now() - 9 * 60_000 }),
      redirect_uri: REDIRECT,
    });
    expect(fresh.status).toBe(200);
  });

  test("PKCE: the right verifier passes, a wrong or missing one fails", async () => {
    const verifier = "a-long-random-code-verifier-with-enough-entropy-0123456789";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const good = await token({
      ...client(),
      grant_type: "authorization_code",
      code: await code({ challenge }),
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(good.status).toBe(200);
    const bad = await token({
      ...client(),
      grant_type: "authorization_code",
      code: await code({ challenge }),
      redirect_uri: REDIRECT,
      code_verifier: `${verifier}x`,
    });
    expect(await bad.json()).toMatchObject({
      error: "invalid_grant",
      error_description: 'Invalid "code_verifier" in request.',
    });
    const none = await token({
      ...client(),
      grant_type: "authorization_code",
      code: await code({ challenge }),
      redirect_uri: REDIRECT,
    });
    expect(await none.json()).toMatchObject({ error: "invalid_grant" });
  });

  test("a code belongs to its client: another client's exchange fails and leaves the code usable", async () => {
    const c = await code();
    const stolen = await token({
      client_id: String(OTHER_APP),
      client_secret: OTHER_SECRET,
      grant_type: "authorization_code",
      code: c,
      redirect_uri: REDIRECT,
    });
    expect(stolen.status).toBe(400);
    expect(await stolen.json()).toMatchObject({ error: "invalid_grant" });
    const own = await token({ ...client(), grant_type: "authorization_code", code: c, redirect_uri: REDIRECT });
    expect(own.status).toBe(200);
  });

  test("client authentication: a wrong secret, an unknown client or none at all is 401 invalid_client", async () => {
    const wrong = await token({
      client_id: server.world.applicationId,
      client_secret: "nope",
      grant_type: "authorization_code",
      code: await code(),
      redirect_uri: REDIRECT,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("www-authenticate")).toMatch(/^Basic/);
    expect(await wrong.json()).toMatchObject({ error: "invalid_client" });
    const basic = await token(
      { grant_type: "authorization_code", code: await code(), redirect_uri: REDIRECT },
      { basic: `${server.world.applicationId}:nope` },
    );
    expect(basic.status).toBe(401);
    const unknown = await token({
      client_id: "1",
      client_secret: "x",
      grant_type: "authorization_code",
      code: await code(),
    });
    expect(unknown.status).toBe(401);
    const huge = await token({
      client_id: "9".repeat(20),
      client_secret: "x",
      grant_type: "authorization_code",
      code: await code(),
    });
    expect(huge.status).toBe(401);
    const anonymous = await token({ grant_type: "authorization_code", code: await code() });
    expect(await anonymous.json()).toMatchObject({ error: "invalid_client" });
    const garbled = await fetch(`${server.baseUrl}/api/v10/oauth2/token`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        authorization: `Basic ${Buffer.from("%zz:%zz").toString("base64")}`,
      },
      body: "grant_type=authorization_code",
    });
    expect(garbled.status).toBe(401);
  });

  test("bad requests: unknown or missing grant types, a missing code, a non-form body", async () => {
    expect(await (await token({ ...client(), grant_type: "password" })).json()).toMatchObject({
      error: "unsupported_grant_type",
    });
    expect(await (await token({ ...client() })).json()).toEqual({
      error: "invalid_request",
      error_description: "grant_type is missing.",
    });
    const noCode = await token({ ...client(), grant_type: "authorization_code" });
    expect(noCode.status).toBe(400);
    expect(await noCode.json()).toEqual({ error: "invalid_request", error_description: "code is missing." });
    const json = await fetch(`${server.baseUrl}/api/v10/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: "invalid_request" });
  });
});

describe("POST /oauth2/token: refresh_token", () => {
  test("rotates the pair: the old refresh and access tokens stop working", async () => {
    const first = await exchange();
    const refreshed = await token({ ...client(), grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as Tokens;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(second.scope).toBe("identify guilds");
    expect((await me(first.access_token)).status).toBe(401);
    expect((await me(second.access_token)).status).toBe(200);
    // Presenting the rotated refresh token again is a replay: the whole family goes (tests/security/secrets-at-rest).
    const reuse = await token({ ...client(), grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(await reuse.json()).toMatchObject({ error: "invalid_grant" });
    expect((await me(second.access_token)).status).toBe(401);
  });

  test("scope may narrow the new pair, never widen it", async () => {
    const first = await exchange();
    const wider = await token({
      ...client(),
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      scope: "identify guilds email",
    });
    expect(await wider.json()).toMatchObject({ error: "invalid_scope" });
    // A refused refresh leaves the pair as it was.
    const narrower = await token({
      ...client(),
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
      scope: "guilds",
    });
    const body = (await narrower.json()) as Tokens;
    expect(body.scope).toBe("guilds");
    expect((await me(body.access_token)).status).toBe(403);
  });

  test("another client cannot use the refresh token", async () => {
    const first = await exchange();
    const stolen = await token({
      client_id: String(OTHER_APP),
      client_secret: OTHER_SECRET,
      grant_type: "refresh_token",
      refresh_token: first.refresh_token,
    });
    expect(await stolen.json()).toMatchObject({ error: "invalid_grant" });
    expect((await me(first.access_token)).status).toBe(200);
  });
});

describe("POST /oauth2/token: client_credentials", () => {
  test("a token for the application's owner, without a refresh token", async () => {
    const response = await token({
      ...client(),
      grant_type: "client_credentials",
      scope: "identify applications.commands.update",
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(["access_token", "expires_in", "scope", "token_type"]);
    expect(body).toMatchObject({ token_type: "Bearer", scope: "identify applications.commands.update" });
    expect(((await (await me(body.access_token as string)).json()) as { username: string }).username).toBe("owner");
  });

  test("scopes that need the user's consent, unknown scopes and a missing scope are refused", async () => {
    expect(await (await token({ ...client(), grant_type: "client_credentials", scope: "bot" })).json()).toMatchObject({
      error: "invalid_scope",
    });
    expect(
      await (await token({ ...client(), grant_type: "client_credentials", scope: "identify nukes" })).json(),
    ).toMatchObject({ error: "invalid_scope" });
    expect(await (await token({ ...client(), grant_type: "client_credentials" })).json()).toEqual({
      error: "invalid_request",
      error_description: "scope is missing.",
    });
  });
});

describe("POST /oauth2/token/revoke", () => {
  test("revoking the refresh token ends the access token too", async () => {
    const pair = await exchange();
    const response = await revoke({ ...client(), token: pair.refresh_token, token_type_hint: "refresh_token" });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({});
    expect((await me(pair.access_token)).status).toBe(401);
  });

  test("revoking the access token ends its refresh token too", async () => {
    const pair = await exchange();
    expect((await revoke({ ...client(), token: pair.access_token })).status).toBe(200);
    expect((await me(pair.access_token)).status).toBe(401);
    expect(
      await (await token({ ...client(), grant_type: "refresh_token", refresh_token: pair.refresh_token })).json(),
    ).toMatchObject({ error: "invalid_grant" });
  });

  test("unknown tokens answer 200; another client's token is left alone; client authentication is required", async () => {
    expect((await revoke({ ...client(), token: "not-a-token" })).status).toBe(200);
    const pair = await exchange();
    expect(
      (await revoke({ client_id: String(OTHER_APP), client_secret: OTHER_SECRET, token: pair.access_token })).status,
    ).toBe(200);
    expect((await me(pair.access_token)).status).toBe(200);
    const anonymous = await revoke({ token: pair.access_token });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: "invalid_client" });
    expect(await (await revoke({ ...client() })).json()).toMatchObject({ error: "invalid_request" });
    expect((await me(pair.access_token)).status).toBe(200);
  });
});

describe("GET /oauth2/@me", () => {
  test("answers the application, scopes, expiry and (with identify) the user", async () => {
    const pair = await exchange();
    const response = await fetch(`${server.baseUrl}/api/v10/oauth2/@me`, {
      headers: { authorization: `Bearer ${pair.access_token}` },
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      application: { id: string; name: string; bot_public: boolean };
      scopes: string[];
      expires: string;
      user: { username: string };
    };
    expect(body.application).toMatchObject({
      id: server.world.applicationId,
      name: "Guildhall Demo",
      bot_public: true,
    });
    expect(body.scopes).toEqual(["identify", "guilds"]);
    expect(Math.abs(Date.parse(body.expires) - (Date.now() + pair.expires_in * 1000))).toBeLessThan(60_000);
    expect(body.user.username).toBe("mod");
    expectOperationResponse("GET", "/oauth2/@me", 200, body);
    expectSchema("OAuth2GetAuthorizationResponse", body);
  });

  test("without identify there is no user; without a token it is 401", async () => {
    const t = await server.tokenFor("mod", ["guilds"]);
    const body = (await (
      await fetch(`${server.baseUrl}/api/v10/oauth2/@me`, { headers: { authorization: `Bearer ${t}` } })
    ).json()) as Record<string, unknown>;
    expect(body.user).toBeUndefined();
    expect(body.scopes).toEqual(["guilds"]);
    expectOperationResponse("GET", "/oauth2/@me", 200, body);
    expect((await server.api(null, "GET", "/oauth2/@me")).status).toBe(401);
  });
});

describe("the authorization request (what /oauth2/authorize checks before showing anything)", () => {
  const query = (extra: Record<string, string | undefined> = {}) => ({
    client_id: server.world.applicationId,
    response_type: "code",
    scope: "identify guilds",
    redirect_uri: REDIRECT,
    state: "s t",
    ...extra,
  });
  const refusal = async (q: Record<string, string | undefined>) => {
    try {
      await oauth2.parseAuthorizeRequest(q);
    } catch (error) {
      return error as InstanceType<typeof oauth2.AuthorizeRequestError>;
    }
    throw new Error("the request was accepted");
  };

  test("a good request keeps state untouched and answers at the redirect URI", async () => {
    const request = await oauth2.parseAuthorizeRequest(query({ scope: "identify+guilds" }));
    expect(request.scopes).toEqual(["identify", "guilds"]);
    const url = new URL(oauth2.authorizationResponseUrl(request, { code: "abc" }));
    expect(url.origin + url.pathname).toBe(REDIRECT);
    expect(url.searchParams.get("code")).toBe("abc");
    expect(url.searchParams.get("state")).toBe("s t");
  });

  test("an unknown client or an unregistered redirect URI is never redirected to", async () => {
    expect((await refusal(query({ client_id: "9".repeat(20) }))).error).toBe("invalid_client");
    const unknownClient = await refusal(query({ client_id: "42" }));
    expect(unknownClient.error).toBe("invalid_client");
    expect(unknownClient).not.toBeInstanceOf(oauth2.AuthorizeRequestError);
    const evil = await refusal(query({ redirect_uri: "https://evil.example/cb" }));
    expect(evil.description).toMatch(/is not registered/);
    expect(evil).not.toBeInstanceOf(oauth2.AuthorizeRequestError);
    // Exact match: a prefix or a different query is not the registered URI.
    expect((await refusal(query({ redirect_uri: `${REDIRECT}/more` }))).description).toMatch(/is not registered/);
    expect((await refusal(query({ redirect_uri: `${REDIRECT}?x=1` }))).description).toMatch(/is not registered/);
  });

  test("later problems go to a redirect URI the client sent, else to the page", async () => {
    const scope = await refusal(query({ scope: "identify launch.nukes" }));
    expect(scope).toBeInstanceOf(oauth2.AuthorizeRequestError);
    expect(scope.error).toBe("invalid_scope");
    const told = new URL(oauth2.authorizationResponseUrl(scope.target!, scope.toBody()));
    expect(told.searchParams.get("error")).toBe("invalid_scope");
    expect(told.searchParams.get("state")).toBe("s t");
    expect((await refusal(query({ redirect_uri: undefined, scope: "nukes" }))).target).toBeNull();
    expect((await refusal(query({ response_type: "token" }))).error).toBe("unsupported_response_type");
    expect((await refusal(query({ scope: "" }))).error).toBe("invalid_scope");
    expect((await refusal(query({ scope: "applications.commands.update" }))).error).toBe("invalid_scope");
  });

  test("PKCE takes S256 only", async () => {
    const challenge = createHash("sha256").update("v".repeat(50)).digest("base64url");
    expect(
      (await oauth2.parseAuthorizeRequest(query({ code_challenge: challenge, code_challenge_method: "S256" })))
        .codeChallenge,
    ).toBe(challenge);
    expect((await refusal(query({ code_challenge: challenge }))).description).toMatch(/code_challenge_method/);
    expect((await refusal(query({ code_challenge: challenge, code_challenge_method: "plain" }))).error).toBe(
      "invalid_request",
    );
  });

  test("the bot scope: permissions kept to known bits, the server preselected and lockable", async () => {
    const request = await oauth2.parseAuthorizeRequest(
      query({
        scope: "bot",
        permissions: String((1n << 63n) | 8n),
        guild_id: server.world.guildId,
        disable_guild_select: "true",
      }),
    );
    expect(request.permissions).toBe(8n);
    expect(request.guildId).toBe(server.world.guildId);
    expect(request.disableGuildSelect).toBe(true);
    expect((await refusal(query({ scope: "bot", permissions: "lots" }))).error).toBe("invalid_request");
    expect((await refusal(query({ scope: "bot", guild_id: "9".repeat(20) }))).description).toBe(
      "guild_id is not a snowflake.",
    );
  });

  test("an application without Server Install refuses the bot scope", async () => {
    const other = { client_id: String(OTHER_APP), response_type: "code", redirect_uri: "https://other.example/cb" };
    const error = await refusal({ ...other, scope: "identify bot" });
    expect(error.error).toBe("invalid_scope");
    expect(error.description).toMatch(/Server Install/);
    expect((await refusal({ client_id: server.world.applicationId, scope: "bot", integration_type: "1" })).error).toBe(
      "invalid_scope",
    );
    expect((await oauth2.parseAuthorizeRequest({ ...other, scope: "identify" })).scopes).toEqual(["identify"]);
  });

  test("prompt=none skips consent only after the same scopes were granted", async () => {
    const request = await oauth2.parseAuthorizeRequest(
      query({ prompt: "none", scope: "identify guilds.members.read" }),
    );
    const helper = BigInt(server.world.users.helper);
    expect(await oauth2.canSkipConsent(request, helper)).toBe(false);
    const granted = await token({
      ...client(),
      grant_type: "authorization_code",
      code: await code({ user: "helper", scopes: ["identify", "guilds", "guilds.members.read"] }),
      redirect_uri: REDIRECT,
    });
    const pair = (await granted.json()) as Tokens;
    expect(await oauth2.canSkipConsent(request, helper)).toBe(true);
    expect(
      await oauth2.canSkipConsent(
        await oauth2.parseAuthorizeRequest(query({ scope: "identify guilds.members.read" })),
        helper,
      ),
    ).toBe(false);
    expect(
      await oauth2.canSkipConsent(
        await oauth2.parseAuthorizeRequest(query({ prompt: "none", scope: "identify email" })),
        helper,
      ),
    ).toBe(false);
    await revoke({ ...client(), token: pair.access_token });
    expect(await oauth2.canSkipConsent(request, helper)).toBe(false);
  });
});

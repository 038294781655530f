// The built-in OAuth2 provider's token endpoint, revocation and /oauth2/@me, over real HTTP. Codes are made
// with the provider's own service function (the consent page's step; the page itself is covered by e2e).
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startTestServer, type TestServer } from "./harness";
import { expectOperationResponse } from "./openapi";

let server: TestServer;
let createCode: typeof import("@/lib/guild-api/services/oauth2").createAuthorizationCode;
const REDIRECT = "http://localhost:3000/api/auth/callback/guildhall";

beforeAll(async () => {
  server = await startTestServer();
  ({ createAuthorizationCode: createCode } = await import("@/lib/guild-api/services/oauth2"));
});
afterAll(() => server?.close());

const code = (options: { redirectUri?: string | null; scopes?: string[]; challenge?: string; now?: number; user?: string } = {}) =>
  createCode({
    applicationId: BigInt(server.world.applicationId),
    userId: BigInt(server.world.users[(options.user ?? "mod") as "mod"]),
    scopes: options.scopes ?? ["identify", "guilds"],
    redirectUri: options.redirectUri === undefined ? REDIRECT : options.redirectUri,
    codeChallenge: options.challenge ?? null,
    codeChallengeMethod: options.challenge ? "S256" : null,
    now: options.now,
  });

function token(form: Record<string, string>, init: { basic?: string; path?: string } = {}) {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (init.basic) headers.authorization = `Basic ${Buffer.from(init.basic).toString("base64")}`;
  return fetch(`${server.baseUrl}${init.path ?? "/api/v10/oauth2/token"}`, { method: "POST", headers, body: new URLSearchParams(form) });
}

const client = () => ({ client_id: server.world.applicationId, client_secret: server.clientSecret });

describe("POST /oauth2/token: authorization_code", () => {
  test("exchanges a code once for a working bearer token", async () => {
    const c = code();
    const response = await token({ ...client(), grant_type: "authorization_code", code: c, redirect_uri: REDIRECT });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { access_token: string; token_type: string; expires_in: number; refresh_token: string; scope: string };
    expect(body).toMatchObject({ token_type: "Bearer", expires_in: 604800, scope: "identify guilds" });
    const me = await fetch(`${server.baseUrl}/api/v10/users/@me`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(((await me.json()) as { username: string }).username).toBe("mod");

    const again = await token({ ...client(), grant_type: "authorization_code", code: c, redirect_uri: REDIRECT });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ error: "invalid_grant" });
    // Replaying a code revokes what it produced.
    const after = await fetch(`${server.baseUrl}/api/v10/users/@me`, { headers: { authorization: `Bearer ${body.access_token}` } });
    expect(after.status).toBe(401);
  });

  test("the unversioned alias /api/oauth2/token works, with HTTP Basic client authentication", async () => {
    const response = await token({ grant_type: "authorization_code", code: code(), redirect_uri: REDIRECT }, { basic: `${server.world.applicationId}:${server.clientSecret}`, path: "/api/oauth2/token" });
    expect(response.status).toBe(200);
  });

  test("a code issued without redirect_uri (the Activity SDK's flow) is exchangeable without one", async () => {
    const response = await token({ ...client(), grant_type: "authorization_code", code: code({ redirectUri: null }) });
    expect(response.status).toBe(200);
  });

  test("a code issued with a redirect_uri needs the same one", async () => {
    const missing = await token({ ...client(), grant_type: "authorization_code", code: code() });
    expect(await missing.json()).toMatchObject({ error: "invalid_grant" });
    const other = await token({ ...client(), grant_type: "authorization_code", code: code(), redirect_uri: "http://localhost:3000/elsewhere" });
    expect(other.status).toBe(400);
  });

  test("an expired code (older than 10 minutes) is refused", async () => {
    const response = await token({ ...client(), grant_type: "authorization_code", code: code({ now: Date.now() - 10 * 60_000 - 1 }), redirect_uri: REDIRECT });
    expect(await response.json()).toMatchObject({ error: "invalid_grant" });
  });

  test("PKCE: the right verifier passes, a wrong or missing one fails", async () => {
    const verifier = "a-long-random-code-verifier-with-enough-entropy-0123456789";
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const good = await token({ ...client(), grant_type: "authorization_code", code: code({ challenge }), redirect_uri: REDIRECT, code_verifier: verifier });
    expect(good.status).toBe(200);
    const bad = await token({ ...client(), grant_type: "authorization_code", code: code({ challenge }), redirect_uri: REDIRECT, code_verifier: "wrong" });
    expect(await bad.json()).toMatchObject({ error: "invalid_grant" });
    const none = await token({ ...client(), grant_type: "authorization_code", code: code({ challenge }), redirect_uri: REDIRECT });
    expect(none.status).toBe(400);
  });

  test("a wrong client secret is 401 invalid_client", async () => {
    const response = await token({ client_id: server.world.applicationId, client_secret: "nope", grant_type: "authorization_code", code: code(), redirect_uri: REDIRECT });
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ error: "invalid_client" });
  });

  test("unknown grant types and non-form bodies are refused", async () => {
    const grant = await token({ ...client(), grant_type: "password" });
    expect(await grant.json()).toMatchObject({ error: "unsupported_grant_type" });
    const json = await fetch(`${server.baseUrl}/api/v10/oauth2/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: "invalid_request" });
  });
});

describe("refresh and revoke", () => {
  test("refresh_token rotates the pair; revoke ends it", async () => {
    const first = (await (await token({ ...client(), grant_type: "authorization_code", code: code(), redirect_uri: REDIRECT })).json()) as { access_token: string; refresh_token: string };
    const refreshed = await token({ ...client(), grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(second.access_token).not.toBe(first.access_token);
    const reuse = await token({ ...client(), grant_type: "refresh_token", refresh_token: first.refresh_token });
    expect(await reuse.json()).toMatchObject({ error: "invalid_grant" });
    const oldAccess = await fetch(`${server.baseUrl}/api/v10/users/@me`, { headers: { authorization: `Bearer ${first.access_token}` } });
    expect(oldAccess.status).toBe(401);

    const revoke = await fetch(`${server.baseUrl}/api/v10/oauth2/token/revoke`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ ...client(), token: second.refresh_token }) });
    expect(revoke.status).toBe(200);
    const revoked = await fetch(`${server.baseUrl}/api/v10/users/@me`, { headers: { authorization: `Bearer ${second.access_token}` } });
    expect(revoked.status).toBe(401);
  });
});

describe("GET /oauth2/@me", () => {
  test("answers the application, scopes, expiry and (with identify) the user", async () => {
    const response = await server.api("mod", "GET", "/oauth2/@me");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { application: { id: string; name: string }; scopes: string[]; user: { username: string } };
    expect(body.application).toMatchObject({ id: server.world.applicationId, name: "Guildhall Demo" });
    expect(body.scopes).toContain("identify");
    expect(body.user.username).toBe("mod");
    expectOperationResponse("GET", "/oauth2/@me", 200, body);
  });

  test("without identify there is no user", async () => {
    const t = server.tokenFor("mod", ["guilds"]);
    const body = (await (await fetch(`${server.baseUrl}/api/v10/oauth2/@me`, { headers: { authorization: `Bearer ${t}` } })).json()) as Record<string, unknown>;
    expect(body.user).toBeUndefined();
    expect(body.scopes).toEqual(["guilds"]);
  });
});

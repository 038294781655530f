// Finding 5 of issue 29: /api/token turned any code into a full-management token. The Activity shared the dashboard's
// OAuth2 application, so after one dashboard sign-in a page on a registered origin got a code silently (prompt=none,
// response_mode=web_message) for identify guilds guildhall.manage, and the Activity's backend exchanged it, with no
// PKCE and no bound on scopes. Now the Activity has its own application; its backend's exchange
// (lib/activity/token-exchange.ts, what POST /api/token runs) takes only that application's codes, with PKCE, and
// refuses (and revokes) a token wider than the Activity's scopes; the provider requires PKCE for that application;
// and prompt=none skips consent only for scopes the user granted to that very application.
import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";
import { sql } from "@/lib/guild-api/store/db";
import type { ActivityConfig } from "@/lib/activity/config";

const server = testServerForFile({ rateLimits: { enabled: false } });

const ACTIVITY_SCOPES = ["identify", "guilds", "applications.commands", "rpc.voice.read"];
const DASHBOARD_SCOPES = ["identify", "guilds", "guildhall.manage"];
const HOST_ORIGIN = "http://localhost:3333";

let config: ActivityConfig;
let oauth2: typeof import("@/lib/guild-api/services/oauth2");
let exchange: typeof import("@/lib/activity/token-exchange").exchangeActivityCode;

beforeAll(async () => {
  // The Activity's backend exchanges codes at this file's harness server.
  process.env.ACTIVITY_API_URL = `${server.baseUrl}/api`;
  config = (await import("@/lib/activity/config")).activityConfig()!;
  oauth2 = await import("@/lib/guild-api/services/oauth2");
  exchange = (await import("@/lib/activity/token-exchange")).exchangeActivityCode;
});

const userId = (name: keyof typeof server.world.users) => BigInt(server.world.users[name]);

function pkce() {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** A code as the consent page issues it (web_message: no redirect URI). */
function code(app: string, user: keyof typeof server.world.users, scopes: string[], challenge?: string) {
  return oauth2.createAuthorizationCode({
    applicationId: BigInt(app),
    userId: userId(user),
    scopes,
    redirectUri: null,
    codeChallenge: challenge ?? null,
    codeChallengeMethod: challenge ? "S256" : null,
  });
}

/** An authorization request as the host simulator sends it for the SDK's AUTHORIZE. */
const authorizeQuery = (scope: string[], extra: Record<string, string> = {}) => ({
  client_id: config.clientId,
  response_type: "code",
  scope: scope.join(" "),
  response_mode: "web_message",
  web_message_origin: HOST_ORIGIN,
  ...extra,
});

test("the Activity has its own OAuth2 application, not the dashboard's", () => {
  expect(config.clientId).toMatch(/^\d+$/);
  expect(config.clientId).not.toBe(server.world.applicationId);
  expect(config.clientSecret).not.toBe(server.clientSecret);
});

describe("the Activity's backend exchanges only codes of its own application, with PKCE and the Activity's scopes", () => {
  test("a dashboard code for identify guilds guildhall.manage is refused, as the token endpoint refuses another client's code", async () => {
    const dashboardCode = await code(server.world.applicationId, "mod", DASHBOARD_SCOPES);
    expect(await exchange(config, { code: dashboardCode })).toMatchObject({ ok: false, error: "invalid_code" });

    // The token endpoint itself: the Activity's credentials can't redeem a code issued to another client_id.
    const direct = await fetch(`${server.baseUrl}/api/v10/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: await code(server.world.applicationId, "mod", DASHBOARD_SCOPES),
        client_id: config.clientId,
        client_secret: config.clientSecret,
      }),
    });
    expect(direct.status).toBe(400);
    expect(await direct.json()).toMatchObject({ error: "invalid_grant" });
  });

  test("the Activity's own code with its scopes and the PKCE verifier gives a token of the Activity's application", async () => {
    const { verifier, challenge } = pkce();
    const issued = await code(config.clientId, "mod", ["identify", "guilds", "applications.commands"], challenge);
    const result = await exchange(config, { code: issued, codeVerifier: verifier });
    expect(result).toMatchObject({ ok: true });
    const me = await fetch(`${server.baseUrl}/api/v10/oauth2/@me`, {
      headers: { authorization: `Bearer ${(result as { accessToken: string }).accessToken}` },
    });
    expect(((await me.json()) as { application: { id: string } }).application.id).toBe(config.clientId);
  });

  test("a code of the Activity's application for more than the Activity's scopes is refused, and its token revoked", async () => {
    const { verifier, challenge } = pkce();
    const wide = await code(config.clientId, "helper", [...DASHBOARD_SCOPES, "guilds.join"], challenge);
    expect(await exchange(config, { code: wide, codeVerifier: verifier })).toMatchObject({
      ok: false,
      error: "scope_not_allowed",
    });
    const live = await sql.value<bigint>(
      "SELECT COUNT(*) FROM oauth2_tokens WHERE application_id = ? AND user_id = ? AND revoked_at IS NULL",
      BigInt(config.clientId),
      userId("helper"),
    );
    expect(live).toBe(0n);
  });

  test("PKCE: a code without a challenge, or without the right verifier, is refused", async () => {
    const noChallenge = await code(config.clientId, "mod", ["identify"]);
    expect(await exchange(config, { code: noChallenge })).toMatchObject({ ok: false, error: "invalid_code" });

    const { challenge } = pkce();
    const wrongVerifier = await code(config.clientId, "mod", ["identify"], challenge);
    expect(await exchange(config, { code: wrongVerifier, codeVerifier: pkce().verifier })).toMatchObject({
      ok: false,
      error: "invalid_code",
    });
    const missingVerifier = await code(config.clientId, "mod", ["identify"], challenge);
    expect(await exchange(config, { code: missingVerifier })).toMatchObject({ ok: false, error: "invalid_code" });
  });
});

describe("the authorization request for the Activity's application", () => {
  test("requires PKCE (S256): without a code_challenge it is refused", async () => {
    await expect(oauth2.parseAuthorizeRequest(authorizeQuery(["identify", "guilds"]))).rejects.toMatchObject({
      error: "invalid_request",
      description: expect.stringMatching(/code_challenge/) as unknown,
    });
    const { challenge } = pkce();
    const request = await oauth2.parseAuthorizeRequest(
      authorizeQuery(["identify", "guilds"], { code_challenge: challenge, code_challenge_method: "S256" }),
    );
    expect(request).toMatchObject({ codeChallenge: challenge, codeChallengeMethod: "S256" });
  });

  test("prompt=none never grants a scope the user granted only to the dashboard, or never granted", async () => {
    const prompted = (scopes: string[]) =>
      oauth2.parseAuthorizeRequest(
        authorizeQuery(scopes, { prompt: "none", code_challenge: pkce().challenge, code_challenge_method: "S256" }),
      );
    // The member signed in to the dashboard: the dashboard's application holds identify guilds guildhall.manage.
    await server.tokenFor("member", DASHBOARD_SCOPES);
    expect(await oauth2.canSkipConsent(await prompted(DASHBOARD_SCOPES), userId("member"))).toBe(false);
    expect(await oauth2.canSkipConsent(await prompted(["identify", "guilds"]), userId("member"))).toBe(false);

    // Once the member consented to the Activity for identify guilds, those come back silently, and only those.
    const { verifier, challenge } = pkce();
    const granted = await code(config.clientId, "member", ["identify", "guilds"], challenge);
    expect(await exchange(config, { code: granted, codeVerifier: verifier })).toMatchObject({ ok: true });
    expect(await oauth2.canSkipConsent(await prompted(["identify", "guilds"]), userId("member"))).toBe(true);
    expect(await oauth2.canSkipConsent(await prompted(ACTIVITY_SCOPES), userId("member"))).toBe(false);
    expect(await oauth2.canSkipConsent(await prompted(DASHBOARD_SCOPES), userId("member"))).toBe(false);
  });
});

// The sample Activity's code exchange (its backend, POST /api/token, calls it): the SDK's authorization code and its
// PKCE verifier for an access token at the guild API's token endpoint, with the Activity's own client id and secret.
// The token endpoint redeems only codes issued to that client id, and (the Activity's application requires PKCE)
// only with the verifier of the challenge sent at authorize. A token carrying a scope the Activity does not ask for
// is revoked and refused: the Activity never holds more than its scopes (issue 29, finding 5). Only the access token
// comes back; errors are clear and never carry the upstream body.
import "server-only";
import type { ActivityConfig } from "./config";
import { ACTIVITY_SCOPES } from "./scopes";

export type ActivityTokenExchange =
  { ok: true; accessToken: string } | { ok: false; status: number; error: string; message: string };

const refused = (status: number, error: string, message: string): ActivityTokenExchange => ({
  ok: false,
  status,
  error,
  message,
});

interface TokenResponse {
  access_token?: unknown;
  scope?: unknown;
  error?: unknown;
}

export async function exchangeActivityCode(
  config: ActivityConfig,
  input: { code: string; codeVerifier?: string },
): Promise<ActivityTokenExchange> {
  const form = new URLSearchParams({
    client_id: config.clientId,
    client_secret: config.clientSecret,
    grant_type: "authorization_code",
    code: input.code,
  });
  if (input.codeVerifier !== undefined) form.set("code_verifier", input.codeVerifier);
  let upstream: Response;
  try {
    upstream = await fetch(`${config.apiBase}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
      cache: "no-store",
    });
  } catch {
    return refused(502, "upstream_unreachable", "The sign-in service could not be reached. Try again in a moment.");
  }
  const body = (await upstream.json().catch(() => null)) as TokenResponse | null;
  if (upstream.ok && typeof body?.access_token === "string") {
    const beyond = scopesBeyondActivity(body.scope);
    if (beyond.length === 0) return { ok: true, accessToken: body.access_token };
    await revoke(config, body.access_token);
    return refused(
      403,
      "scope_not_allowed",
      `The sign-in granted more than the Activity asks for (${beyond.join(", ")}), so it was refused.`,
    );
  }
  if (upstream.status === 401 || body?.error === "invalid_client") {
    return refused(
      502,
      "invalid_client",
      "The Activity's server is misconfigured: its client credentials were rejected.",
    );
  }
  if (body?.error === "invalid_grant")
    return refused(400, "invalid_code", "The authorization code was rejected: it is invalid, expired or already used.");
  return refused(502, "exchange_failed", `The sign-in service refused the exchange (HTTP ${upstream.status}).`);
}

/** The granted scopes the Activity does not ask for; a response that doesn't say what it granted counts as too wide. */
function scopesBeyondActivity(scope: unknown): string[] {
  if (typeof scope !== "string") return ["(scopes not stated)"];
  return scope.split(" ").filter((granted) => granted !== "" && !ACTIVITY_SCOPES.includes(granted));
}

/** Revokes a token the Activity refuses (its refresh token goes with it, RFC 7009); the refusal stands either way. */
async function revoke(config: ActivityConfig, accessToken: string): Promise<void> {
  await fetch(`${config.apiBase}/oauth2/token/revoke`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: config.clientId,
      client_secret: config.clientSecret,
      token: accessToken,
      token_type_hint: "access_token",
    }),
    cache: "no-store",
  }).catch(() => undefined);
}

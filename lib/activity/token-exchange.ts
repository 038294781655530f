// The sample Activity's code exchange (its backend, POST /api/token, calls it): the SDK's authorization code for an
// access token at the guild API's token endpoint, with the application's client id and secret. Only the access
// token comes back; errors are clear and never carry the upstream body.
import "server-only";
import type { ActivityConfig } from "./config";

export type ActivityTokenExchange =
  { ok: true; accessToken: string } | { ok: false; status: number; error: string; message: string };

const refused = (status: number, error: string, message: string): ActivityTokenExchange => ({
  ok: false,
  status,
  error,
  message,
});

export async function exchangeActivityCode(
  config: ActivityConfig,
  input: { code: string },
): Promise<ActivityTokenExchange> {
  let upstream: Response;
  try {
    upstream = await fetch(`${config.apiBase}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: config.clientId,
        client_secret: config.clientSecret,
        grant_type: "authorization_code",
        code: input.code,
      }),
      cache: "no-store",
    });
  } catch {
    return refused(502, "upstream_unreachable", "The sign-in service could not be reached. Try again in a moment.");
  }
  const body = (await upstream.json().catch(() => null)) as { access_token?: unknown; error?: unknown } | null;
  if (upstream.ok && typeof body?.access_token === "string") return { ok: true, accessToken: body.access_token };
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

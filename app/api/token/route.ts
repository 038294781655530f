// POST /api/token: the sample Activity's backend. Exchanges the SDK's authorization code for an access token
// at the guild API's token endpoint with the application's client id and secret, and answers only
// {access_token}. Errors are clear and never carry the upstream body.
import { z } from "zod";
import { activityConfig } from "@/lib/activity/config";

const TokenRequestSchema = z.object({ code: z.string().trim().min(1).max(512) });

const error = (status: number, code: string, message: string) => Response.json({ error: code, message }, { status });

export async function POST(request: Request): Promise<Response> {
  let input: unknown;
  try {
    input = await request.json();
  } catch {
    return error(400, "invalid_request", 'Send a JSON body with the authorization code: {"code": "…"}.');
  }
  const parsed = TokenRequestSchema.safeParse(input);
  if (!parsed.success) return error(400, "missing_code", "The authorization code is missing.");

  const config = activityConfig();
  if (!config)
    return error(500, "not_configured", "The Activity's client id and secret are not configured on the server.");

  let upstream: Response;
  try {
    upstream = await fetch(`${config.apiBase}/oauth2/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        client_id: config.clientId,
        client_secret: config.clientSecret,
        grant_type: "authorization_code",
        code: parsed.data.code,
      }),
      cache: "no-store",
    });
  } catch {
    return error(502, "upstream_unreachable", "The sign-in service could not be reached. Try again in a moment.");
  }
  const body = (await upstream.json().catch(() => null)) as { access_token?: unknown; error?: unknown } | null;
  if (upstream.ok && typeof body?.access_token === "string") return Response.json({ access_token: body.access_token });
  if (upstream.status === 401 || body?.error === "invalid_client") {
    return error(
      502,
      "invalid_client",
      "The Activity's server is misconfigured: its client credentials were rejected.",
    );
  }
  if (body?.error === "invalid_grant")
    return error(400, "invalid_code", "The authorization code was rejected: it is invalid, expired or already used.");
  return error(502, "exchange_failed", `The sign-in service refused the exchange (HTTP ${upstream.status}).`);
}

// POST /api/token: the sample Activity's backend. Exchanges the SDK's authorization code and its PKCE verifier for an
// access token of the Activity's own application (lib/activity/token-exchange.ts) and answers only {access_token}.
import { z } from "zod";
import { activityConfig } from "@/lib/activity/config";
import { exchangeActivityCode } from "@/lib/activity/token-exchange";

// RFC 7636 §4.1: a verifier is 43 to 128 unreserved characters.
const TokenRequestSchema = z.object({
  code: z.string().trim().min(1).max(512),
  code_verifier: z
    .string()
    .regex(/^[A-Za-z0-9._~-]{43,128}$/)
    .optional(),
});

const error = (status: number, code: string, message: string) => Response.json({ error: code, message }, { status });

export async function POST(request: Request): Promise<Response> {
  let input: unknown;
  try {
    input = await request.json();
  } catch {
    return error(400, "invalid_request", 'Send a JSON body with the authorization code: {"code": "…"}.');
  }
  const parsed = TokenRequestSchema.safeParse(input);
  if (!parsed.success) {
    if (parsed.error.issues.every((issue) => issue.path[0] === "code_verifier"))
      return error(
        400,
        "invalid_request",
        "The PKCE code verifier is malformed (43 to 128 characters of A-Z a-z 0-9 - . _ ~).",
      );
    return error(400, "missing_code", "The authorization code is missing.");
  }

  const config = activityConfig();
  if (!config)
    return error(500, "not_configured", "The Activity's client id and secret are not configured on the server.");

  const exchanged = await exchangeActivityCode(config, {
    code: parsed.data.code,
    codeVerifier: parsed.data.code_verifier,
  });
  if (exchanged.ok) return Response.json({ access_token: exchanged.accessToken });
  return error(exchanged.status, exchanged.error, exchanged.message);
}

// POST /api/token: the sample Activity's backend. Exchanges the SDK's authorization code for an access token
// (lib/activity/token-exchange.ts) and answers only {access_token}.
import { z } from "zod";
import { activityConfig } from "@/lib/activity/config";
import { exchangeActivityCode } from "@/lib/activity/token-exchange";

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

  const exchanged = await exchangeActivityCode(config, { code: parsed.data.code });
  if (exchanged.ok) return Response.json({ access_token: exchanged.accessToken });
  return error(exchanged.status, exchanged.error, exchanged.message);
}

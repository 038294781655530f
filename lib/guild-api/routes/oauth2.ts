// OAuth2 provider endpoints, served at /api/v10/oauth2/* and the unversioned /api/oauth2/*.
// Errors here follow RFC 6749 ({error, error_description}), not Discord's JSON error shape.
import { Errors } from "../errors";
import { ok, route, type RouteContext, type RouteResult } from "../http";
import { sql } from "../store/db";
import { serializeUser, USER_COLUMNS, type UserRow } from "../serializers/user";
import {
  authenticateClient,
  exchangeAuthorizationCode,
  findApplication,
  OAuth2Error,
  refreshAccessToken,
  revokeToken,
  serializeApplication,
} from "../services/oauth2";

interface TokenForm {
  get(name: string): string | undefined;
  clientId?: string;
  clientSecret?: string;
}

/** The form body plus client credentials from the body or HTTP Basic. */
async function tokenForm(ctx: RouteContext): Promise<TokenForm> {
  if (ctx.contentType !== "application/x-www-form-urlencoded" && ctx.contentType !== "multipart/form-data") {
    throw new OAuth2Error("invalid_request", "The body must be application/x-www-form-urlencoded.");
  }
  const form = await ctx.formData();
  const get = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  let clientId = get("client_id");
  let clientSecret = get("client_secret");
  const authorization = ctx.req.headers.authorization;
  if (authorization?.startsWith("Basic ")) {
    const decoded = Buffer.from(authorization.slice(6), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon > 0) {
      clientId = decodeURIComponent(decoded.slice(0, colon));
      clientSecret = decodeURIComponent(decoded.slice(colon + 1));
    }
  }
  return { get, clientId, clientSecret };
}

function oauthResult(fn: () => Promise<RouteResult>): Promise<RouteResult> {
  return fn().catch((error: unknown): RouteResult => {
    if (error instanceof OAuth2Error) {
      return { status: error.status, json: error.toBody(), headers: error.status === 401 ? { "www-authenticate": 'Basic realm="oauth2"' } : undefined };
    }
    throw error;
  });
}

export const oauth2Routes = [
  // POST /oauth2/token: Token Exchange (authorization_code, refresh_token)
  route("POST", "/oauth2/token", "none", (ctx) =>
    oauthResult(async () => {
      const form = await tokenForm(ctx);
      const application = authenticateClient(form.clientId, form.clientSecret);
      const grant = form.get("grant_type");
      if (grant === "authorization_code") {
        return ok(exchangeAuthorizationCode(application, { code: form.get("code"), redirectUri: form.get("redirect_uri"), codeVerifier: form.get("code_verifier") }));
      }
      if (grant === "refresh_token") return ok(refreshAccessToken(application, form.get("refresh_token")));
      if (!grant) throw new OAuth2Error("invalid_request", "grant_type is missing.");
      throw new OAuth2Error("unsupported_grant_type", `Unsupported grant_type "${grant}".`);
    }),
  ),

  // POST /oauth2/token/revoke: Token Revocation
  route("POST", "/oauth2/token/revoke", "none", (ctx) =>
    oauthResult(async () => {
      const form = await tokenForm(ctx);
      const application = authenticateClient(form.clientId, form.clientSecret);
      revokeToken(application, form.get("token"));
      return ok({});
    }),
  ),

  // GET /oauth2/@me: Get Current Authorization Information
  route("GET", "/oauth2/@me", "required", (ctx) => {
    const caller = ctx.caller;
    const application = findApplication(caller.applicationId);
    if (!application) throw Errors.unknownApplication();
    if (caller.kind === "bot") return ok({ application: serializeApplication(application), scopes: ["bot"], expires: new Date(Date.now() + 365 * 86_400_000).toISOString() });
    const body: Record<string, unknown> = { application: serializeApplication(application), scopes: [...caller.scopes], expires: new Date(caller.expiresAt).toISOString() };
    if (caller.scopes.has("identify")) {
      const user = sql(`SELECT ${USER_COLUMNS} FROM users WHERE id = ?`).get(caller.userId) as UserRow | undefined;
      if (user) body.user = serializeUser(user);
    }
    return ok(body);
  }),
];

// OAuth2 provider endpoints, served at /api/v10/oauth2/* and the unversioned /api/oauth2/*.
// The token endpoints speak RFC 6749 ({error, error_description}), not Discord's JSON error shape: their callers
// are generic OAuth2 clients (next-auth, openid-client, the Activity's backend).
import { ApiError, Errors } from "../errors";
import { ok, route, type RouteContext, type RouteResult } from "../http";
import { findUser } from "../store/users";
import { serializeUser } from "../serializers/users";
import {
  describeFirstIssue,
  RevokeTokenBodySchema,
  SUPPORTED_GRANT_TYPES,
  TokenRequestBodySchema,
} from "../schemas/oauth2";
import {
  authenticateClient,
  exchangeToken,
  findApplication,
  OAuth2Error,
  revokeToken,
  serializeApplication,
} from "../services/oauth2";

const BOT_AUTHORIZATION_DAYS = 365;

interface ClientForm {
  fields: Record<string, string>;
  clientId?: string;
  clientSecret?: string;
}

/** The urlencoded body as strings, and the client credentials from HTTP Basic (preferred) or the body. */
function clientForm(ctx: RouteContext): ClientForm {
  if (ctx.contentType !== "application/x-www-form-urlencoded" && ctx.contentType !== "multipart/form-data") {
    throw new OAuth2Error("invalid_request", "The body must be application/x-www-form-urlencoded.");
  }
  let form: FormData;
  try {
    form = ctx.formData();
  } catch (error) {
    if (error instanceof ApiError && error.status === 413) throw error; // too large: Discord's 413, not an OAuth2 error
    throw new OAuth2Error("invalid_request", "The body could not be read as a form.");
  }
  const fields: Record<string, string> = {};
  for (const [name, value] of form)
    if (typeof value === "string" && value !== "" && !(name in fields)) fields[name] = value;
  let clientId = fields.client_id;
  let clientSecret = fields.client_secret;
  const authorization = ctx.req.headers.authorization;
  if (authorization?.toLowerCase().startsWith("basic ")) {
    const decoded = Buffer.from(authorization.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon <= 0) throw new OAuth2Error("invalid_client", "Client authentication failed.", 401);
    // RFC 6749 §2.3.1: both parts are form-encoded before Base64.
    const formDecode = (part: string) => {
      try {
        return decodeURIComponent(part.replaceAll("+", " "));
      } catch {
        throw new OAuth2Error("invalid_client", "Client authentication failed.", 401);
      }
    };
    clientId = formDecode(decoded.slice(0, colon));
    clientSecret = formDecode(decoded.slice(colon + 1));
  }
  return { fields, clientId, clientSecret };
}

/** RFC 6749 §5.1/5.2: token responses are never cached; a failed client authentication names its scheme. */
function oauth2Endpoint(fn: (ctx: RouteContext) => Promise<RouteResult>) {
  return async (ctx: RouteContext): Promise<RouteResult> => {
    try {
      const result = await fn(ctx);
      return { ...result, headers: { ...result.headers, "cache-control": "no-store", pragma: "no-cache" } };
    } catch (error) {
      if (!(error instanceof OAuth2Error)) throw error;
      const headers: Record<string, string> = { "cache-control": "no-store", pragma: "no-cache" };
      if (error.status === 401) headers["www-authenticate"] = 'Basic realm="oauth2"';
      return { status: error.status, json: error.toBody(), headers };
    }
  };
}

export const oauth2Routes = [
  // POST /oauth2/token: Token Exchange (authorization_code with PKCE, refresh_token, client_credentials)
  route(
    "POST",
    "/oauth2/token",
    "Token Exchange",
    oauth2Endpoint(async (ctx) => {
      const form = clientForm(ctx);
      const application = await authenticateClient(form.clientId, form.clientSecret);
      const grant = form.fields.grant_type;
      if (!grant) throw new OAuth2Error("invalid_request", "grant_type is missing.");
      if (!(SUPPORTED_GRANT_TYPES as readonly string[]).includes(grant))
        throw new OAuth2Error("unsupported_grant_type", `Unsupported grant_type "${grant}".`);
      const body = TokenRequestBodySchema.safeParse(form.fields);
      if (!body.success) throw new OAuth2Error("invalid_request", describeFirstIssue(body.error));
      return ok(await exchangeToken(application, body.data));
    }),
  ),

  // POST /oauth2/token/revoke: Token Revocation (RFC 7009; the access token and its refresh token go together)
  route(
    "POST",
    "/oauth2/token/revoke",
    "Token Revocation",
    oauth2Endpoint(async (ctx) => {
      const form = clientForm(ctx);
      const application = await authenticateClient(form.clientId, form.clientSecret);
      const body = RevokeTokenBodySchema.safeParse(form.fields);
      if (!body.success) throw new OAuth2Error("invalid_request", describeFirstIssue(body.error));
      await revokeToken(application, body.data.token, body.data.token_type_hint);
      return ok({});
    }),
  ),

  // GET /oauth2/@me: Get Current Authorization Information (any scope; the user only with identify)
  route("GET", "/oauth2/@me", "Get Current Authorization Information", async (ctx) => {
    const caller = ctx.caller;
    const application = await findApplication(caller.applicationId);
    if (!application) throw Errors.unknownApplication();
    if (caller.kind === "bot") {
      // A bot token does not expire; Discord still answers a date.
      return ok({
        application: serializeApplication(application),
        scopes: ["bot"],
        expires: new Date(Date.now() + BOT_AUTHORIZATION_DAYS * 86_400_000).toISOString(),
      });
    }
    const body: Record<string, unknown> = {
      application: serializeApplication(application),
      scopes: [...caller.scopes],
      expires: new Date(caller.expiresAt).toISOString(),
    };
    if (caller.scopes.has("identify")) {
      const user = await findUser(caller.userId);
      if (user) body.user = serializeUser(user);
    }
    return ok(body);
  }),
];

"use server";

// Server actions of the built-in provider's sign-in and consent page. Every action re-checks the authorization
// request from its query string (the hidden field is client input) and the signed-in user from the cookie.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import {
  createProviderSession,
  PROVIDER_SESSION_COOKIE,
  providerSessionCookieOptions,
  readProviderSession,
} from "@/lib/guild-api/provider-session";
import { ConsentDecisionFormSchema, ProviderSignInFormSchema } from "@/lib/guild-api/schemas/oauth2";
import { installBot } from "@/lib/guild-api/services/bot-install";
import {
  ACCESS_DENIED,
  AuthorizeRequestError,
  authorizationResponseUrl,
  createAuthorizationCode,
  OAuth2Error,
  parseAuthorizeRequest,
  type AuthorizeRequest,
} from "@/lib/guild-api/services/oauth2";
import { signInWithPassword } from "@/lib/guild-api/services/password-sign-in";
import { clientIpFrom } from "@/lib/server/client-ip";
import { authorizePath, type InstallErrorCode } from "./_lib/paths";

const formFields = (form: FormData) =>
  Object.fromEntries([...form].filter((entry): entry is [string, string] => typeof entry[1] === "string"));

export async function signInAction(form: FormData): Promise<void> {
  const parsed = ProviderSignInFormSchema.safeParse(formFields(form));
  const query = String(form.get("query") ?? "");
  if (!parsed.success) redirect(authorizePath(query, { login_error: "1" }));
  const result = await signInWithPassword(parsed.data.username, parsed.data.password, {
    clientIp: clientIpFrom(await headers()),
  });
  if (!result.ok)
    redirect(
      authorizePath(
        query,
        result.reason === "throttled"
          ? { login_error: "throttled", retry_after: String(Math.ceil(result.retryAfterMs / 1000)) }
          : { login_error: "1" },
      ),
    );
  (await cookies()).set(PROVIDER_SESSION_COOKIE, createProviderSession(result.userId), providerSessionCookieOptions());
  redirect(authorizePath(query));
}

export async function signOutAction(form: FormData): Promise<void> {
  (await cookies()).delete(PROVIDER_SESSION_COOKIE);
  redirect(authorizePath(String(form.get("query") ?? "")));
}

/** Re-reads the request; a request that went bad meanwhile ends as the page would end it. */
async function requestFrom(query: string): Promise<AuthorizeRequest> {
  try {
    return await parseAuthorizeRequest(Object.fromEntries(new URLSearchParams(query)));
  } catch (error) {
    if (error instanceof AuthorizeRequestError && error.target)
      redirect(authorizationResponseUrl(error.target, error.toBody()));
    if (error instanceof OAuth2Error) redirect(authorizePath(query));
    throw error;
  }
}

export async function decideAction(form: FormData): Promise<void> {
  const parsed = ConsentDecisionFormSchema.safeParse(formFields(form));
  if (!parsed.success) redirect(authorizePath(String(form.get("query") ?? "")));
  const { decision, query } = parsed.data;
  const request = await requestFrom(query);
  const userId = readProviderSession((await cookies()).get(PROVIDER_SESSION_COOKIE)?.value);
  if (userId === null) redirect(authorizePath(query));
  if (decision === "cancel") redirect(authorizationResponseUrl(request, ACCESS_DENIED));

  let guildId: bigint | null = null;
  if (request.scopes.includes("bot")) {
    const chosen = request.disableGuildSelect ? request.guildId : (parsed.data.guild_id ?? null);
    if (!chosen) redirect(authorizePath(query, { install_error: "no_guild" satisfies InstallErrorCode }));
    guildId = BigInt(chosen);
    let refused: InstallErrorCode | null = null;
    try {
      await installBot({
        application: request.application,
        userId,
        guildId,
        permissions: request.permissions,
        scopes: request.scopes,
      });
    } catch (error) {
      if (!(error instanceof OAuth2Error)) throw error;
      refused = error.error === "access_denied" ? "forbidden" : "unavailable";
    }
    if (refused) redirect(authorizePath(query, { install_error: refused }));
  }

  if (request.installOnly) {
    // An install link issues no code: a confirmation page, or the redirect URI the link named.
    if (request.redirectUri === null && request.webMessageOrigin === null)
      redirect(`/oauth2/authorized${guildId ? `?guild_id=${guildId}` : ""}`);
    redirect(authorizationResponseUrl(request, guildId ? { guild_id: String(guildId) } : {}));
  }
  const code = await createAuthorizationCode({
    applicationId: request.application.id,
    userId,
    scopes: request.scopes,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    codeChallengeMethod: request.codeChallengeMethod,
    guildId,
  });
  redirect(authorizationResponseUrl(request, guildId ? { code, guild_id: String(guildId) } : { code }));
}

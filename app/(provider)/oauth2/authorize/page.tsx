// The built-in provider's sign-in and consent page (part of the guild API service, not the dashboard, so it reads
// lib/guild-api directly). Request problems are shown here, or told to a validated redirect URI; then sign-in;
// then consent (or, with prompt=none and an earlier grant of the same scopes, straight back with a code).
import type { Metadata } from "next";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { permissionLabel, splitFlags } from "@/lib/discord/permissions";
import { PROVIDER_SESSION_COOKIE, readProviderSession } from "@/lib/guild-api/provider-session";
import { installableGuilds } from "@/lib/guild-api/services/bot-install";
import { signInNoticeFor } from "@/lib/guild-api/services/password-sign-in";
import {
  AuthorizeRequestError,
  authorizationResponseUrl,
  canSkipConsent,
  createAuthorizationCode,
  OAUTH2_SCOPES,
  OAuth2Error,
  parseAuthorizeRequest,
  type AuthorizeRequest,
} from "@/lib/guild-api/services/oauth2";
import { redirectUrisOf } from "@/lib/guild-api/store/applications";
import { findPerson } from "@/lib/guild-api/store/users";
import { SignInNoticeBanner } from "../../_components/sign-in-notice";
import { AppIdentity, type IdentityUser } from "./_components/app-identity";
import { AuthorizeShell } from "./_components/authorize-shell";
import { ConsentForm, type BotInstall } from "./_components/consent-form";
import { RequestError } from "./_components/request-error";
import { SignInForm } from "./_components/sign-in-form";
import { signInErrorMessage } from "@/lib/guild-api/login-throttle";
import { installErrorMessage, requestQueryString } from "./_lib/paths";

export const metadata: Metadata = { title: "Authorize", robots: { index: false } };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function AuthorizePage({ searchParams }: { searchParams: SearchParams }) {
  const raw = await searchParams;
  const query = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v])) as Record<
    string,
    string | undefined
  >;
  const queryString = requestQueryString(query);

  const checked = await checkRequest(query);
  if (checked.kind === "refused")
    return <RequestError error={checked.error.error} description={checked.error.description} />;
  if (checked.kind === "tell-client") redirect(checked.url);
  const { request } = checked;

  const userId = readProviderSession((await cookies()).get(PROVIDER_SESSION_COOKIE)?.value);
  const user = userId === null ? null : await findUser(userId);
  const app = request.application;
  const appIdentity = {
    id: String(app.id),
    name: app.name,
    iconUrl: app.icon ? `/cdn/app-icons/${app.id}/${app.icon}.png` : null,
  };
  const wants = request.scopes.includes("bot")
    ? "wants to be added to a server you manage"
    : request.installOnly
      ? "wants to be added to your account"
      : "wants to access your Guildhall account";

  if (!user || userId === null) {
    return (
      <AuthorizeShell labelledBy="app-heading">
        <AppIdentity app={appIdentity} user={null} headingId="app-heading" subtitle={wants} />
        <SignInForm
          query={queryString}
          error={signInErrorMessage(query.login_error, query.retry_after)}
          appName={app.name}
        />
      </AuthorizeShell>
    );
  }

  // Wrong passwords typed for the account since its last sign-in are told here first, so consent is not skipped.
  const notice = await signInNoticeFor(userId);
  if (!notice && (await canSkipConsent(request, userId))) {
    const code = await createAuthorizationCode({
      applicationId: app.id,
      userId,
      scopes: request.scopes,
      redirectUri: request.redirectUri,
      codeChallenge: request.codeChallenge,
      codeChallengeMethod: request.codeChallengeMethod,
    });
    redirect(authorizationResponseUrl(request, { code }));
  }

  return (
    <AuthorizeShell labelledBy="app-heading">
      <AppIdentity app={appIdentity} user={user} headingId="app-heading" subtitle={wants} />
      <SignInNoticeBanner notice={notice} />
      <ConsentForm
        query={queryString}
        appName={app.name}
        user={user}
        scopes={request.scopes.map((scope) => ({ scope, description: OAUTH2_SCOPES[scope] }))}
        destination={destination(request)}
        bot={request.scopes.includes("bot") ? await botInstall(request, userId) : null}
        installError={installErrorMessage(query.install_error)}
      />
    </AuthorizeShell>
  );
}

type CheckedRequest =
  | { kind: "ok"; request: AuthorizeRequest }
  | { kind: "refused"; error: OAuth2Error }
  | { kind: "tell-client"; url: string };

/** Problems before the redirect URI is trusted are shown; later ones go to the client when it named where. */
async function checkRequest(query: Record<string, string | undefined>): Promise<CheckedRequest> {
  try {
    return { kind: "ok", request: await parseAuthorizeRequest(query) };
  } catch (error) {
    if (!(error instanceof OAuth2Error)) throw error;
    if (error instanceof AuthorizeRequestError && error.target)
      return { kind: "tell-client", url: authorizationResponseUrl(error.target, error.toBody()) };
    return { kind: "refused", error };
  }
}

async function findUser(userId: bigint): Promise<IdentityUser | null> {
  const row = await findPerson(userId);
  if (!row) return null;
  return {
    id: String(row.id),
    username: row.username,
    displayName: row.global_name ?? row.username,
    avatarUrl: row.avatar ? `/cdn/avatars/${row.id}/${row.avatar}.png` : null,
  };
}

function destination(request: AuthorizeRequest): string {
  if (request.webMessageOrigin) return `The answer goes back to ${request.webMessageOrigin}.`;
  if (request.installOnly && request.redirectUri === null) return "You will see a confirmation here once it is added.";
  const target = request.redirectUri ?? redirectUrisOf(request.application)[0];
  return `Once you authorize, you will be redirected to ${new URL(target).origin}.`;
}

/** The servers the user may add the bot to, each with the requested permissions masked to the user's own there. */
async function botInstall(request: AuthorizeRequest, userId: bigint): Promise<BotInstall> {
  const labels = (bits: bigint) => splitFlags(bits).map(permissionLabel);
  const guilds = (await installableGuilds(userId, request.permissions)).map((guild) => ({
    id: guild.id,
    name: guild.name,
    granted: labels(guild.grantedPermissions),
    dropped: labels(guild.droppedPermissions),
  }));
  const preselected = request.guildId;
  return {
    guilds,
    preselected,
    locked: request.disableGuildSelect,
    preselectedRefused: preselected !== null && !guilds.some((g) => g.id === preselected),
    requested: labels(request.permissions),
  };
}

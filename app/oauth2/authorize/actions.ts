"use server";

// Server actions of the built-in provider's sign-in and consent page.
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { createProviderSession, PROVIDER_SESSION_COOKIE, PROVIDER_SESSION_TTL_MS, readProviderSession } from "@/lib/guild-api/provider-session";
import { installBot } from "@/lib/guild-api/services/bot-install";
import { createAuthorizationCode, OAuth2Error, parseAuthorizeRequest, redirectTarget, signInWithPassword } from "@/lib/guild-api/services/oauth2";

const SignInSchema = z.object({ username: z.string().trim().min(1).max(64), password: z.string().min(1).max(256), query: z.string().max(8192) });
const DecisionSchema = z.object({
  decision: z.enum(["authorize", "cancel"]),
  query: z.string().max(8192),
  guild_id: z.string().regex(/^\d{1,20}$/).optional(),
});

const authorizePath = (query: string, extra?: Record<string, string>) => {
  const params = new URLSearchParams(query);
  params.delete("login_error");
  for (const [name, value] of Object.entries(extra ?? {})) params.set(name, value);
  return `/oauth2/authorize?${params}`;
};

export async function signIn(form: FormData): Promise<void> {
  const parsed = SignInSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) redirect(authorizePath(String(form.get("query") ?? ""), { login_error: "1" }));
  const userId = signInWithPassword(parsed.data.username, parsed.data.password);
  if (userId === null) redirect(authorizePath(parsed.data.query, { login_error: "1" }));
  (await cookies()).set(PROVIDER_SESSION_COOKIE, createProviderSession(userId), {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: PROVIDER_SESSION_TTL_MS / 1000,
    secure: process.env.PUBLIC_URL?.startsWith("https://") ?? false,
  });
  redirect(authorizePath(parsed.data.query));
}

export async function signOut(form: FormData): Promise<void> {
  (await cookies()).delete(PROVIDER_SESSION_COOKIE);
  redirect(authorizePath(String(form.get("query") ?? "")));
}

export async function decide(form: FormData): Promise<void> {
  const { decision, query, guild_id: guildId } = DecisionSchema.parse(Object.fromEntries(form));
  const request = parseAuthorizeRequest(Object.fromEntries(new URLSearchParams(query)));
  const userId = readProviderSession((await cookies()).get(PROVIDER_SESSION_COOKIE)?.value);
  if (userId === null) redirect(authorizePath(query));

  let result: Record<string, string>;
  try {
    if (decision === "authorize" && request.scopes.includes("bot")) {
      if (!guildId) throw new OAuth2Error("invalid_request", "Choose a server to add the bot to.");
      installBot({ application: request.application, userId, guildId: BigInt(guildId), permissions: request.permissions, scopes: request.scopes });
    }
    if (decision === "authorize" && request.installOnly && request.redirectUri === null) {
      const installed = request.scopes.includes("bot") && guildId ? `?guild_id=${guildId}` : "";
      redirect(`/oauth2/authorized${installed}`);
    }
    result =
      decision === "cancel"
        ? { error: "access_denied", error_description: "The resource owner or authorization server denied the request" }
        : request.installOnly
          ? { guild_id: guildId ?? "" }
          : {
            code: createAuthorizationCode({
            applicationId: request.application.id,
            userId,
            scopes: request.scopes,
            redirectUri: request.redirectUri,
            codeChallenge: request.codeChallenge,
            codeChallengeMethod: request.codeChallengeMethod,
          }),
          };
  } catch (error) {
    if (!(error instanceof OAuth2Error)) throw error;
    result = { error: error.error, error_description: error.description };
  }
  if (request.webMessageOrigin) {
    const params = new URLSearchParams({ client_id: String(request.application.id), origin: request.webMessageOrigin, ...result });
    if (request.state !== null) params.set("state", request.state);
    redirect(`/oauth2/web-message?${params}`);
  }
  redirect(redirectTarget(request, result));
}

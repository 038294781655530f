"use server";

// Sign-in and sign-out for the Developer Portal: the built-in provider's own session (the cookie /oauth2/authorize
// reads too), so one sign-in serves both.
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import {
  createProviderSession,
  PROVIDER_SESSION_COOKIE,
  PROVIDER_SESSION_TTL_MS,
} from "@/lib/guild-api/provider-session";
import { signInWithPassword } from "@/lib/guild-api/services/password-sign-in";
import { clientIpFrom } from "@/lib/server/client-ip";
import { safeReturnPath } from "../_lib/session";

const SignInSchema = z.object({
  username: z.string().trim().min(1).max(64),
  password: z.string().min(1).max(256),
  next: z.string().max(2048).optional(),
});

export async function signInAction(form: FormData): Promise<void> {
  const next = safeReturnPath(typeof form.get("next") === "string" ? (form.get("next") as string) : null);
  const parsed = SignInSchema.safeParse(Object.fromEntries(form));
  if (!parsed.success) redirect(`/developers/login?${new URLSearchParams({ next, error: "1" })}`);
  const result = await signInWithPassword(parsed.data.username, parsed.data.password, {
    clientIp: clientIpFrom(await headers()),
  });
  if (!result.ok) {
    const error: Record<string, string> =
      result.reason === "throttled"
        ? { error: "throttled", retry_after: String(Math.ceil(result.retryAfterMs / 1000)) }
        : { error: "1" };
    redirect(`/developers/login?${new URLSearchParams({ next, ...error })}`);
  }
  (await cookies()).set(PROVIDER_SESSION_COOKIE, createProviderSession(result.userId), {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: PROVIDER_SESSION_TTL_MS / 1000,
    secure: process.env.PUBLIC_URL?.startsWith("https://") ?? false,
  });
  redirect(next);
}

export async function signOutAction(): Promise<void> {
  (await cookies()).delete(PROVIDER_SESSION_COOKIE);
  redirect("/developers/login");
}

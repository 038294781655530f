// Who is signed in on the Developer Portal: the built-in provider's session cookie (the same sign-in as
// /oauth2/authorize, read with the provider's own reader), and the owner check every page and action runs.
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { PROVIDER_SESSION_COOKIE, readProviderSession } from "@/lib/guild-api/provider-session";
import { ApiError } from "@/lib/guild-api/errors";
import { applicationAccessForOwner, type ApplicationAccess } from "@/lib/guild-api/services/applications";
import { findPerson } from "@/lib/guild-api/store/users";
import { safeRedirectPath } from "@/lib/security/safe-redirect";

export interface Developer {
  id: bigint;
  username: string;
  displayName: string;
}

/** The signed-in user, or null. */
export async function currentDeveloper(): Promise<Developer | null> {
  const userId = readProviderSession((await cookies()).get(PROVIDER_SESSION_COOKIE)?.value);
  if (userId === null) return null;
  const user = await findPerson(userId);
  return user ? { id: user.id, username: user.username, displayName: user.global_name ?? user.username } : null;
}

/** Where the sign-in form sends the user back to: only portal paths, never another site. */
export function safeReturnPath(path: string | null | undefined): string {
  return safeRedirectPath(path, { fallback: "/developers/applications", within: "/developers" });
}

export const signInPath = (returnTo: string) =>
  `/developers/login?next=${encodeURIComponent(safeReturnPath(returnTo))}`;

/** The signed-in user, or a redirect to the sign-in form and back to `returnTo`. */
export async function requireDeveloper(returnTo: string): Promise<Developer> {
  const developer = await currentDeveloper();
  if (!developer) redirect(signInPath(returnTo));
  return developer;
}

/** A page's access to an application it must own: unknown or not theirs is the not-found page (no existence leak). */
export async function requireOwnedApplication(
  applicationId: string,
): Promise<{ developer: Developer; access: ApplicationAccess }> {
  const developer = await requireDeveloper(`/developers/applications/${applicationId}`);
  try {
    return { developer, access: await applicationAccessForOwner(applicationId, developer.id) };
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) notFound();
    throw error;
  }
}

// How every dashboard read fails: an expired grant sends the person to sign in (and back), a guild they cannot
// see is a 404 page, anything else reaches the section's error boundary with the API's message.
import { notFound, redirect } from "next/navigation";
import { GuildApiError } from "@/lib/api-client";
import { SessionExpiredError } from "@/lib/dashboard/auth/tokens";
import { currentRequestPath, signInPath } from "@/lib/dashboard/auth/session";

export async function readOrThrow<T>(read: () => Promise<T>, options: { notFoundOn?: number[] } = {}): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (
      error instanceof SessionExpiredError ||
      (error instanceof GuildApiError && error.status === 401 && error.request.path.startsWith("/users/@me"))
    ) {
      redirect(signInPath(await currentRequestPath()));
    }
    if (error instanceof GuildApiError && (options.notFoundOn ?? [404]).includes(error.status)) notFound();
    throw error;
  }
}

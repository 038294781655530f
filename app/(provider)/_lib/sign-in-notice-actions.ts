"use server";

// Dismissing the sign-in notice (../_components/sign-in-notice.tsx): the signed-in person, from the provider's own
// session cookie, never from the form. The page the form was on is rendered again without the notice.
import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { PROVIDER_SESSION_COOKIE, readProviderSession } from "@/lib/guild-api/provider-session";
import { dismissSignInNotice } from "@/lib/guild-api/services/password-sign-in";

export async function dismissSignInNoticeAction(): Promise<void> {
  const userId = readProviderSession((await cookies()).get(PROVIDER_SESSION_COOKIE)?.value);
  if (userId !== null) await dismissSignInNotice(userId);
  revalidatePath("/", "layout");
}

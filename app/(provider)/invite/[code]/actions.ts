"use server";

// Completing membership screening from the invite page, for the user signed in at the provider (its own session
// cookie, set when they signed in to join): the provider acts for its own signed-in user here, as Discord's client
// does, with the service's own rules (completeMembershipScreening refuses a member who is not pending).
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { guildAccessFor } from "@/lib/guild-api/guards";
import { PROVIDER_SESSION_COOKIE, readProviderSession } from "@/lib/guild-api/provider-session";
import { inviteLanding } from "@/lib/guild-api/services/invite-landing";
import { completeMembershipScreening } from "@/lib/guild-api/services/screening";

const ScreeningFormSchema = z.object({ code: z.string().regex(/^[A-Za-z0-9-]{1,32}$/) });

export async function completeScreeningAction(form: FormData): Promise<void> {
  const parsed = ScreeningFormSchema.safeParse({ code: form.get("code") });
  if (!parsed.success) redirect("/");
  const { code } = parsed.data;
  const userId = readProviderSession((await cookies()).get(PROVIDER_SESSION_COOKIE)?.value);
  const landing = userId === null ? null : await inviteLanding(code, userId);
  if (userId === null || !landing || (landing.kind !== "open" && landing.kind !== "paused") || !landing.member)
    redirect(`/invite/${encodeURIComponent(code)}`);
  // The provider's own signed-in user, acting on its own page (no OAuth2 token involved).
  const caller = {
    kind: "bearer" as const,
    userId,
    applicationId: 0n,
    scopes: new Set<string>(),
    tokenId: 0n,
    expiresAt: Date.now() + 60_000,
  };
  try {
    await completeMembershipScreening(await guildAccessFor(caller, BigInt(landing.invite.guild!.id)));
  } catch {
    // Not pending any more (completed in another tab): the page shows membership as it is.
  }
  redirect(`/invite/${encodeURIComponent(code)}?join=screened`);
}

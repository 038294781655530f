"use server";

// The appeal page's actions (issue #32), for the signed-in appellant only (the signed cookie, never an id from the
// browser): send an appeal about their own ban, and sign out. The ban is read again here, with the guild's acting
// grant: only a banned user appeals, and the reason kept with the appeal is the API's.
import { cookies } from "next/headers";
import type { ActionResult } from "@/lib/action-result";
import { AppealSubmitSchema } from "@/lib/dashboard/appeals/schemas";
import { APPELLANT_COOKIE, appellantCookieOptions, decodeAppellant } from "@/lib/dashboard/appeals/sign-in";
import { getAppealSettings, submitAppeal } from "@/lib/dashboard/appeals/store";
import { appellantBan } from "@/lib/dashboard/appeals/ban-lookup";

const refused = (error: string, fieldErrors: Record<string, string[]> = {}): ActionResult<never> => ({
  ok: false,
  error,
  fieldErrors,
});

export async function submitAppealAction(input: unknown): Promise<ActionResult<{ appealId: string }>> {
  const appellant = decodeAppellant((await cookies()).get(APPELLANT_COOKIE)?.value);
  if (!appellant) return refused("Sign in again to send your appeal.");
  const parsed = AppealSubmitSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) (fieldErrors[issue.path.map(String).join(".")] ??= []).push(issue.message);
    return refused("Check your answers.", fieldErrors);
  }
  const { guildId, answers } = parsed.data;
  const settings = await getAppealSettings(guildId);
  if (!settings.enabled || !settings.actorId) return refused("This server does not take appeals here.");
  if (answers.length !== settings.questions.length) return refused("Answer every question (the form changed: reload).");
  const ban = await appellantBan(guildId, settings.actorId, appellant.userId);
  if ("unknown" in ban) return refused(ban.unknown);
  if (!ban.banned) return refused("You are not banned from this server.");
  const outcome = await submitAppeal({
    guildId,
    userId: appellant.userId,
    userName: appellant.globalName ?? appellant.username,
    banReason: ban.reason,
    answers: settings.questions.map((question, i) => ({ question, answer: answers[i] })),
  });
  if (!outcome.ok)
    return refused(
      outcome.reason === "open"
        ? "You already have an appeal waiting for the moderators."
        : `You can appeal again from ${new Date(outcome.retryAt!).toUTCString()}.`,
    );
  return { ok: true, data: { appealId: outcome.appealId }, message: "Appeal sent. The moderators will read it." };
}

export async function signOutOfAppealAction(): Promise<void> {
  (await cookies()).set(APPELLANT_COOKIE, "", { ...appellantCookieOptions(), maxAge: 0 });
}

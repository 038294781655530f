// Next runs register() once when the server starts. The dashboard's background work starts here, in the Node.js
// runtime where its modules run: the moderation scheduler (a temporary ban's end, a long timeout's renewals), which
// must run whether or not a page is ever opened.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startModerationScheduler } = await import("@/lib/dashboard/cases/scheduler");
  startModerationScheduler();
}

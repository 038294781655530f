// One dashboard instance's moderation scheduler in a process of its own (the loop instrumentation.ts starts in every
// Guildhall process, in its worker thread), for tests that run several or kill one. DATABASE_URL, GUILD_API_URL and
// GUILD_API_AUTH come from the environment; SCHEDULER_INTERVAL_MS sets how often it looks for due rows.
import { startModerationScheduler } from "@/lib/dashboard/cases/scheduler";

startModerationScheduler(Number(process.env.SCHEDULER_INTERVAL_MS ?? 200));
// The scheduler's thread does not hold a process open (a server's sockets do): this one has nothing else.
setInterval(() => undefined, 60_000);
console.log("scheduler ready");

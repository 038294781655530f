// A Guildhall server process with the dashboard's moderation scheduler, as `npm start` runs them, without Next's build:
// server.ts serving the guild API (GUILDHALL_API_ONLY=1), and the scheduler started as instrumentation.ts starts it
// inside Next. SIGTERM shuts it down gracefully, as it does `npm start`. SCHEDULER_INTERVAL_MS sets how often it looks
// for due rows. Run with `node --conditions=react-server --import tsx` (the scheduler's modules import "server-only").
import { startModerationScheduler } from "@/lib/dashboard/cases/scheduler";
import { main } from "@/server";

void main().then(() => startModerationScheduler(Number(process.env.SCHEDULER_INTERVAL_MS ?? 5_000)));

// Guildhall's entry point: the dashboard, the built-in guild API and the Activity on one port.
// `npm start` prepares the database and the build first (scripts/start.ts), then runs this.
import { shutdownGraceMs, startGuildhallServer } from "@/lib/server/create-server";
import { componentLogger } from "@/lib/server/logger";

const log = componentLogger("server");

/** How long past its grace period a shutdown may take to close what is left before the process exits anyway. */
const SHUTDOWN_DEADLINE_MARGIN_MS = 5_000;

export async function main(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const host = process.env.HOST ?? "127.0.0.1";
  const dev = process.argv.includes("--dev");
  const withNext = process.env.GUILDHALL_API_ONLY !== "1";
  const app = await startGuildhallServer({ port, host, withNext, dev });
  log.info({ url: app.url }, `Guildhall ready on ${app.url}${withNext ? "" : " (guild API only)"}`);
  // SIGTERM (an orchestrator, docker stop) and Ctrl-C shut down gracefully; a second Ctrl-C does not wait. A repeated
  // SIGTERM changes nothing: a signal to the process group reaches this process both directly and through tsx.
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      if (signal !== "SIGINT") return;
      log.warn({ signal }, "a second Ctrl-C: exiting without waiting");
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, "signal received");
    // A deadline past the grace period: a step that hangs cannot keep the process up, and until then the timer keeps
    // the event loop alive through steps that wait on unreferenced handles (the WAL checkpointer's worker).
    setTimeout(() => {
      log.error("the shutdown did not finish in time: exiting");
      process.exit(1);
    }, shutdownGraceMs() + SHUTDOWN_DEADLINE_MARGIN_MS);
    app.shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, "the shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();

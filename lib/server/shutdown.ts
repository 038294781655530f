// What a graceful shutdown (SIGTERM, create-server.ts) asks of the work that lives outside the HTTP server: the
// moderation scheduler finishes its batch and takes no other, the dashboard's live streams end (their pages connect
// again, through the load balancer, to an instance that stays), and so on. Each registers a hook here; the server runs
// them all once it stops being ready. Kept on globalThis: the server loads this module outside Next's bundles and the
// dashboard's code inside them.

import { componentLogger } from "./logger";

export type ShutdownHook = () => Promise<void> | void;

const log = componentLogger("server");

interface ShutdownState {
  hooks: Set<ShutdownHook>;
  started: boolean;
}

const STATE_KEY = Symbol.for("guildhall.shutdown");
const state: ShutdownState = ((globalThis as { [STATE_KEY]?: ShutdownState })[STATE_KEY] ??= {
  hooks: new Set(),
  started: false,
});

/** Runs `hook` when the process shuts down gracefully (at once, when it already does). Returns the unregister. */
export function onShutdown(hook: ShutdownHook): () => void {
  if (state.started) {
    void Promise.resolve()
      .then(hook)
      .catch((error: unknown) => log.error({ err: error }, "a shutdown step failed"));
    return () => {};
  }
  state.hooks.add(hook);
  return () => state.hooks.delete(hook);
}

/** Whether a graceful shutdown has begun: loops check it before they take more work. */
export function shutdownStarted(): boolean {
  return state.started;
}

/** Runs every hook at once and waits for them all; a hook that fails is reported to `onError` and the rest go on. */
export async function runShutdownHooks(onError: (error: unknown) => void): Promise<void> {
  state.started = true;
  const hooks = [...state.hooks];
  state.hooks.clear();
  const results = await Promise.allSettled(hooks.map(async (hook) => hook()));
  for (const result of results) if (result.status === "rejected") onError(result.reason);
}

// The process holding raw gateway sessions (bench/gateway/sessions.ts), forked with an IPC channel, and a way to ask
// it something and await its answer. Used by the gateway bench and the soak.
import { fork, type ChildProcess } from "node:child_process";
import path from "node:path";

/** A sessions process (bench/gateway/sessions.ts) and a way to ask it something and await its answer. */
export async function sessionsProcess() {
  const child: ChildProcess = fork(path.resolve("bench/gateway/sessions.ts"), [], {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let waiting: ((message: Record<string, unknown>) => void) | null = null;
  child.on("message", (message: Record<string, unknown>) => waiting?.(message));
  const ask = (command: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      waiting = (message) => (message.error ? reject(new Error(String(message.error))) : resolve(message));
      if (command) child.send(command as object);
    });
  await ask(null);
  return { child, ask };
}

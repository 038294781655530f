// A worker thread that takes guild-log turns as the moderation scheduler's worker does (borrowTurnsFrom), for
// guild-log-turns.test.ts: told { hold: guildId }, it takes that guild's turn and says "holding" once it has it, then
// keeps it until told { release: guildId }.
import { parentPort } from "node:worker_threads";
import { withGuildLogLock } from "@/lib/dashboard/audit/guild-log/lock";
import { borrowTurnsFrom } from "@/lib/dashboard/audit/guild-log/thread-turns";

const port = parentPort!;
borrowTurnsFrom(port);
const releases = new Map<string, () => void>();
port.on("message", (message: { hold?: string; release?: string }) => {
  const { hold, release } = message;
  if (hold)
    void withGuildLogLock(hold, async () => {
      port.postMessage({ holding: hold });
      await new Promise<void>((resolve) => releases.set(hold, resolve));
    });
  if (release) releases.get(release)?.();
});
port.postMessage({ ready: true });

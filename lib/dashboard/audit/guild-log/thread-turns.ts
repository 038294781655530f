// A worker thread's guild-log turns (lock.ts), taken from the chains of the thread that started it
// (Next's, where pages run) over the worker's port, so the
// process keeps one chain per guild although each thread has a globalThis of its own: the moderation scheduler's
// worker records its unbans (twins.ts) while the pages import the guild's audit log (import.ts), and the
// two must not each miss the other's rows. The worker asks for a turn, that thread answers once the turn is the
// worker's and holds it until the worker gives it back, or until the worker is gone.
import type { MessagePort, Worker } from "node:worker_threads";
import { lendTurn, takeTurnsFrom } from "./lock";

type TurnMessage =
  | { type: "take-turn"; id: number; guildId: string }
  | { type: "turn"; id: number }
  | { type: "release-turn"; id: number };

/** In the thread that started the worker: answers the worker's requests for turns from this thread's chains. */
export function lendTurnsTo(worker: Worker): void {
  /** Turns the worker holds, by its request's id. */
  const lent = new Map<number, () => void>();
  let gone = false;
  worker.on("message", (message: TurnMessage) => {
    if (message.type === "take-turn") {
      const { id } = message;
      void lendTurn(message.guildId).then((release) => {
        // Its turn came after the worker died: nobody is left to give it back.
        if (gone) return release();
        lent.set(id, release);
        worker.postMessage({ type: "turn", id } satisfies TurnMessage);
      });
    } else if (message.type === "release-turn") {
      lent.get(message.id)?.();
      lent.delete(message.id);
    }
  });
  worker.once("exit", () => {
    gone = true;
    for (const release of lent.values()) release();
    lent.clear();
  });
}

/** In a worker thread: every guild-log turn taken here is also taken from its parent's chain (lendTurnsTo). */
export function borrowTurnsFrom(port: MessagePort): void {
  /** Turns asked for and not given yet, by id. */
  const asked = new Map<number, (release: () => void) => void>();
  let requests = 0;
  port.on("message", (message: TurnMessage) => {
    if (message.type !== "turn") return;
    const given = asked.get(message.id);
    asked.delete(message.id);
    given?.(() => port.postMessage({ type: "release-turn", id: message.id } satisfies TurnMessage));
  });
  takeTurnsFrom(
    (guildId) =>
      new Promise((given) => {
        const id = ++requests;
        asked.set(id, given);
        port.postMessage({ type: "take-turn", id, guildId } satisfies TurnMessage);
      }),
  );
}

// One moderator's stream of one guild's changes (text/event-stream), fed by the live hub. The moderator's session is
// checked again every minute (signing out or an expired session ends the stream), and a change that ends their
// membership (removed, banned) sends `revoked` and ends it. Actors are named as the dashboard names users.
import "server-only";
import type { DashboardSession } from "@/lib/dashboard/auth/session";
import { prisma } from "@/lib/dashboard/db";
import { managementApi } from "@/lib/dashboard/data/api";
import { lookupUsers } from "@/lib/dashboard/data/users";
import { liveHub, type LiveChange } from "./hub";

/** A comment line this often keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 25_000;
const SESSION_CHECK_MS = 60_000;

export interface LiveChangeMessage {
  sections: LiveChange["sections"];
  actors: Array<{ id: string; name: string }>;
}

export function streamGuildChanges(session: DashboardSession, guildId: string, signal: AbortSignal): Response {
  const hub = liveHub();
  // No connection to follow (DASHBOARD_LIVE=off, no bot token, or refused for good): 204 tells EventSource to stop.
  if (hub.state(guildId) === "off") return new Response(null, { status: 204 });
  const encoder = new TextEncoder();
  const cleanups: Array<() => void> = [];
  let closed = false;

  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: string | null, data?: unknown) => {
        if (closed) return;
        const head = event ? `event: ${event}\n` : "";
        controller.enqueue(
          encoder.encode(data === undefined ? `${head}\n` : `${head}data: ${JSON.stringify(data)}\n\n`),
        );
      };
      const close = () => {
        if (closed) return;
        closed = true;
        for (const cleanup of cleanups) cleanup();
        try {
          controller.close();
        } catch {
          // Already closed by the client going away.
        }
      };

      // Changes go out in the order they came, whatever each one's name lookup takes.
      let queue = Promise.resolve();
      const sendState = () => send("state", { state: hub.state(guildId) });
      sendState();
      cleanups.push(hub.onStateChange(sendState));
      cleanups.push(
        hub.subscribe(guildId, (change) => {
          if (change.departedUserIds.includes(session.actor.id)) {
            send("revoked", {});
            return close();
          }
          queue = queue.then(() => describe(session, change)).then((message) => send("change", message));
        }),
      );
      const keepalive = setInterval(() => {
        if (!closed) controller.enqueue(encoder.encode(": keepalive\n\n"));
      }, KEEPALIVE_MS);
      const sessionCheck = setInterval(() => {
        void prisma.dashboardSession
          .findUnique({ where: { sessionToken: session.sessionToken }, select: { expires: true } })
          .then((row) => {
            if (!row || row.expires.getTime() <= Date.now()) {
              send("revoked", {});
              close();
            }
          })
          .catch(() => null);
      }, SESSION_CHECK_MS);
      cleanups.push(
        () => clearInterval(keepalive),
        () => clearInterval(sessionCheck),
      );
      signal.addEventListener("abort", close);
    },
    cancel() {
      closed = true;
      for (const cleanup of cleanups) cleanup();
    },
  });

  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-store, no-transform",
      // Tells a buffering reverse proxy (nginx) to pass events through as they come.
      "x-accel-buffering": "no",
    },
  });
}

/** The change with its actors' names; a lookup that fails names them by id rather than holding the change back. */
async function describe(session: DashboardSession, change: LiveChange): Promise<LiveChangeMessage> {
  let names: Record<string, { displayName: string }> = {};
  if (change.actorIds.length > 0) {
    try {
      names = await lookupUsers(await managementApi(session), change.actorIds);
    } catch {
      // Named by id below.
    }
  }
  return {
    sections: change.sections,
    actors: change.actorIds.map((id) => ({ id, name: names[id]?.displayName ?? id })),
  };
}

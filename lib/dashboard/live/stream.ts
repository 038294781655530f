// One moderator's stream of one guild's changes (text/event-stream), fed by the live hub. The moderator's session is
// checked again every minute (signing out or an expired session ends the stream), and a change that ends their
// membership (removed, banned) sends `revoked` and ends it. Each change is sent as the policy table lets this viewer
// see it (SECTION_POLICIES, ACTORS_REQUIREMENT in lib/discord/policies.ts): only the sections they may see (nothing
// at all when none is left), and who made it only to viewers with View Audit Log, named as the dashboard names users.
// What they may see is their standing in the guild, read when the stream opens and again after any change that may
// move it (roles or the guild changed, or their own member updated); a standing that cannot be read sends nothing.
import "server-only";
import type { DashboardSession } from "@/lib/dashboard/auth/session";
import { prisma } from "@/lib/dashboard/db";
import { managementApi } from "@/lib/dashboard/data/api";
import { lookupUsers } from "@/lib/dashboard/data/users";
import { readGuildViewer } from "@/lib/dashboard/data/viewer";
import { mayKnowActors, sectionsForViewer } from "./changes";
import { liveHub, type LiveChange } from "./hub";
import { onShutdown } from "@/lib/server/shutdown";

/** A comment line this often keeps proxies from closing an idle stream. */
const KEEPALIVE_MS = 25_000;
const SESSION_CHECK_MS = 60_000;

export interface LiveChangeMessage {
  sections: LiveChange["sections"];
  actors: Array<{ id: string; name: string }>;
}

/**
 * What the viewer may see of the guild's changes: their guild-wide permissions, read through the dashboard's read of
 * the guild (the one the pages make). Null until read, and again once a change may have moved it.
 */
class ViewerStanding {
  private permissions: Promise<bigint | null> | null = null;

  constructor(
    private readonly session: DashboardSession,
    private readonly guildId: string,
  ) {}

  /** The permissions, read if not known; null when they cannot be read (the change is then not sent). */
  current(): Promise<bigint | null> {
    this.permissions ??= readGuildViewer(this.session, this.guildId).then(
      (viewer) => viewer.permissions,
      () => {
        this.permissions = null;
        return null;
      },
    );
    return this.permissions;
  }

  /** Read again before the next change: this one may have changed roles, the guild, or the viewer's member. */
  forgetIfMoved(change: LiveChange): void {
    if (change.sections === "all" || change.updatedMemberIds.includes(this.session.actor.id)) this.permissions = null;
  }
}

export function streamGuildChanges(session: DashboardSession, guildId: string, signal: AbortSignal): Response {
  const hub = liveHub();
  const standing = new ViewerStanding(session, guildId);
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
          standing.forgetIfMoved(change);
          queue = queue
            .then(() => describe(session, standing, change))
            .then((message) => {
              if (message) send("change", message);
            });
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
      // A shutting-down instance ends its streams: the page connects again, to an instance that stays.
      cleanups.push(onShutdown(close));
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

/**
 * The change as this viewer may see it, with its actors' names (only for View Audit Log); null when nothing of it is
 * theirs to see. A name lookup that fails names actors by id rather than holding the change back.
 */
async function describe(
  session: DashboardSession,
  standing: ViewerStanding,
  change: LiveChange,
): Promise<LiveChangeMessage | null> {
  const permissions = await standing.current();
  if (permissions === null) return null;
  const sections = sectionsForViewer(change.sections, permissions);
  if (sections !== "all" && sections.length === 0) return null;
  const actorIds = mayKnowActors(permissions) ? change.actorIds : [];
  let names: Record<string, { displayName: string }> = {};
  if (actorIds.length > 0) {
    try {
      names = await lookupUsers(await managementApi(session), actorIds);
    } catch {
      // Named by id below.
    }
  }
  return { sections, actors: actorIds.map((id) => ({ id, name: names[id]?.displayName ?? id })) };
}

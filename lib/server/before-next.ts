// What happens to a request for a page between the server and Next, in whichever thread Next runs (create-server.ts
// in development or with PAGES_THREAD=0, pages-worker.ts otherwise): the dashboard's door, the app icons, an invite's
// status, the page's timing, and the response facts a streamed page waits on. The sign-in gate comes before it, in the
// caller: an API-only server has it too.
import type { IncomingMessage, ServerResponse } from "node:http";
import { answerWith, inviteLandingStatus } from "./invite-status";
import { serveAppIcon } from "./app-icons";
import { withResponseFacts } from "./first-write";
import { timePageRequest } from "./page-metrics";
import { dashboardDoor } from "./dashboard-door";

export interface PageRequest {
  path: string;
  search: string;
  requestId: string;
  /** False in development, where the icons may change under a running server and Next answers them. */
  serveIcons: boolean;
}

/** Answers the request here when it can, else hands it to `next` (Next's request handler). */
export async function answerThroughNext(
  req: IncomingMessage,
  res: ServerResponse,
  { path, search, requestId, serveIcons }: PageRequest,
  next: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
): Promise<void> {
  if (dashboardDoor(req, res, path, search)) return;
  if (serveIcons && serveAppIcon(req, res, path, search)) return;
  const inviteStatus = await inviteLandingStatus(req, path);
  if (inviteStatus !== null) answerWith(res, inviteStatus);
  timePageRequest(req, res, path);
  // A page's slow part waits for the shell's first bytes, or a client navigation for its reads (streaming.ts).
  return withResponseFacts(req, res, requestId, () => next(req, res));
}

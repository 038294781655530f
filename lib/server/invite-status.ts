// The HTTP status of the invite landing page (/invite/{code}): 404 for an unknown invite, 410 for an expired or used-up
// one, 403 while the guild's invites are paused, as lib/guild-api/services/invite-landing.ts decides. A Next page
// always answers 200 (Next resets the status before rendering), so the one-process server applies the status to the
// page's response: the page's 200 becomes the invite's status; any other status Next chooses (a redirect, an error)
// stands.
import type { IncomingMessage, ServerResponse } from "node:http";
import { INVITE_LANDING_STATUS, inviteLanding } from "@/lib/guild-api/services/invite-landing";

const LANDING_PATH = /^\/invite\/([^/]+)\/?$/;
const CODE = /^[A-Za-z0-9-]{1,32}$/;

/** The status the page for `path` should answer with, or null when `path` is not an invite page. */
export async function inviteLandingStatus(req: IncomingMessage, path: string): Promise<number | null> {
  if (req.method !== "GET" && req.method !== "HEAD") return null;
  // Client-side navigations fetch the page's RSC payload: the router needs it as a 200.
  if (req.headers.rsc !== undefined) return null;
  const match = LANDING_PATH.exec(path);
  if (!match) return null;
  let code: string;
  try {
    code = decodeURIComponent(match[1]);
  } catch {
    return 404;
  }
  if (!CODE.test(code)) return 404;
  return INVITE_LANDING_STATUS[(await inviteLanding(code)).kind];
}

/** Makes the response's 200 into `status` when its head is written. */
export function answerWith(res: ServerResponse, status: number): void {
  if (status === 200) return;
  const writeHead = res.writeHead.bind(res) as (code: number, ...rest: unknown[]) => ServerResponse;
  res.writeHead = ((code: number, ...rest: unknown[]) =>
    writeHead(code === 200 ? status : code, ...rest)) as typeof res.writeHead;
}

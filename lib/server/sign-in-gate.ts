// The sign-in forms' front door. Once an address is locked out by the guessing brake (login-throttle.ts), its
// sign-in attempts are refused before any hashing, but each one would still cost a whole Next render of the server
// action (about a millisecond of the one event loop): twenty guessers in a loop then slow every other request by
// tens of milliseconds. So the server answers them itself, with the same redirect the action would send ("Too many
// attempts. Try again in …"), at the cost of a header check.
//
// Only signed-out requests are stopped: a request carrying a provider session is a signed-in person's consent or
// sign-out, not a password guess, and goes on to Next as usual.
import type http from "node:http";
import { addressThrottleKey, processSignInThrottle } from "@/lib/guild-api/login-throttle";
import { PROVIDER_SESSION_COOKIE } from "@/lib/guild-api/provider-session";

/** The pages whose signed-out POSTs are password sign-ins, and the notice parameter each page reads. */
const SIGN_IN_PAGES: Record<string, string> = {
  "/oauth2/authorize": "login_error",
  "/developers/login": "error",
};

/** A sign-in form is a few hundred bytes. */
const SMALL_FORM_BYTES = 16 * 1024;

/** How long a refused attempt's answer is held, at most; and how many may be held at once. */
const MAX_HOLD_MS = 1_000;
const MAX_HELD_ANSWERS = 1_024;
let heldAnswers = 0;

const NOTICE_PARAMS = ["login_error", "install_error", "error", "retry_after"];

const hasProviderSession = (req: http.IncomingMessage) =>
  (req.headers.cookie ?? "").split(";").some((cookie) => cookie.trim().startsWith(`${PROVIDER_SESSION_COOKIE}=`));

/** True when the request was a locked-out address's sign-in attempt and has been answered here. */
export function refuseLockedOutSignIn(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
  search: string,
  clientIp: string,
): boolean {
  const noticeParam = SIGN_IN_PAGES[path];
  if (req.method !== "POST" || noticeParam === undefined || hasProviderSession(req)) return false;
  const waitMs = processSignInThrottle().waitFor(addressThrottleKey(clientIp));
  if (waitMs <= 0) return false;

  const params = new URLSearchParams(search);
  for (const name of NOTICE_PARAMS) params.delete(name);
  params.set(noticeParam, "throttled");
  params.set("retry_after", String(Math.ceil(waitMs / 1000)));
  const location = `${path}?${params}`;
  const answer = () => {
    // The body is not read. Node discards a small one and keeps the connection (a new connection per guess costs
    // more than the answer); a big or unsized one closes it rather than drain an attacker's upload.
    if (!(Number(req.headers["content-length"]) <= SMALL_FORM_BYTES)) res.setHeader("connection", "close");
    res.setHeader("retry-after", String(Math.ceil(waitMs / 1000)));
    res.setHeader("cache-control", "no-store");
    if (req.headers["next-action"]) {
      // A server action called by React in the page: Next's client follows x-action-redirect (303, no Location).
      res.writeHead(303, { "content-type": "text/plain", "x-action-redirect": `${location};push` }).end();
    } else {
      // A plain form post (no JavaScript): the browser follows Location to the page, which shows the wait.
      res.writeHead(303, { location, "content-type": "text/plain" }).end();
    }
  };
  // The growing delay, felt: the answer is held for up to a second, so a guesser in a loop is slowed to one try a
  // second per connection instead of filling the event loop. A person waiting out the lock only sees the notice a
  // moment later. Held answers are few and bounded; past the bound they go out at once.
  if (heldAnswers >= MAX_HELD_ANSWERS) {
    answer();
    return true;
  }
  heldAnswers++;
  let held = true;
  const release = () => {
    if (held) heldAnswers--;
    held = false;
  };
  const timer = setTimeout(
    () => {
      release();
      if (!res.destroyed) answer();
    },
    Math.min(waitMs, MAX_HOLD_MS),
  );
  res.once("close", () => {
    clearTimeout(timer);
    release();
  });
  return true;
}

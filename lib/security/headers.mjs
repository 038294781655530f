// Security headers, as one table: next.config.mjs sends them with every page (it can only import JavaScript, hence
// .mjs), and the one-port server sends them with the guild API's answers and the Activity (lib/server).
//
// Framing: nothing of Guildhall may be framed (clickjacking of the consent page, sign-in and the dashboard), except
// the widget, which exists to be embedded anywhere, and the Activity, which only its host (Discord's client) frames.

/** Sent with every answer, pages and API alike. */
export const BASE_SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
];

/** Pages nobody may frame. X-Frame-Options covers browsers without CSP frame-ancestors. */
export const NOT_FRAMABLE_HEADERS = [
  { key: "Content-Security-Policy", value: "frame-ancestors 'none'" },
  { key: "X-Frame-Options", value: "DENY" },
];

/** The widget: embeddable by any site. */
export const EMBEDDABLE_HEADERS = [{ key: "Content-Security-Policy", value: "frame-ancestors *" }];

/** Where Discord's clients frame an Activity from (web, desktop and the Activity proxy's own origins). */
export const DISCORD_ACTIVITY_HOSTS = ["https://discord.com", "https://*.discord.com", "https://*.discordsays.com"];

/**
 * frame-ancestors for the Activity: Discord's client origins, plus the origins in ACTIVITY_FRAME_ANCESTORS
 * (space-separated, e.g. a local host simulator). Anything that is not a plain origin is ignored, so the variable
 * cannot add other directives.
 * @param {string | undefined} extra
 * @returns {string}
 */
export function activityFrameAncestors(extra) {
  const origins = (extra ?? "").split(/\s+/).filter((origin) => /^https?:\/\/[a-z0-9.*-]+(:\d{1,5})?$/i.test(origin));
  return `frame-ancestors ${[...DISCORD_ACTIVITY_HOSTS, ...origins].join(" ")}`;
}

/** Paths with their own frame-ancestors (matched as a whole segment: /widget and /widget/…). */
export const FRAMABLE_PREFIXES = ["/widget", "/activity"];

/**
 * next.config.mjs `headers()`: the base headers everywhere, 'none' for every page but the framable ones, `*` for
 * the widget. The Activity's policy depends on the environment at run time, so the server adds it (lib/server).
 */
export function pageHeaderRules() {
  const framable = FRAMABLE_PREFIXES.map((prefix) => `${prefix.slice(1)}(?:/|$)`).join("|");
  return [
    { source: "/:path*", headers: BASE_SECURITY_HEADERS },
    { source: `/((?!${framable}).*)`, headers: NOT_FRAMABLE_HEADERS },
    { source: "/widget", headers: EMBEDDABLE_HEADERS },
    { source: "/widget/:path*", headers: EMBEDDABLE_HEADERS },
  ];
}

// The one check for every "send me back to X" value (sign-in's callbackUrl, next-auth's redirect callback, the
// Developer Portal's `next`, the path the proxy hands to pages): only a path on this origin is ever followed.
//
// Browsers are lenient where servers are strict: they strip tabs and newlines anywhere in a URL, read `\` as `/`,
// and resolve `/..//host` to `//host`. A value that looks like a path to the server can therefore name another
// host once the browser reads it. So the check refuses anything a browser could reinterpret (control characters,
// backslashes, a second leading slash), resolves the path against a placeholder origin, and checks the result
// again. Values are also checked after each layer of percent-decoding, in case something downstream decodes again.

/** Longest path followed; longer values are refused rather than truncated. */
export const MAX_REDIRECT_LENGTH = 2048;

const PLACEHOLDER_ORIGIN = "http://same-origin.invalid";
/** Up to this many layers of percent-encoding are unwrapped and checked. */
const DECODE_LAYERS = 3;

// C0 controls (tabs and newlines are dropped by browsers anywhere in a URL), DEL, and the backslash (read as "/").
const UNSAFE_CHARACTERS = /[\u0000-\u001f\u007f\\]/;

/** The path a browser lands on for `path`, or null when it names another origin. */
function resolveLocally(path: string): string | null {
  if (!path.startsWith("/") || path.startsWith("//")) return null;
  let resolved: URL;
  try {
    resolved = new URL(path, PLACEHOLDER_ORIGIN);
  } catch {
    return null;
  }
  if (resolved.origin !== PLACEHOLDER_ORIGIN) return null;
  const landing = `${resolved.pathname}${resolved.search}${resolved.hash}`;
  // Dot segments can collapse into a new leading "//" (`/..//evil.example`).
  return landing.startsWith("//") ? null : landing;
}

/** True when `path` stays on this origin even when read as leniently as a browser reads a URL. */
function staysLocalWhenReadLeniently(path: string): boolean {
  const lenient = path
    .replace(/[\t\n\r]/g, "")
    .replace(/^[\u0000-\u0020]+/, "")
    .replace(/\\/g, "/");
  return resolveLocally(lenient) !== null;
}

/** Each layer of percent-decoding of `value` also stays on this origin. */
function decodedLayersStayLocal(value: string): boolean {
  let current = value;
  for (let layer = 0; layer < DECODE_LAYERS; layer++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      // Malformed escapes: kept as they are by a browser, so nothing further to unwrap.
      return true;
    }
    if (decoded === current) return true;
    if (!staysLocalWhenReadLeniently(decoded)) return false;
    current = decoded;
  }
  return true;
}

export interface SafeRedirectOptions {
  /** Where to go when `value` is missing or refused: a same-origin path. */
  fallback: string;
  /** This site's origin: absolute URLs on it are accepted (next-auth hands those), any other origin is refused. */
  origin?: string;
  /** Only paths equal to or under this one are accepted (e.g. "/developers"). */
  within?: string;
}

/** `value` as a same-origin path (pathname, query and fragment), or `fallback`. */
export function safeRedirectPath(value: unknown, options: SafeRedirectOptions): string {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_REDIRECT_LENGTH) return options.fallback;
  let candidate = value;
  if (options.origin && !value.startsWith("/")) {
    // An absolute URL on this very origin (scheme, host and port equal, no user info) is reduced to its path.
    let absolute: URL;
    try {
      absolute = new URL(value);
    } catch {
      return options.fallback;
    }
    if (UNSAFE_CHARACTERS.test(value) || absolute.username || absolute.password) return options.fallback;
    if (absolute.origin !== new URL(options.origin).origin) return options.fallback;
    candidate = `${absolute.pathname}${absolute.search}${absolute.hash}`;
  }
  if (UNSAFE_CHARACTERS.test(candidate)) return options.fallback;
  const path = resolveLocally(candidate);
  if (path === null || !decodedLayersStayLocal(path) || !decodedLayersStayLocal(candidate)) return options.fallback;
  if (options.within && !isWithin(new URL(path, PLACEHOLDER_ORIGIN).pathname, options.within)) return options.fallback;
  return path;
}

function isWithin(pathname: string, prefix: string): boolean {
  const base = prefix.replace(/\/+$/, "");
  return pathname === base || pathname.startsWith(`${base}/`);
}

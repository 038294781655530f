// Activity URL Mappings (setup rule 4): an Activity runs in a sandbox where every outside address goes through
// Discord's proxy. A mapping sends PREFIX (a path under /.proxy) to TARGET (a host[:port][/path], no scheme).
// Pure: the Developer Portal validates with these checks, and the host simulator resolves with resolveUrlMapping.

export interface UrlMapping {
  prefix: string;
  target: string;
}

/** Where the proxy lives inside the Activity's own origin: `/.proxy/<prefix>/…`. */
export const PROXY_PATH = "/.proxy";
/** The mapping every Activity needs: its own frontend, served at the root of the proxy. */
export const ROOT_PREFIX = "/";

export const URL_MAPPING_PREFIX_MAX = 256;
export const URL_MAPPING_TARGET_MAX = 2048;

// Characters allowed in a URL path (RFC 3986 pchar plus "/"); "?" and "#" would start a query or fragment.
const PATH_CHARS = /^[A-Za-z0-9\-._~%!$&'()*+,;=:@/]*$/;
const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;
const IPV6 = /^\[[0-9A-Fa-f:.]+\]$/;

/** "/api/" and "/api" are the same prefix: trailing slashes go, the root stays "/". */
export function normalizeMappingPrefix(prefix: string): string {
  const trimmed = prefix.replace(/\/+$/, "");
  return trimmed === "" ? ROOT_PREFIX : trimmed;
}

/** Why `prefix` can't be a mapping prefix, or null when it can. */
export function checkMappingPrefix(prefix: string): string | null {
  if (prefix.length === 0) return "Enter a prefix, such as / or /api.";
  if (/\s/.test(prefix)) return "A prefix can't contain spaces.";
  if (!prefix.startsWith("/")) return 'A prefix must start with "/".';
  if (prefix.length > URL_MAPPING_PREFIX_MAX) return `A prefix must be ${URL_MAPPING_PREFIX_MAX} or fewer characters.`;
  if (prefix.includes("?") || prefix.includes("#")) return "A prefix is a path: no query (?) or fragment (#).";
  if (!PATH_CHARS.test(prefix)) return "A prefix may only contain URL path characters.";
  const normalized = normalizeMappingPrefix(prefix);
  if (normalized.includes("//")) return 'A prefix can\'t contain an empty segment ("//").';
  if (normalized === PROXY_PATH || normalized.startsWith(`${PROXY_PATH}/`))
    return `"${PROXY_PATH}" is the proxy itself; leave it out of the prefix.`;
  return null;
}

/** Why `target` can't be a mapping target, or null when it can. A target is host[:port][/path], without a scheme. */
export function checkMappingTarget(target: string): string | null {
  if (target.length === 0) return "Enter a target, such as example.com or example.com/api.";
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(target) || target.includes("://"))
    return "Leave out the scheme (https://): a target is a host such as example.com.";
  if (/\s/.test(target)) return "A target can't contain spaces.";
  if (target.length > URL_MAPPING_TARGET_MAX) return `A target must be ${URL_MAPPING_TARGET_MAX} or fewer characters.`;
  if (target.includes("?") || target.includes("#")) return "A target can't have a query (?) or fragment (#).";
  if (target.includes("@")) return "A target can't carry credentials (user@host).";
  const slash = target.indexOf("/");
  const authority = slash === -1 ? target : target.slice(0, slash);
  const path = slash === -1 ? "" : target.slice(slash);
  if (!PATH_CHARS.test(path)) return "The target's path may only contain URL path characters.";
  let host = authority;
  let port: string | undefined;
  if (authority.startsWith("[")) {
    // An IPv6 literal: [::1] or [::1]:8080
    const close = authority.indexOf("]");
    host = close === -1 ? authority : authority.slice(0, close + 1);
    const rest = close === -1 ? "" : authority.slice(close + 1);
    if (!IPV6.test(host)) return "The target's host isn't a valid address.";
    if (rest && !/^:\d{1,5}$/.test(rest)) return "The target's port must be a number.";
    port = rest ? rest.slice(1) : undefined;
  } else {
    const colon = authority.lastIndexOf(":");
    if (colon !== -1) {
      host = authority.slice(0, colon);
      port = authority.slice(colon + 1);
      if (!/^\d{1,5}$/.test(port)) return "The target's port must be a number.";
    }
    if (host.length === 0) return "The target needs a host, such as example.com.";
    if (host.length > 253) return "The target's host name is too long.";
    if (!host.split(".").every((label) => HOST_LABEL.test(label))) return "The target's host isn't a valid host name.";
  }
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535))
    return "The target's port must be between 1 and 65535.";
  return null;
}

export interface ResolvedUrlMapping {
  mapping: UrlMapping;
  /** The address the proxy forwards to. */
  url: string;
}

/**
 * Where the Activity proxy sends `path`, as Discord's does: the longest matching prefix wins (matched on whole
 * path segments, so /api does not catch /apis), the prefix is dropped, the rest goes after the target, with the
 * query and fragment kept. `path` may carry the proxy's own "/.proxy" in front (as the Activity requests it) or not.
 * Null when no mapping matches.
 */
export function resolveUrlMapping(
  mappings: readonly UrlMapping[],
  path: string,
  options: { scheme?: "https" | "http" } = {},
): ResolvedUrlMapping | null {
  const split = path.search(/[?#]/);
  let pathname = split === -1 ? path : path.slice(0, split);
  const suffix = split === -1 ? "" : path.slice(split);
  if (pathname === PROXY_PATH || pathname.startsWith(`${PROXY_PATH}/`)) pathname = pathname.slice(PROXY_PATH.length);
  if (!pathname.startsWith("/")) pathname = `/${pathname}`;

  let best: { mapping: UrlMapping; prefix: string } | null = null;
  for (const mapping of mappings) {
    const prefix = normalizeMappingPrefix(mapping.prefix);
    const matches = prefix === ROOT_PREFIX || pathname === prefix || pathname.startsWith(`${prefix}/`);
    if (matches && (!best || prefix.length > best.prefix.length)) best = { mapping, prefix };
  }
  if (!best) return null;

  const rest = best.prefix === ROOT_PREFIX ? pathname : pathname.slice(best.prefix.length);
  const target = best.mapping.target.replace(/\/+$/, "");
  const joined = `${target}${rest}`;
  const withPath = joined.includes("/") ? joined : `${joined}/`;
  return { mapping: best.mapping, url: `${options.scheme ?? "https"}://${withPath}${suffix}` };
}

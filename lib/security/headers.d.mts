// Types of headers.mjs (JavaScript so that next.config.mjs can import it).
export interface HeaderEntry {
  key: string;
  value: string;
}
export interface HeaderRule {
  source: string;
  headers: HeaderEntry[];
}
export const BASE_SECURITY_HEADERS: HeaderEntry[];
export const NOT_FRAMABLE_HEADERS: HeaderEntry[];
export const EMBEDDABLE_HEADERS: HeaderEntry[];
export const DISCORD_ACTIVITY_HOSTS: string[];
export const FRAMABLE_PREFIXES: string[];
export function activityFrameAncestors(extra: string | undefined): string;
export function pageHeaderRules(): HeaderRule[];

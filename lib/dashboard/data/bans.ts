// Ban reads for the Bans page: one page of Get Guild Bans between cursors (before/after; the API lists ascending by
// user id, and the page may show it from either end), an exact lookup by id (Get Guild Ban), and a name search that
// scans the ban list, since the API has no ban search.
import type { APIBan } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import { BANS_LIMIT } from "@/lib/discord/limits";
import { isSnowflake, MAX_SNOWFLAKE } from "@/lib/discord/snowflake";
import type { BanOrder } from "./ban-sorts";
import { managementApi } from "./api";
import { userAvatarUrl } from "./cdn";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

export const BAN_PAGE_SIZE = 50;
/** A name search reads at most this many bans per page of results; the next page continues the scan. */
export const BAN_NAME_SCAN_MAX = 5000;

export interface BanRow {
  id: string;
  username: string;
  displayName: string;
  avatarUrl: string | null;
  bot: boolean;
  reason: string | null;
}

export interface BanPageQuery {
  q?: string;
  after?: string;
  before?: string;
  limit?: number;
  /** By user id (account age): ascending is the API's own order; descending reads the list from its end. */
  order?: BanOrder;
}

/** Where a neighbouring page starts: below (`before`) or above (`after`) a user id. */
export type BanCursor = { before: string } | { after: string };

export interface BanPage {
  /** In the order shown. */
  rows: BanRow[];
  /** Cursors for the neighbouring pages (in the order shown), or null where there is none. */
  previous: BanCursor | null;
  next: BanCursor | null;
  /** How the query was answered: the whole list, one id, or a name scan over `scanned` bans. */
  mode: "list" | "id" | "name";
  scanned: number;
}

export function toBanRow(ban: APIBan): BanRow {
  const user = ban.user;
  return {
    id: user.id,
    username: user.username,
    displayName: user.global_name ?? user.username,
    avatarUrl: userAvatarUrl(user.id, user.avatar),
    bot: Boolean(user.bot),
    reason: ban.reason,
  };
}

const cursor = (value: string | undefined) => (value && isSnowflake(value) ? value : undefined);

/** `before` this cursor lists from the end: every id is below it. */
const END = String(MAX_SNOWFLAKE);

export async function getBanPage(viewer: GuildViewer, query: BanPageQuery): Promise<BanPage> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const guildId = viewer.guild.id;
    const limit = query.limit ?? BAN_PAGE_SIZE;
    const q = query.q?.trim();
    const descending = query.order === "descending";

    if (q && isSnowflake(q)) {
      try {
        return {
          rows: [toBanRow(await api.bans.get(guildId, q))],
          previous: null,
          next: null,
          mode: "id",
          scanned: 1,
        };
      } catch (error) {
        if (error instanceof GuildApiError && error.status === 404)
          return { rows: [], previous: null, next: null, mode: "id", scanned: 1 };
        throw error;
      }
    }

    if (q) {
      // Usernames and display names, case-insensitively, read in pages of 1000 from the cursor on: upwards from
      // `after` in the API's order, downwards from `before` when newest accounts come first.
      const needle = q.toLowerCase();
      const matches = (ban: APIBan) =>
        ban.user.username.toLowerCase().includes(needle) ||
        Boolean(ban.user.global_name?.toLowerCase().includes(needle));
      const onwards = (id: string): BanCursor => (descending ? { before: id } : { after: id });
      const rows: APIBan[] = [];
      let from = descending ? (cursor(query.before) ?? END) : (cursor(query.after) ?? "0");
      let scanned = 0;
      for (;;) {
        const page = await api.bans.list(
          guildId,
          descending ? { limit: BANS_LIMIT.max, before: from } : { limit: BANS_LIMIT.max, after: from },
        );
        const read = descending ? page.toReversed() : page;
        for (const ban of read) {
          scanned++;
          if (!matches(ban)) continue;
          if (rows.length === limit)
            return {
              rows: rows.map(toBanRow),
              previous: null,
              next: onwards(rows[rows.length - 1].user.id),
              mode: "name",
              scanned,
            };
          rows.push(ban);
        }
        if (page.length < BANS_LIMIT.max)
          return { rows: rows.map(toBanRow), previous: null, next: null, mode: "name", scanned };
        from = read[read.length - 1].user.id;
        // Stop here; the next page resumes the scan from the last ban read.
        if (scanned >= BAN_NAME_SCAN_MAX)
          return { rows: rows.map(toBanRow), previous: null, next: onwards(from), mode: "name", scanned };
      }
    }

    // One more than a page tells, in the same request, whether there is another page on the far side of the cursor.
    // Without a cursor the list starts at its beginning: id 0 ascending, the end (the newest ids) descending.
    const before = cursor(query.before);
    const after = cursor(query.after);
    const fromBefore = before !== undefined || (after === undefined && descending);
    const page = await api.bans.list(
      guildId,
      fromBefore ? { limit: limit + 1, before: before ?? END } : { limit: limit + 1, after: after ?? "0" },
    );
    const more = page.length > limit;
    // The `limit` bans nearest the cursor, ascending as the API answers.
    const chunk = fromBefore ? page.slice(-limit) : page.slice(0, limit);
    const lowest = chunk[0]?.user.id;
    const highest = chunk.at(-1)?.user.id;
    // Beyond the cursor there is more only if the API had one more; on the cursor's own side, a cursor means the
    // moderator came from there.
    const below: BanCursor | null = lowest && (fromBefore ? more : after !== undefined) ? { before: lowest } : null;
    const above: BanCursor | null = highest && (fromBefore ? before !== undefined : more) ? { after: highest } : null;
    return descending
      ? { rows: chunk.toReversed().map(toBanRow), previous: above, next: below, mode: "list", scanned: page.length }
      : { rows: chunk.map(toBanRow), previous: below, next: above, mode: "list", scanned: page.length };
  });
}

// Ban reads for the Bans page: one page of Get Guild Bans between cursors (before/after, ascending by user id), an
// exact lookup by id (Get Guild Ban), and a name search that scans the ban list, since the API has no ban search.
import type { APIBan } from "discord-api-types/v10";
import { GuildApiError } from "@/lib/api-client";
import { BANS_LIMIT } from "@/lib/discord/limits";
import { isSnowflake } from "@/lib/discord/snowflake";
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
}

export interface BanPage {
  rows: BanRow[];
  /** Cursors for the neighbouring pages, or null where there is none. */
  previousBefore: string | null;
  nextAfter: string | null;
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

export async function getBanPage(viewer: GuildViewer, query: BanPageQuery): Promise<BanPage> {
  return readOrThrow(async () => {
    const api = await managementApi(viewer.session);
    const guildId = viewer.guild.id;
    const limit = query.limit ?? BAN_PAGE_SIZE;
    const q = query.q?.trim();

    if (q && isSnowflake(q)) {
      try {
        return {
          rows: [toBanRow(await api.bans.get(guildId, q))],
          previousBefore: null,
          nextAfter: null,
          mode: "id",
          scanned: 1,
        };
      } catch (error) {
        if (error instanceof GuildApiError && error.status === 404)
          return { rows: [], previousBefore: null, nextAfter: null, mode: "id", scanned: 1 };
        throw error;
      }
    }

    if (q) {
      // Usernames and display names, case-insensitively, read in pages of 1000 from the cursor on.
      const needle = q.toLowerCase();
      const matches = (ban: APIBan) =>
        ban.user.username.toLowerCase().includes(needle) ||
        Boolean(ban.user.global_name?.toLowerCase().includes(needle));
      const rows: APIBan[] = [];
      let after = cursor(query.after) ?? "0";
      let scanned = 0;
      for (;;) {
        const page = await api.bans.list(guildId, { limit: BANS_LIMIT.max, after });
        for (const ban of page) {
          scanned++;
          if (!matches(ban)) continue;
          if (rows.length === limit)
            return {
              rows: rows.map(toBanRow),
              previousBefore: null,
              nextAfter: rows[rows.length - 1].user.id,
              mode: "name",
              scanned,
            };
          rows.push(ban);
        }
        if (page.length < BANS_LIMIT.max)
          return { rows: rows.map(toBanRow), previousBefore: null, nextAfter: null, mode: "name", scanned };
        after = page[page.length - 1].user.id;
        // Stop here; the next page resumes the scan from the last ban read.
        if (scanned >= BAN_NAME_SCAN_MAX)
          return { rows: rows.map(toBanRow), previousBefore: null, nextAfter: after, mode: "name", scanned };
      }
    }

    // One more than a page tells, in the same request, whether there is another page in that direction.
    const before = cursor(query.before);
    if (before) {
      const page = await api.bans.list(guildId, { limit: limit + 1, before });
      const rows = page.slice(-limit);
      return {
        rows: rows.map(toBanRow),
        previousBefore: page.length > limit ? rows[0].user.id : null,
        nextAfter: rows.at(-1)?.user.id ?? null,
        mode: "list",
        scanned: page.length,
      };
    }
    const after = cursor(query.after);
    const page = await api.bans.list(guildId, { limit: limit + 1, after: after ?? "0" });
    const rows = page.slice(0, limit);
    return {
      rows: rows.map(toBanRow),
      previousBefore: after && rows.length ? rows[0].user.id : null,
      nextAfter: page.length > limit ? rows[rows.length - 1].user.id : null,
      mode: "list",
      scanned: page.length,
    };
  });
}

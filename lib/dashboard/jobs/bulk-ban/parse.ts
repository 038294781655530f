// Turning what a moderator pastes or uploads into user ids: any separators, duplicates removed, everything that is
// not a snowflake listed back to them. Pure, so the form shows the same counts the server will store.
import { readCsv } from "@/lib/dashboard/csv";
import { isRealSnowflake } from "@/lib/discord/snowflake";
import { BULK_BAN_MAX } from "@/lib/discord/limits";

/** The most ids one job takes: its preview looks every id up, and the job page lists every result. */
export const BULK_BAN_JOB_MAX_IDS = 5000;
/** The most characters the paste box sends (ids are at most 20 digits, plus separators). */
export const BULK_BAN_INPUT_MAX_CHARS = BULK_BAN_JOB_MAX_IDS * 24;

export interface ParsedIds {
  /** Unique ids, in first-seen order. */
  ids: string[];
  /** Tokens that are not ids of anyone (not a snowflake, or one that encodes no real creation time), unique, in first-seen order. */
  invalid: string[];
  duplicates: number;
}

/**
 * Ids from free text: anything that is not a letter, digit, minus or dot separates tokens. A number such as `12345` is
 * refused: a user id is a snowflake created since Discord's first ids (17 digits or more today).
 */
export function parseUserIds(text: string): ParsedIds {
  const seen = new Set<string>();
  const invalid = new Set<string>();
  let duplicates = 0;
  for (const token of text.split(/[^\p{L}\p{N}.\-_]+/u)) {
    if (!token) continue;
    if (!isRealSnowflake(token)) invalid.add(token);
    else if (seen.has(token)) duplicates++;
    else seen.add(token);
  }
  return { ids: [...seen], invalid: [...invalid], duplicates };
}

const ID_COLUMNS = new Set(["user_id", "userid", "user id", "id", "user.id"]);

/**
 * The ids column of a CSV (a header naming user_id or id, as the ban export writes), or every cell when there is
 * no such header, as text the paste box takes.
 */
export function idsFromCsv(text: string): string {
  const rows = readCsv(text.replace(/^\uFEFF/, ""));
  const column = rows[0]?.findIndex((cell) => ID_COLUMNS.has(cell.trim().toLowerCase())) ?? -1;
  if (column < 0) return rows.map((row) => row.join(" ")).join("\n");
  return rows
    .slice(1)
    .map((row) => row[column] ?? "")
    .join("\n");
}

/** Consecutive slices of at most `size` (Bulk Guild Ban takes 200 ids per call). */
export function chunk<T>(items: readonly T[], size = BULK_BAN_MAX): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

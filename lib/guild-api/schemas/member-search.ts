// Search Guild Members v2 (`POST /guilds/{guild.id}/members-search`): the body as Discord's client sends it, plus
// Guildhall's documented extensions (lib/discord/member-search.ts). Every list is bounded, every id a snowflake, every
// time an ms timestamp; a cursor carries what its sort orders by.
import { z } from "zod";
import {
  MEMBER_SEARCH_V2_LIMIT,
  MEMBER_SEARCH_V2_LIST_MAX,
  MEMBER_SEARCH_V2_QUERY_MAX,
  MemberSearchSort,
} from "@/lib/discord/member-search";
import { bodyBoolean, snowflake, snowflakeCursor, uniqueSnowflakes } from "./common";

const issue = (ctx: z.RefinementCtx, code: string, message: string, path: PropertyKey[]) =>
  ctx.addIssue({ code: "custom", message, params: { code }, path });

/** An ms timestamp (JavaScript's Date range). */
const msTimestamp = z.number().int().min(0).max(8_640_000_000_000_000);

const range = <T extends z.ZodType>(bound: T) =>
  z.object({ range: z.object({ gte: bound.optional(), lte: bound.optional() }) });

const searchText = z.string().min(1).max(MEMBER_SEARCH_V2_QUERY_MAX);

/** `{ or_query: [...] }` or `{ and_query: [...] }` (or `{ range }` where `withRange`), exactly one of them. */
function oneOf<S extends z.ZodRawShape>(shape: S) {
  return z
    .object(shape)
    .partial()
    .superRefine((value, ctx) => {
      const given = Object.keys(shape).filter((key) => (value as Record<string, unknown>)[key] !== undefined);
      if (given.length !== 1)
        issue(ctx, "BASE_TYPE_INVALID", `Exactly one of ${Object.keys(shape).join(", ")} is required.`, []);
    });
}

export const MemberSearchFilterSchema = z.object({
  user_id: oneOf({
    or_query: uniqueSnowflakes(MEMBER_SEARCH_V2_LIST_MAX),
    range: z.object({ gte: snowflakeCursor.optional(), lte: snowflake.optional() }),
  }).optional(),
  usernames: z.object({ or_query: z.array(searchText).min(1).max(MEMBER_SEARCH_V2_LIST_MAX) }).optional(),
  role_ids: oneOf({
    and_query: uniqueSnowflakes(MEMBER_SEARCH_V2_LIST_MAX),
    or_query: uniqueSnowflakes(MEMBER_SEARCH_V2_LIST_MAX),
  }).optional(),
  guild_joined_at: range(msTimestamp).optional(),
  safety_signals: z
    .object({
      communication_disabled_until: range(msTimestamp).optional(),
      unusual_dm_activity_until: range(msTimestamp).optional(),
      unusual_account_activity: bodyBoolean.optional(),
      automod_quarantined_username: bodyBoolean.optional(),
    })
    .optional(),
  is_pending: bodyBoolean.optional(),
  join_source_type: z
    .object({ or_query: z.array(z.number().int().min(0).max(255)).max(MEMBER_SEARCH_V2_LIST_MAX) })
    .optional(),
  source_invite_code: z
    .object({ or_query: z.array(z.string().min(1).max(100)).max(MEMBER_SEARCH_V2_LIST_MAX) })
    .optional(),
  // Guildhall extensions
  query: searchText.optional(),
  is_bot: bodyBoolean.optional(),
  has_no_roles: bodyBoolean.optional(),
  user_created_at: range(msTimestamp).optional(),
});
export type MemberSearchFilter = z.output<typeof MemberSearchFilterSchema>;

const CursorSchema = z.object({
  guild_joined_at: msTimestamp.optional(),
  user_id: snowflakeCursor,
  username: z.string().min(1).max(MEMBER_SEARCH_V2_QUERY_MAX).optional(),
});
export type MemberSearchCursorInput = z.output<typeof CursorSchema>;

const SORTS = Object.values(MemberSearchSort) as number[];
const ORDERED_BY_JOIN: number[] = [MemberSearchSort.MemberSinceNewest, MemberSearchSort.MemberSinceOldest];
const ORDERED_BY_NAME: number[] = [MemberSearchSort.UsernameAsc, MemberSearchSort.UsernameDesc];

export const SearchGuildMembersV2BodySchema = z
  .object({
    limit: z
      .number()
      .int()
      .min(MEMBER_SEARCH_V2_LIMIT.min)
      .max(MEMBER_SEARCH_V2_LIMIT.max)
      .default(MEMBER_SEARCH_V2_LIMIT.default),
    and_query: MemberSearchFilterSchema.optional(),
    or_query: MemberSearchFilterSchema.optional(),
    before: CursorSchema.optional(),
    after: CursorSchema.optional(),
    sort: z
      .number()
      .int()
      .refine((value) => SORTS.includes(value), { message: `Must be one of ${SORTS.join(", ")}.` })
      .default(MemberSearchSort.MemberSinceNewest),
  })
  .superRefine((body, ctx) => {
    if (body.before && body.after)
      issue(ctx, "BASE_TYPE_INVALID", "Send either before or after, not both.", ["before"]);
    const cursorKey = body.before ? "before" : "after";
    const cursor = body.before ?? body.after;
    if (!cursor) return;
    if (ORDERED_BY_JOIN.includes(body.sort) && cursor.guild_joined_at === undefined)
      issue(ctx, "BASE_TYPE_REQUIRED", "This field is required", [cursorKey, "guild_joined_at"]);
    if (ORDERED_BY_NAME.includes(body.sort) && cursor.username === undefined)
      issue(ctx, "BASE_TYPE_REQUIRED", "This field is required", [cursorKey, "username"]);
  });
export type SearchGuildMembersV2Body = z.output<typeof SearchGuildMembersV2BodySchema>;

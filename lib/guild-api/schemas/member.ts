// Member queries and request bodies (list, search, add, modify, modify current member, nick), with the spec's limits.
import { z } from "zod";
import {
  ADD_MEMBER_ROLES_MAX,
  MEMBER_BIO_MAX,
  MEMBER_LIST_LIMIT,
  MEMBER_ROLES_MAX,
  MEMBER_SEARCH_LIMIT,
  MEMBER_SEARCH_QUERY_MAX,
  NICK_MAX,
} from "@/lib/discord/limits";
import { SNOWFLAKE_PATTERN } from "@/lib/discord/snowflake";

const snowflake = z.string().regex(SNOWFLAKE_PATTERN, { message: "Value is not snowflake." });
const nick = z.string().max(NICK_MAX).nullish();

export const ListGuildMembersQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(MEMBER_LIST_LIMIT.min)
    .max(MEMBER_LIST_LIMIT.max)
    .default(MEMBER_LIST_LIMIT.default),
  after: snowflake.default("0"),
});

export const SearchGuildMembersQuerySchema = z.object({
  query: z.string().min(1).max(MEMBER_SEARCH_QUERY_MAX),
  limit: z.coerce
    .number()
    .int()
    .min(MEMBER_SEARCH_LIMIT.min)
    .max(MEMBER_SEARCH_LIMIT.max)
    .default(MEMBER_SEARCH_LIMIT.default),
});

export const AddGuildMemberBodySchema = z.object({
  access_token: z.string().min(1).max(10_240),
  nick,
  roles: z.array(snowflake).max(ADD_MEMBER_ROLES_MAX).nullish(),
  mute: z.boolean().nullish(),
  deaf: z.boolean().nullish(),
});
export type AddGuildMemberBody = z.output<typeof AddGuildMemberBodySchema>;

/** An ISO 8601 timestamp (with its zone); the service checks how far ahead it is. */
const timestamp = z
  .string()
  .refine((value) => /^\d{4}-\d{2}-\d{2}T/.test(value) && Number.isFinite(Date.parse(value)), {
    message: "Could not parse timestamp. Should be ISO8601.",
    params: { code: "DATE_TIME_TYPE_PARSE" },
  });

export const ModifyGuildMemberBodySchema = z.object({
  nick,
  roles: z.array(snowflake).max(MEMBER_ROLES_MAX).nullish(),
  mute: z.boolean().nullish(),
  deaf: z.boolean().nullish(),
  channel_id: snowflake.nullish(),
  communication_disabled_until: timestamp.nullish(),
  flags: z.number().int().min(0).nullish(),
});
export type ModifyGuildMemberBody = z.output<typeof ModifyGuildMemberBodySchema>;

export const ModifyCurrentMemberBodySchema = z.object({
  nick,
  avatar: z.string().nullish(),
  banner: z.string().nullish(),
  bio: z.string().max(MEMBER_BIO_MAX).nullish(),
});
export type ModifyCurrentMemberBody = z.output<typeof ModifyCurrentMemberBodySchema>;

export const ModifyCurrentUserNickBodySchema = z.object({ nick });

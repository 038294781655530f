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
import { bodyBoolean, isoTimestamp, displayName, snowflake, snowflakeCursor } from "./common";

/** A nickname: trimmed, at most 32 characters; "" (or whitespace) and null remove it. */
const nick = displayName(z.string().max(NICK_MAX)).nullish();

export const ListGuildMembersQuerySchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(MEMBER_LIST_LIMIT.min)
    .max(MEMBER_LIST_LIMIT.max)
    .default(MEMBER_LIST_LIMIT.default),
  after: snowflakeCursor.default("0"),
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
  mute: bodyBoolean.nullish(),
  deaf: bodyBoolean.nullish(),
});
export type AddGuildMemberBody = z.output<typeof AddGuildMemberBodySchema>;

export const ModifyGuildMemberBodySchema = z.object({
  nick,
  roles: z.array(snowflake).max(MEMBER_ROLES_MAX).nullish(),
  mute: bodyBoolean.nullish(),
  deaf: bodyBoolean.nullish(),
  channel_id: snowflake.nullish(),
  /** ms since the epoch; the service checks how far ahead it is. */
  communication_disabled_until: isoTimestamp.nullish(),
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

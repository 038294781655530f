// What clients send over the gateway, validated with zod before any handler reads it. Ids come as strings or JSON
// integers (discord.py sends integers: the payload is parsed with the API's big-int-safe JSON parser).
import { z } from "zod";
import { snowflake } from "../schemas/common";
import { LARGE_THRESHOLD, MAX_REQUESTED_USER_IDS } from "./protocol";

/** Every payload: an opcode and its data. */
export const GatewayPayloadSchema = z.object({
  op: z.number().int(),
  d: z.unknown().optional(),
});

const integer = z.union([z.number().int(), z.bigint().transform(Number)]);

export const IdentifySchema = z.object({
  token: z.string().min(1).max(512),
  intents: integer.refine((value) => value >= 0, "intents must not be negative"),
  properties: z.record(z.string(), z.unknown()).optional(),
  compress: z.boolean().optional(),
  large_threshold: integer.pipe(z.number().min(LARGE_THRESHOLD.min).max(LARGE_THRESHOLD.max)).optional(),
  shard: z.tuple([integer, integer]).optional(),
  presence: z.unknown().optional(),
});
export type IdentifyPayload = z.output<typeof IdentifySchema>;

export const ResumeSchema = z.object({
  token: z.string().min(1).max(512),
  session_id: z.string().min(1).max(64),
  seq: integer.nullable(),
});
export type ResumePayload = z.output<typeof ResumeSchema>;

/** Heartbeat's data: the last sequence the client received, or null. */
export const HeartbeatSchema = integer.nullable().optional();

const oneOrMany = <S extends z.ZodType>(item: S) => z.union([z.array(item), item.transform((one) => [one])]);

export const RequestGuildMembersSchema = z
  .object({
    guild_id: snowflake,
    query: z.string().max(100).optional(),
    limit: integer.pipe(z.number().min(0)).optional(),
    presences: z.boolean().optional(),
    user_ids: oneOrMany(snowflake).pipe(z.array(z.string()).max(MAX_REQUESTED_USER_IDS)).optional(),
    nonce: z.string().optional(),
  })
  .refine((d) => d.query !== undefined || d.user_ids !== undefined, "query or user_ids is required");
export type RequestGuildMembersPayload = z.output<typeof RequestGuildMembersSchema>;

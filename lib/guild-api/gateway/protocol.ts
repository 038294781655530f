// The gateway's protocol as data: opcodes, close codes with the reason each is sent for, intents, the privileged
// intents and the application flags that enable them. Who receives each dispatch (its intent and permissions) is the
// policy table's: DISPATCH_POLICIES in lib/discord/policies.ts. Names are discord-api-types'
// (what @discordjs/ws and discord.py speak), so the handlers read as Discord's documentation does.
import { ApplicationFlags, GatewayCloseCodes, GatewayIntentBits, GatewayOpcodes } from "discord-api-types/v10";

export { GatewayCloseCodes as CloseCode, GatewayIntentBits as Intent, GatewayOpcodes as Op };

/** API versions whose gateway Guildhall speaks (v9 and v10 share every payload it sends). */
export const GATEWAY_VERSIONS: readonly number[] = [9, 10];

/** The close codes Guildhall sends, with the reason text the client sees. */
export const CLOSE_REASONS: Readonly<Record<GatewayCloseCodes, string>> = {
  [GatewayCloseCodes.UnknownError]: "Unknown error.",
  [GatewayCloseCodes.UnknownOpcode]: "Unknown opcode.",
  [GatewayCloseCodes.DecodeError]: "Decode error.",
  [GatewayCloseCodes.NotAuthenticated]: "Not authenticated.",
  [GatewayCloseCodes.AuthenticationFailed]: "Authentication failed.",
  [GatewayCloseCodes.AlreadyAuthenticated]: "Already authenticated.",
  [GatewayCloseCodes.InvalidSeq]: "Invalid seq.",
  [GatewayCloseCodes.RateLimited]: "Rate limited.",
  [GatewayCloseCodes.SessionTimedOut]: "Session timed out.",
  [GatewayCloseCodes.InvalidShard]: "Invalid shard.",
  [GatewayCloseCodes.ShardingRequired]: "Sharding required.",
  [GatewayCloseCodes.InvalidAPIVersion]: "Invalid API version.",
  [GatewayCloseCodes.InvalidIntents]: "Invalid intent(s).",
  [GatewayCloseCodes.DisallowedIntents]: "Disallowed intent(s).",
};

/** Every intent bit Discord defines; a bit outside this mask is an invalid intent (4013). */
export const KNOWN_INTENTS: number = Object.values(GatewayIntentBits)
  .filter((value): value is number => typeof value === "number")
  .reduce((bits, bit) => bits | bit, 0);

/** Privileged intents, each enabled by either of two application flags (approved, or the toggle's "limited"). */
export const PRIVILEGED_INTENTS: ReadonlyArray<{ intent: number; name: string; flags: bigint }> = [
  {
    intent: GatewayIntentBits.GuildMembers,
    name: "GUILD_MEMBERS",
    flags: BigInt(ApplicationFlags.GatewayGuildMembers | ApplicationFlags.GatewayGuildMembersLimited),
  },
  {
    intent: GatewayIntentBits.GuildPresences,
    name: "GUILD_PRESENCES",
    flags: BigInt(ApplicationFlags.GatewayPresence | ApplicationFlags.GatewayPresenceLimited),
  },
  {
    intent: GatewayIntentBits.MessageContent,
    name: "MESSAGE_CONTENT",
    flags: BigInt(ApplicationFlags.GatewayMessageContent | ApplicationFlags.GatewayMessageContentLimited),
  },
];

/** The privileged intents asked for that the application has not enabled. */
export function disallowedIntents(intents: number, applicationFlags: bigint): string[] {
  return PRIVILEGED_INTENTS.filter(
    ({ intent, flags }) => (intents & intent) !== 0 && (applicationFlags & flags) === 0n,
  ).map(({ name }) => name);
}

/** Discord's limits on what a client sends: 120 payloads a minute, 4,096 bytes each. */
export const CLIENT_SEND_LIMIT = { payloads: 120, windowMs: 60_000, maxBytes: 4096 } as const;

/** REQUEST_GUILD_MEMBERS answers in chunks of at most this many members; user_ids takes at most 100 ids. */
export const MEMBERS_PER_CHUNK = 1000;
export const MAX_REQUESTED_USER_IDS = 100;

/** GUILD_CREATE lists every member only below large_threshold (50 to 250, 50 by default). */
export const LARGE_THRESHOLD = { min: 50, max: 250, default: 50 } as const;

/** Past this many guilds in one shard, IDENTIFY is refused with 4011 (Discord's 2,500). */
export const MAX_GUILDS_PER_SHARD = 2500;

/** The shard a guild belongs to: (guild_id >> 22) % num_shards. */
export const shardOf = (guildId: bigint, shardCount: number): number => Number((guildId >> 22n) % BigInt(shardCount));

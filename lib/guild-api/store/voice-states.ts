// The voice_states table: who is connected to which voice or stage channel.
import { sql } from "./db";
import { idListJson } from "./users";

export interface VoiceStateRow {
  guild_id: bigint;
  user_id: bigint;
  channel_id: bigint;
  session_id: string;
  self_mute: bigint;
  self_deaf: bigint;
  self_video: bigint;
  self_stream: bigint;
  suppress: bigint;
}

export function findVoiceState(guildId: bigint, userId: bigint): VoiceStateRow | undefined {
  return sql("SELECT * FROM voice_states WHERE guild_id = ? AND user_id = ?").get(guildId, userId) as
    VoiceStateRow | undefined;
}

/** Whether `userId` streams (Go Live) in `channelId`. */
export function isStreamingIn(guildId: bigint, userId: bigint, channelId: bigint): boolean {
  return Boolean(
    sql("SELECT 1 FROM voice_states WHERE guild_id = ? AND user_id = ? AND channel_id = ? AND self_stream = 1").get(
      guildId,
      userId,
      channelId,
    ),
  );
}

export function moveVoiceState(guildId: bigint, userId: bigint, channelId: bigint): void {
  sql("UPDATE voice_states SET channel_id = ? WHERE guild_id = ? AND user_id = ?").run(channelId, guildId, userId);
}

export function deleteVoiceState(guildId: bigint, userId: bigint): void {
  sql("DELETE FROM voice_states WHERE guild_id = ? AND user_id = ?").run(guildId, userId);
}

export function deleteVoiceStates(guildId: bigint, userIds: readonly bigint[]): void {
  sql("DELETE FROM voice_states WHERE guild_id = ? AND user_id IN (SELECT value FROM json_each(?))").run(
    guildId,
    idListJson(userIds),
  );
}

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

/** A voice state as GUILD_CREATE sends it: the member's server mute and deafen ride along from the members row. */
export type VoiceStateWireRow = Omit<VoiceStateRow, "guild_id"> & { deaf: bigint; mute: bigint };

export function voiceStatesOf(guildId: bigint): VoiceStateWireRow[] {
  return sql(
    `SELECT v.user_id, v.channel_id, v.session_id, v.self_mute, v.self_deaf, v.self_video, v.self_stream, v.suppress,
      m.deaf, m.mute FROM voice_states v JOIN members m ON m.guild_id = v.guild_id AND m.user_id = v.user_id
      WHERE v.guild_id = ?`,
  ).all(guildId) as VoiceStateWireRow[];
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

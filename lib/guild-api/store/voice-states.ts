// The voice_states table: who is connected to which voice or stage channel.
import { sql } from "./db";
import { idListJson, idsInJson } from "./users";

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

export async function voiceStatesOf(guildId: bigint): Promise<VoiceStateWireRow[]> {
  return (await sql.all(
    `SELECT v.user_id, v.channel_id, v.session_id, v.self_mute, v.self_deaf, v.self_video, v.self_stream, v.suppress,
      m.deaf, m.mute FROM voice_states v JOIN members m ON m.guild_id = v.guild_id AND m.user_id = v.user_id
      WHERE v.guild_id = ?`,
    guildId,
  )) as VoiceStateWireRow[];
}

export async function findVoiceState(guildId: bigint, userId: bigint): Promise<VoiceStateRow | undefined> {
  return (await sql.get("SELECT * FROM voice_states WHERE guild_id = ? AND user_id = ?", guildId, userId)) as
    VoiceStateRow | undefined;
}

/** Whether `userId` streams (Go Live) in `channelId`. */
export async function isStreamingIn(guildId: bigint, userId: bigint, channelId: bigint): Promise<boolean> {
  return Boolean(
    await sql.get(
      "SELECT 1 FROM voice_states WHERE guild_id = ? AND user_id = ? AND channel_id = ? AND self_stream = TRUE",
      guildId,
      userId,
      channelId,
    ),
  );
}

export async function moveVoiceState(guildId: bigint, userId: bigint, channelId: bigint): Promise<void> {
  await sql.run(
    "UPDATE voice_states SET channel_id = ? WHERE guild_id = ? AND user_id = ?",
    channelId,
    guildId,
    userId,
  );
}

export async function deleteVoiceState(guildId: bigint, userId: bigint): Promise<void> {
  await sql.run("DELETE FROM voice_states WHERE guild_id = ? AND user_id = ?", guildId, userId);
}

export async function deleteVoiceStates(guildId: bigint, userIds: readonly bigint[]): Promise<void> {
  await sql.run(
    `DELETE FROM voice_states WHERE guild_id = ? AND user_id IN (${idsInJson()})`,
    guildId,
    idListJson(userIds),
  );
}

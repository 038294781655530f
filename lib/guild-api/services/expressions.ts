// Emoji, stickers and soundboard sounds: List, Get, Create, Modify and Delete of each. Creating needs Create
// Expressions or Manage Expressions (the policy table); changing or deleting one's own upload needs either, someone
// else's needs Manage Expressions (judged here, where the uploader is known). Files are decoded before anything is
// written (expression-files.ts: nothing that does not decode is stored; a PNG's inflated size is capped first, since the
// handler runs inside the write transaction); slots by premium tier are counted in the same transaction. Each change writes its dispatch (GUILD_EMOJIS_UPDATE, GUILD_STICKERS_UPDATE, GUILD_SOUNDBOARD_SOUND_*) and its
// audit-log entry in the same transaction; files are kept in images under the expression's id, served by cdn.ts.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { isUnicodeEmoji } from "@/lib/discord/emoji";
import { emojiSlots, soundboardSlots, stickerSlots } from "@/lib/discord/limits";
import { newSnowflake } from "@/lib/discord/snowflake";
import { AuditLogEvent, auditByCaller, diffChanges, type AuditChange } from "../audit-log";
import { Errors, FieldErrorCode, invalidFormBody, type FieldIssue } from "../errors";
import { emitEvent } from "../events";
import { decodeEmojiImage, decodeSoundFile, decodeStickerFile, type ExpressionFile } from "../expression-files";
import type { GuildAccess } from "../guards";
import type {
  CreateGuildEmojiBody,
  CreateGuildSoundboardSoundBody,
  CreateGuildStickerBody,
  ModifyGuildEmojiBody,
  ModifyGuildSoundboardSoundBody,
  ModifyGuildStickerBody,
} from "../schemas/expressions";
import { serializeEmojiWithUser, serializeGuildSticker, serializeSoundboardSound } from "../serializers/expressions";
import { serializeEmoji, serializeSticker } from "../serializers/guilds";
import { transaction } from "../store/db";
import {
  countEmojis,
  countSoundboardSounds,
  countStickers,
  deleteEmoji as deleteEmojiRow,
  deleteSoundboardSound as deleteSoundRow,
  deleteSticker as deleteStickerRow,
  findEmoji,
  findGuildEmoji,
  findSoundboardSound,
  findSticker,
  insertEmoji,
  insertSoundboardSound,
  insertSticker,
  listGuildEmojiRows,
  listGuildSoundboardSounds as listSoundRows,
  listGuildStickerRows,
  updateEmoji,
  updateSoundboardSound,
  updateSticker,
  type SoundboardSoundRow,
} from "../store/expressions";
import { deleteImagesOf, insertImage } from "../store/images";
import { listUsersByIds, type UserRow } from "../store/users";

/** The images table's kinds for expression files; cdn.ts serves them by id. */
export const ExpressionKind = { emoji: "emojis", sticker: "stickers", sound: "soundboard-sounds" } as const;

const features = (access: GuildAccess) => JSON.parse(access.guild.features) as string[];
const tier = (access: GuildAccess) => Number(access.guild.premium_tier);

/** Manage Expressions (or owning the guild): every expression of the guild may be changed. */
const managesAll = (access: GuildAccess) => access.isOwner || access.has(P.ManageGuildExpressions);
/** Discord shows who uploaded an expression to those who may create or manage them. */
const seesUploaders = (access: GuildAccess) => managesAll(access) || access.has(P.CreateGuildExpressions);

/** One's own upload with either permission; someone else's only with Manage Expressions. */
function assertMayChange(access: GuildAccess, uploaderId: bigint | null): void {
  if (!managesAll(access) && uploaderId !== access.caller.userId) throw Errors.missingPermissions();
}

/** Who uploaded each row, by id, when the caller may see it (an empty map otherwise). */
async function uploadersOf(
  access: GuildAccess,
  rows: readonly { user_id: bigint | null }[],
): Promise<Map<bigint, UserRow>> {
  if (!seesUploaders(access)) return new Map();
  const ids = [...new Set(rows.flatMap((row) => (row.user_id === null ? [] : [row.user_id])))];
  return new Map((await listUsersByIds(ids)).map((user) => [BigInt(user.id), user]));
}
const uploaderOf = (users: Map<bigint, UserRow>, userId: bigint | null) =>
  userId === null ? undefined : users.get(userId);

async function saveFile(kind: string, ownerId: bigint, file: ExpressionFile): Promise<void> {
  await insertImage(kind, ownerId, file.hash, file.contentType, file.bytes);
}

// ── Emoji ───────────────────────────────────────────────────────────────────────────────────────────────────────

async function emitEmojisUpdate(guildId: bigint): Promise<void> {
  const emojis = (await listGuildEmojiRows(guildId)).map(serializeEmoji);
  await emitEvent(guildId, "GUILD_EMOJIS_UPDATE", { guild_id: String(guildId), emojis });
}

function checkEmojiRoles(access: GuildAccess, roles: readonly string[]): void {
  const issues: FieldIssue[] = [];
  roles.forEach((id, index) => {
    if (!access.role(id))
      issues.push({ path: ["roles", index], code: FieldErrorCode.ROLE_INVALID, message: `Role ${id} is not valid.` });
  });
  if (issues.length > 0) throw invalidFormBody(issues);
}

export async function listGuildEmojis(access: GuildAccess) {
  access.authorize("List Guild Emojis");
  const rows = await listGuildEmojiRows(access.guildId);
  const users = await uploadersOf(access, rows);
  return rows.map((row) => serializeEmojiWithUser(row, uploaderOf(users, row.user_id)));
}

export async function getGuildEmoji(access: GuildAccess, emojiId: bigint) {
  access.authorize("Get Guild Emoji");
  const row = await findEmoji(access.guildId, emojiId);
  if (!row) throw Errors.unknownEmoji();
  const users = await uploadersOf(access, [row]);
  return serializeEmojiWithUser(row, uploaderOf(users, row.user_id));
}

export async function createGuildEmoji(access: GuildAccess, body: CreateGuildEmojiBody, reason: string | null) {
  access.authorize("Create Guild Emoji");
  const roles = body.roles ?? [];
  checkEmojiRoles(access, roles);
  const file = decodeEmojiImage(body.image);
  const userId = access.caller.userId;
  return await transaction(async () => {
    if ((await countEmojis(access.guildId, file.animated)) >= emojiSlots(tier(access), features(access)))
      throw file.animated ? Errors.maxAnimatedEmojis() : Errors.maxEmojis();
    const id = newSnowflake();
    await insertEmoji({
      id,
      guild_id: access.guildId,
      name: body.name,
      roles: JSON.stringify(roles),
      user_id: userId,
      animated: file.animated,
    });
    await saveFile(ExpressionKind.emoji, id, file);
    const row = (await findEmoji(access.guildId, id))!;
    await emitEmojisUpdate(access.guildId);
    await auditByCaller(access, {
      actionType: AuditLogEvent.EmojiCreate,
      targetId: id,
      reason,
      changes: [{ key: "name", new_value: body.name }],
    });
    const users = await uploadersOf(access, [row]);
    return serializeEmojiWithUser(row, uploaderOf(users, row.user_id));
  });
}

export async function modifyGuildEmoji(
  access: GuildAccess,
  emojiId: bigint,
  body: ModifyGuildEmojiBody,
  reason: string | null,
) {
  access.authorize("Modify Guild Emoji");
  return await transaction(async () => {
    const row = await findEmoji(access.guildId, emojiId);
    if (!row) throw Errors.unknownEmoji();
    assertMayChange(access, row.user_id);
    const before = serializeEmoji(row);
    const roles = body.roles === undefined ? before.roles : (body.roles ?? []);
    if (body.roles) checkEmojiRoles(access, body.roles);
    const name = body.name ?? row.name;
    await updateEmoji(access.guildId, emojiId, name, JSON.stringify(roles));
    const after = (await findEmoji(access.guildId, emojiId))!;
    const changes = diffChanges({ name: before.name, roles: before.roles }, { name, roles });
    if (changes.length > 0) {
      await emitEmojisUpdate(access.guildId);
      await auditByCaller(access, { actionType: AuditLogEvent.EmojiUpdate, targetId: emojiId, reason, changes });
    }
    const users = await uploadersOf(access, [after]);
    return serializeEmojiWithUser(after, uploaderOf(users, after.user_id));
  });
}

export async function deleteGuildEmoji(access: GuildAccess, emojiId: bigint, reason: string | null) {
  access.authorize("Delete Guild Emoji");
  await transaction(async () => {
    const row = await findEmoji(access.guildId, emojiId);
    if (!row) throw Errors.unknownEmoji();
    assertMayChange(access, row.user_id);
    await deleteEmojiRow(access.guildId, emojiId);
    await deleteImagesOf(ExpressionKind.emoji, emojiId);
    await emitEmojisUpdate(access.guildId);
    await auditByCaller(access, {
      actionType: AuditLogEvent.EmojiDelete,
      targetId: emojiId,
      reason,
      changes: [{ key: "name", old_value: row.name }],
    });
  });
}

// ── Stickers ────────────────────────────────────────────────────────────────────────────────────────────────────

async function emitStickersUpdate(guildId: bigint): Promise<void> {
  const stickers = (await listGuildStickerRows(guildId)).map(serializeSticker);
  await emitEvent(guildId, "GUILD_STICKERS_UPDATE", { guild_id: String(guildId), stickers });
}

type StickerAudit = { name: string; tags: string; description: string | null; format_type?: number };
const stickerAuditView = (sticker: StickerAudit): Record<string, unknown> => ({
  name: sticker.name,
  tags: sticker.tags,
  description: sticker.description,
  ...(sticker.format_type === undefined ? {} : { format_type: sticker.format_type }),
});

export async function listGuildStickers(access: GuildAccess) {
  access.authorize("List Guild Stickers");
  const rows = await listGuildStickerRows(access.guildId);
  const users = await uploadersOf(access, rows);
  return rows.map((row) => serializeGuildSticker(row, uploaderOf(users, row.user_id)));
}

export async function getGuildSticker(access: GuildAccess, stickerId: bigint) {
  access.authorize("Get Guild Sticker");
  const row = await findSticker(access.guildId, stickerId);
  if (!row) throw Errors.unknownSticker();
  const users = await uploadersOf(access, [row]);
  return serializeGuildSticker(row, uploaderOf(users, row.user_id));
}

/** The uploaded sticker file: its bytes and the media type its multipart part declared. */
export interface StickerUpload {
  bytes: Buffer;
  type: string;
}

export async function createGuildSticker(
  access: GuildAccess,
  body: CreateGuildStickerBody,
  upload: StickerUpload,
  reason: string | null,
) {
  access.authorize("Create Guild Sticker");
  const lottieAllowed = features(access).some((feature) => feature === "VERIFIED" || feature === "PARTNERED");
  const file = decodeStickerFile(upload.bytes, upload.type, lottieAllowed);
  return await transaction(async () => {
    if ((await countStickers(access.guildId)) >= stickerSlots(tier(access), features(access)))
      throw Errors.maxStickers();
    const id = newSnowflake();
    await insertSticker({
      id,
      guild_id: access.guildId,
      name: body.name,
      description: body.description ?? null,
      tags: body.tags,
      format_type: BigInt(file.formatType),
      user_id: access.caller.userId,
    });
    await saveFile(ExpressionKind.sticker, id, file);
    const row = (await findSticker(access.guildId, id))!;
    await emitStickersUpdate(access.guildId);
    await auditByCaller(access, {
      actionType: AuditLogEvent.StickerCreate,
      targetId: id,
      reason,
      changes: diffChanges({}, stickerAuditView({ ...row, format_type: file.formatType })).filter(
        (change) => change.new_value !== null,
      ),
    });
    const users = await uploadersOf(access, [row]);
    return serializeGuildSticker(row, uploaderOf(users, row.user_id));
  });
}

export async function modifyGuildSticker(
  access: GuildAccess,
  stickerId: bigint,
  body: ModifyGuildStickerBody,
  reason: string | null,
) {
  access.authorize("Modify Guild Sticker");
  return await transaction(async () => {
    const row = await findSticker(access.guildId, stickerId);
    if (!row) throw Errors.unknownSticker();
    assertMayChange(access, row.user_id);
    const fields = {
      name: body.name ?? row.name,
      tags: body.tags ?? row.tags,
      description: body.description === undefined ? row.description : body.description,
    };
    await updateSticker(access.guildId, stickerId, fields);
    const after = (await findSticker(access.guildId, stickerId))!;
    const changes = diffChanges(stickerAuditView({ ...row, format_type: undefined }), stickerAuditView(fields));
    if (changes.length > 0) {
      await emitStickersUpdate(access.guildId);
      await auditByCaller(access, { actionType: AuditLogEvent.StickerUpdate, targetId: stickerId, reason, changes });
    }
    const users = await uploadersOf(access, [after]);
    return serializeGuildSticker(after, uploaderOf(users, after.user_id));
  });
}

export async function deleteGuildSticker(access: GuildAccess, stickerId: bigint, reason: string | null) {
  access.authorize("Delete Guild Sticker");
  await transaction(async () => {
    const row = await findSticker(access.guildId, stickerId);
    if (!row) throw Errors.unknownSticker();
    assertMayChange(access, row.user_id);
    await deleteStickerRow(access.guildId, stickerId);
    await deleteImagesOf(ExpressionKind.sticker, stickerId);
    await emitStickersUpdate(access.guildId);
    const view = stickerAuditView({ ...row, format_type: Number(row.format_type) });
    await auditByCaller(access, {
      actionType: AuditLogEvent.StickerDelete,
      targetId: stickerId,
      reason,
      changes: Object.entries(view).map(([key, value]): AuditChange => ({ key, old_value: value })),
    });
  });
}

// ── Soundboard ──────────────────────────────────────────────────────────────────────────────────────────────────

const soundAuditView = (row: SoundboardSoundRow): Record<string, unknown> => ({
  name: row.name,
  volume: Number(row.volume),
  emoji_id: row.emoji_id === null ? null : String(row.emoji_id),
  emoji_name: row.emoji_name,
});

/** The sound's emoji: one of the guild's custom emoji by id, or a standard emoji by name (EMOJI_INVALID otherwise). */
async function soundEmoji(
  access: GuildAccess,
  emojiId: string | null | undefined,
  emojiName: string | null | undefined,
): Promise<{ emoji_id: bigint | null; emoji_name: string | null }> {
  if (emojiId) {
    if (!(await findGuildEmoji(access.guildId, BigInt(emojiId))))
      throw Errors.invalidField(["emoji_id"], FieldErrorCode.EMOJI_INVALID, "Invalid emoji");
    return { emoji_id: BigInt(emojiId), emoji_name: null };
  }
  if (emojiName) {
    if (!isUnicodeEmoji(emojiName))
      throw Errors.invalidField(["emoji_name"], FieldErrorCode.EMOJI_INVALID, "Invalid emoji");
    return { emoji_id: null, emoji_name: emojiName };
  }
  return { emoji_id: null, emoji_name: null };
}

async function serializeSound(access: GuildAccess, row: SoundboardSoundRow) {
  const users = await uploadersOf(access, [row]);
  return serializeSoundboardSound(row, uploaderOf(users, row.user_id));
}

export async function listGuildSoundboardSounds(access: GuildAccess) {
  access.authorize("List Guild Soundboard Sounds");
  const rows = await listSoundRows(access.guildId);
  const users = await uploadersOf(access, rows);
  return { items: rows.map((row) => serializeSoundboardSound(row, uploaderOf(users, row.user_id))) };
}

export async function getGuildSoundboardSound(access: GuildAccess, soundId: bigint) {
  access.authorize("Get Guild Soundboard Sound");
  const row = await findSoundboardSound(access.guildId, soundId);
  if (!row) throw Errors.unknownSound();
  return await serializeSound(access, row);
}

export async function createGuildSoundboardSound(
  access: GuildAccess,
  body: CreateGuildSoundboardSoundBody,
  reason: string | null,
) {
  access.authorize("Create Guild Soundboard Sound");
  const file = decodeSoundFile(body.sound);
  return await transaction(async () => {
    if ((await countSoundboardSounds(access.guildId)) >= soundboardSlots(tier(access), features(access)))
      throw Errors.maxSoundboardSounds();
    const row: SoundboardSoundRow = {
      id: newSnowflake(),
      guild_id: access.guildId,
      name: body.name,
      volume: body.volume ?? 1,
      ...(await soundEmoji(access, body.emoji_id, body.emoji_name)),
      user_id: access.caller.userId,
      available: true,
    };
    await insertSoundboardSound(row);
    await saveFile(ExpressionKind.sound, row.id, file);
    // Every recipient of the dispatch may see the uploader (Discord sends `user` in it).
    const [uploader] = await listUsersByIds(row.user_id === null ? [] : [row.user_id]);
    await emitEvent(access.guildId, "GUILD_SOUNDBOARD_SOUND_CREATE", serializeSoundboardSound(row, uploader));
    await auditByCaller(access, {
      actionType: AuditLogEvent.SoundboardSoundCreate,
      targetId: row.id,
      reason,
      changes: diffChanges({}, soundAuditView(row)).filter((change) => change.new_value !== null),
    });
    return await serializeSound(access, row);
  });
}

export async function modifyGuildSoundboardSound(
  access: GuildAccess,
  soundId: bigint,
  body: ModifyGuildSoundboardSoundBody,
  reason: string | null,
) {
  access.authorize("Modify Guild Soundboard Sound");
  return await transaction(async () => {
    const row = await findSoundboardSound(access.guildId, soundId);
    if (!row) throw Errors.unknownSound();
    assertMayChange(access, row.user_id);
    const emojiSent = body.emoji_id !== undefined || body.emoji_name !== undefined;
    const emoji = emojiSent
      ? await soundEmoji(access, body.emoji_id, body.emoji_name)
      : { emoji_id: row.emoji_id, emoji_name: row.emoji_name };
    const after: SoundboardSoundRow = {
      ...row,
      name: body.name ?? row.name,
      volume: body.volume === undefined ? Number(row.volume) : (body.volume ?? 1),
      ...emoji,
    };
    await updateSoundboardSound(after);
    const changes = diffChanges(soundAuditView(row), soundAuditView(after));
    if (changes.length > 0) {
      const [uploader] = await listUsersByIds(row.user_id === null ? [] : [row.user_id]);
      await emitEvent(access.guildId, "GUILD_SOUNDBOARD_SOUND_UPDATE", serializeSoundboardSound(after, uploader));
      await auditByCaller(access, {
        actionType: AuditLogEvent.SoundboardSoundUpdate,
        targetId: soundId,
        reason,
        changes,
      });
    }
    return await serializeSound(access, after);
  });
}

export async function deleteGuildSoundboardSound(access: GuildAccess, soundId: bigint, reason: string | null) {
  access.authorize("Delete Guild Soundboard Sound");
  await transaction(async () => {
    const row = await findSoundboardSound(access.guildId, soundId);
    if (!row) throw Errors.unknownSound();
    assertMayChange(access, row.user_id);
    await deleteSoundRow(access.guildId, soundId);
    await deleteImagesOf(ExpressionKind.sound, soundId);
    await emitEvent(access.guildId, "GUILD_SOUNDBOARD_SOUND_DELETE", {
      sound_id: String(soundId),
      guild_id: String(access.guildId),
    });
    await auditByCaller(access, {
      actionType: AuditLogEvent.SoundboardSoundDelete,
      targetId: soundId,
      reason,
      changes: Object.entries(soundAuditView(row)).map(([key, value]): AuditChange => ({ key, old_value: value })),
    });
  });
}

// Expression reads for the dashboard: the guild's emoji, stickers and soundboard sounds with who uploaded each (the
// API shows uploaders to those who may create or manage expressions), their files' URLs, and the slots the guild's
// premium tier gives.
import { PermissionFlagsBits as P, type APIUser } from "discord-api-types/v10";
import { emojiSlots, soundboardSlots, stickerSlots } from "@/lib/discord/limits";
import { hasPermission } from "@/lib/discord/permissions";
import { managementApi } from "./api";
import { emojiUrl, soundboardSoundUrl, stickerUrl } from "./cdn";
import { readOrThrow } from "./read";
import type { GuildViewer } from "./viewer";

/** What the pages show of every expression: its uploader's name, and whether the viewer may change or delete it. */
export interface ExpressionItem {
  id: string;
  name: string;
  url: string;
  uploader: string | null;
  /** The viewer's own upload, or the viewer manages every expression (Manage Expressions). */
  editable: boolean;
}
export interface EmojiItem extends ExpressionItem {
  animated: boolean;
}
export interface StickerItem extends ExpressionItem {
  tags: string;
  description: string;
  formatType: number;
}
export interface SoundItem extends ExpressionItem {
  volume: number;
  emoji: string | null;
  /** A custom emoji's image, when the sound's emoji is one. */
  emojiUrl: string | null;
}

const displayName = (user: APIUser | undefined) => (user ? (user.global_name ?? user.username) : null);

function editableBy(viewer: GuildViewer) {
  const managesAll = viewer.isOwner || hasPermission(viewer.permissions, P.ManageGuildExpressions);
  return (user: APIUser | undefined) => managesAll || user?.id === viewer.session.actor.id;
}

const premium = (viewer: GuildViewer) => [viewer.guild.premium_tier, viewer.guild.features as string[]] as const;

/** Whether the viewer manages every expression (or only their own uploads). */
export const managesAllExpressions = (viewer: GuildViewer) =>
  viewer.isOwner || hasPermission(viewer.permissions, P.ManageGuildExpressions);

export async function getGuildEmojis(viewer: GuildViewer) {
  const emojis = await readOrThrow(async () =>
    (await managementApi(viewer.session)).expressions.listEmojis(viewer.guild.id),
  );
  const editable = editableBy(viewer);
  const items: EmojiItem[] = emojis.map((emoji) => ({
    id: emoji.id!,
    name: emoji.name ?? "",
    url: emojiUrl(emoji.id!, emoji.animated),
    animated: Boolean(emoji.animated),
    uploader: displayName(emoji.user),
    editable: editable(emoji.user),
  }));
  return { items, slots: emojiSlots(...premium(viewer)) };
}

export async function getGuildStickers(viewer: GuildViewer) {
  const stickers = await readOrThrow(async () =>
    (await managementApi(viewer.session)).expressions.listStickers(viewer.guild.id),
  );
  const editable = editableBy(viewer);
  const items: StickerItem[] = stickers.map((sticker) => ({
    id: sticker.id,
    name: sticker.name,
    url: stickerUrl(sticker.id, sticker.format_type ?? 1),
    tags: sticker.tags,
    description: sticker.description ?? "",
    formatType: sticker.format_type ?? 1,
    uploader: displayName(sticker.user),
    editable: editable(sticker.user),
  }));
  return { items, slots: stickerSlots(...premium(viewer)) };
}

export async function getGuildSoundboardSounds(viewer: GuildViewer) {
  const { items: sounds } = await readOrThrow(async () =>
    (await managementApi(viewer.session)).expressions.listSoundboardSounds(viewer.guild.id),
  );
  const editable = editableBy(viewer);
  const emojis = new Map((viewer.guild.emojis ?? []).map((emoji) => [emoji.id, emoji]));
  const items: SoundItem[] = sounds.map((sound) => {
    const custom = sound.emoji_id ? emojis.get(sound.emoji_id) : undefined;
    return {
      id: sound.sound_id,
      name: sound.name,
      url: soundboardSoundUrl(sound.sound_id),
      volume: sound.volume,
      emoji: sound.emoji_name ?? (custom ? `:${custom.name}:` : null),
      emojiUrl: custom ? emojiUrl(custom.id!, custom.animated) : null,
      uploader: displayName(sound.user),
      editable: editable(sound.user),
    };
  });
  return { items, slots: soundboardSlots(...premium(viewer)) };
}

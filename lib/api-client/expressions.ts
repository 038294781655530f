// A guild's expressions: List/Get/Create/Modify/Delete Guild Emoji, Guild Sticker and Guild Soundboard Sound.
import type {
  RESTGetAPIGuildEmojiResult,
  RESTGetAPIGuildEmojisResult,
  RESTGetAPIGuildSoundboardSoundResult,
  RESTGetAPIGuildSoundboardSoundsResult,
  RESTGetAPIGuildStickerResult,
  RESTGetAPIGuildStickersResult,
  RESTPatchAPIGuildEmojiJSONBody,
  RESTPatchAPIGuildEmojiResult,
  RESTPatchAPIGuildSoundboardSoundJSONBody,
  RESTPatchAPIGuildSoundboardSoundResult,
  RESTPatchAPIGuildStickerJSONBody,
  RESTPatchAPIGuildStickerResult,
  RESTPostAPIGuildEmojiJSONBody,
  RESTPostAPIGuildEmojiResult,
  RESTPostAPIGuildSoundboardSoundJSONBody,
  RESTPostAPIGuildSoundboardSoundResult,
  RESTPostAPIGuildStickerResult,
} from "discord-api-types/v10";
import type { RestClient, RequestOptions } from "./rest";
import { Routes } from "./routes";

/** Create Guild Sticker's form: its fields, and the file with its media type. */
export interface CreateGuildStickerForm {
  name: string;
  tags: string;
  description?: string | null;
  file: Blob;
  fileName?: string;
}

export class ExpressionsAPI {
  constructor(private readonly rest: RestClient) {}

  /** List Guild Emojis */
  listEmojis(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildEmojisResult>({ method: "GET", path: Routes.guildEmojis(guildId), signal });
  }

  /** Get Guild Emoji */
  getEmoji(guildId: string, emojiId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildEmojiResult>({
      method: "GET",
      path: Routes.guildEmoji(guildId, emojiId),
      signal,
    });
  }

  /** Create Guild Emoji (image: a data URI) */
  createEmoji(guildId: string, body: RESTPostAPIGuildEmojiJSONBody, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<RESTPostAPIGuildEmojiResult>({
      method: "POST",
      path: Routes.guildEmojis(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Modify Guild Emoji */
  editEmoji(
    guildId: string,
    emojiId: string,
    body: RESTPatchAPIGuildEmojiJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPatchAPIGuildEmojiResult>({
      method: "PATCH",
      path: Routes.guildEmoji(guildId, emojiId),
      body,
      reason,
      signal,
    });
  }

  /** Delete Guild Emoji */
  deleteEmoji(guildId: string, emojiId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({ method: "DELETE", path: Routes.guildEmoji(guildId, emojiId), reason, signal });
  }

  /** List Guild Stickers */
  listStickers(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildStickersResult>({
      method: "GET",
      path: Routes.guildStickers(guildId),
      signal,
    });
  }

  /** Get Guild Sticker */
  getSticker(guildId: string, stickerId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildStickerResult>({
      method: "GET",
      path: Routes.guildSticker(guildId, stickerId),
      signal,
    });
  }

  /** Create Guild Sticker (multipart: name, tags, description, file) */
  createSticker(guildId: string, form: CreateGuildStickerForm, { reason, signal }: RequestOptions = {}) {
    const formData = new FormData();
    formData.set("name", form.name);
    formData.set("tags", form.tags);
    if (form.description) formData.set("description", form.description);
    formData.set("file", form.file, form.fileName ?? "sticker");
    return this.rest.request<RESTPostAPIGuildStickerResult>({
      method: "POST",
      path: Routes.guildStickers(guildId),
      formData,
      reason,
      signal,
    });
  }

  /** Modify Guild Sticker */
  editSticker(
    guildId: string,
    stickerId: string,
    body: RESTPatchAPIGuildStickerJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPatchAPIGuildStickerResult>({
      method: "PATCH",
      path: Routes.guildSticker(guildId, stickerId),
      body,
      reason,
      signal,
    });
  }

  /** Delete Guild Sticker */
  deleteSticker(guildId: string, stickerId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({
      method: "DELETE",
      path: Routes.guildSticker(guildId, stickerId),
      reason,
      signal,
    });
  }

  /** List Guild Soundboard Sounds */
  listSoundboardSounds(guildId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildSoundboardSoundsResult>({
      method: "GET",
      path: Routes.guildSoundboardSounds(guildId),
      signal,
    });
  }

  /** Get Guild Soundboard Sound */
  getSoundboardSound(guildId: string, soundId: string, { signal }: RequestOptions = {}) {
    return this.rest.request<RESTGetAPIGuildSoundboardSoundResult>({
      method: "GET",
      path: Routes.guildSoundboardSound(guildId, soundId),
      signal,
    });
  }

  /** Create Guild Soundboard Sound (sound: a data URI) */
  createSoundboardSound(
    guildId: string,
    body: RESTPostAPIGuildSoundboardSoundJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPostAPIGuildSoundboardSoundResult>({
      method: "POST",
      path: Routes.guildSoundboardSounds(guildId),
      body,
      reason,
      signal,
    });
  }

  /** Modify Guild Soundboard Sound */
  editSoundboardSound(
    guildId: string,
    soundId: string,
    body: RESTPatchAPIGuildSoundboardSoundJSONBody,
    { reason, signal }: RequestOptions = {},
  ) {
    return this.rest.request<RESTPatchAPIGuildSoundboardSoundResult>({
      method: "PATCH",
      path: Routes.guildSoundboardSound(guildId, soundId),
      body,
      reason,
      signal,
    });
  }

  /** Delete Guild Soundboard Sound */
  deleteSoundboardSound(guildId: string, soundId: string, { reason, signal }: RequestOptions = {}) {
    return this.rest.request<void>({
      method: "DELETE",
      path: Routes.guildSoundboardSound(guildId, soundId),
      reason,
      signal,
    });
  }
}

// The files behind emoji, stickers and soundboard sounds, decoded before anything is stored: the bytes say the format
// (the declared media type must agree with them), the dimensions, whether the image is animated, for how long, and a
// sound's duration (audio.ts). A PNG is walked chunk by chunk with its CRCs and its image data inflated, so a file
// that only starts like a PNG is refused; an APNG is a PNG with an acTL chunk; a GIF's blocks are walked to its
// trailer. A refusal is an ApiError with Discord's code, ready to answer.
import { crc32, inflateSync } from "node:zlib";
import { RESTJSONErrorCodes as E } from "discord-api-types/v10";
import {
  EMOJI_IMAGE_MAX_BYTES,
  SOUND_MAX_BYTES,
  SOUND_MAX_MS,
  STICKER_ANIMATION_MAX_MS,
  STICKER_DIMENSION,
  STICKER_FILE_MAX_BYTES,
  STICKER_FRAMES_MAX,
} from "@/lib/discord/limits";
import { probeAudio, type AudioInfo } from "./audio";
import { ApiError, Errors, FieldErrorCode } from "./errors";
import { decodeDataUri, imageHash, probeImage } from "./images";

/** Discord's sticker format types. */
export const StickerFormat = { PNG: 1, APNG: 2, LOTTIE: 3, GIF: 4 } as const;
export type StickerFormatType = (typeof StickerFormat)[keyof typeof StickerFormat];

export interface ExpressionFile {
  bytes: Buffer;
  contentType: string;
  /** md5 hex (`a_`-prefixed when animated), the images table's key. */
  hash: string;
  animated: boolean;
}

// ── Image structure ─────────────────────────────────────────────────────────────────────────────────────────────

export interface ImageStructure {
  width: number;
  height: number;
  frames: number;
  /** Sum of the frames' delays, in milliseconds (0 for a still image). */
  durationMs: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// Channels per PNG colour type (0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA).
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/**
 * The most a PNG's pixel rows may hold once inflated (2048 × 2048 RGBA): a few hundred KiB of upload can claim far
 * more (a decompression bomb), and decoding runs inside the write transaction. Discord shows emoji at 128 px and
 * stickers at 320 px; larger images are refused before anything is inflated.
 */
const PNG_INFLATED_MAX = 2048 * (1 + 2048 * 4);

/**
 * A PNG or APNG walked whole: chunks in bounds with correct CRCs, IHDR first, IEND last, the image data inflating to
 * exactly the rows IHDR describes (non-interlaced images), and the APNG frame count and delays. Null otherwise.
 */
export function inspectPng(data: Buffer): ImageStructure | null {
  if (data.length < 8 || !data.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  let offset = 8;
  let width = 0;
  let height = 0;
  let expectedBytes = -1;
  let frames = 1;
  let declaredFrames = 0;
  let durationMs = 0;
  const idat: Buffer[] = [];
  let ended = false;
  while (offset < data.length) {
    if (ended || offset + 12 > data.length) return null;
    const length = data.readUInt32BE(offset);
    const type = data.toString("latin1", offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > data.length) return null;
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (crc32(data.subarray(offset + 4, offset + 8 + length)) !== data.readUInt32BE(offset + 8 + length)) return null;
    if (offset === 8 && type !== "IHDR") return null;
    if (type === "IHDR") {
      if (length !== 13 || offset !== 8) return null;
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const [depth, colourType, , , interlace] = body.subarray(8);
      const channels = PNG_CHANNELS[colourType];
      if (!channels || ![1, 2, 4, 8, 16].includes(depth)) return null;
      // The rows' bytes, filter bytes included (Adam7's seven passes hold a few more: capped, not counted exactly).
      const rowBytes = height * (1 + Math.ceil((width * channels * depth) / 8));
      if (rowBytes > PNG_INFLATED_MAX) return null;
      if (interlace === 0) expectedBytes = rowBytes;
    } else if (type === "acTL") {
      if (length !== 8) return null;
      declaredFrames = body.readUInt32BE(0);
      frames = declaredFrames;
    } else if (type === "fcTL") {
      if (length !== 26) return null;
      const numerator = body.readUInt16BE(20);
      const denominator = body.readUInt16BE(22) || 100; // 0 means hundredths
      durationMs += (numerator / denominator) * 1000;
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") ended = true;
    offset = end;
  }
  if (!ended || idat.length === 0 || width === 0 || height === 0 || frames === 0) return null;
  try {
    const limit = expectedBytes >= 0 ? expectedBytes + 1 : PNG_INFLATED_MAX + PNG_INFLATED_MAX / 8;
    const pixels = inflateSync(Buffer.concat(idat), { maxOutputLength: limit });
    if (expectedBytes >= 0 && pixels.length !== expectedBytes) return null;
  } catch {
    return null;
  }
  return { width, height, frames, durationMs: declaredFrames > 1 ? durationMs : 0 };
}

/** A GIF walked to its trailer: frames counted, Graphic Control delays summed. Null when it does not end well. */
export function inspectGif(data: Buffer): ImageStructure | null {
  const header = data.toString("latin1", 0, 6);
  if (data.length < 14 || (header !== "GIF87a" && header !== "GIF89a")) return null;
  const width = data.readUInt16LE(6);
  const height = data.readUInt16LE(8);
  let i = 13;
  if (data[10] & 0x80) i += 3 * (1 << ((data[10] & 0x07) + 1));
  let frames = 0;
  let durationMs = 0;
  const skipSubBlocks = () => {
    while (i < data.length) {
      const size = data[i++];
      if (size === 0) return true;
      i += size;
    }
    return false;
  };
  while (i < data.length) {
    const block = data[i++];
    if (block === 0x3b) return frames > 0 && width > 0 && height > 0 ? { width, height, frames, durationMs } : null;
    if (block === 0x21) {
      const label = data[i++];
      if (label === 0xf9 && data[i] === 4 && i + 5 < data.length) durationMs += data.readUInt16LE(i + 2) * 10;
      if (!skipSubBlocks()) return null;
    } else if (block === 0x2c) {
      if (i + 9 > data.length) return null;
      const local = data[i + 8];
      i += 9;
      if (local & 0x80) i += 3 * (1 << ((local & 0x07) + 1));
      i++; // LZW minimum code size
      if (!skipSubBlocks()) return null;
      frames++;
    } else return null;
  }
  return null; // no trailer
}

// ── Emoji ───────────────────────────────────────────────────────────────────────────────────────────────────────

const MEDIA_TYPE = /^data:([\w.+-]+\/[\w.+-]+)/i;
const declaredType = (dataUri: string) => MEDIA_TYPE.exec(dataUri)?.[1].toLowerCase() ?? null;

const imageInvalid = (field: string) =>
  Errors.invalidField([field], FieldErrorCode.IMAGE_INVALID, "Invalid image data");
const tooLarge = (field: string, maxBytes: number) =>
  Errors.invalidField(
    [field],
    FieldErrorCode.BINARY_TYPE_MAX_SIZE,
    `File cannot be larger than ${(maxBytes / 1024).toFixed(1)} kb.`,
  );

// The bytes say the format. A data URI must declare an image, but its subtype is not held against the bytes:
// discord.js declares every image it sends as image/jpg (DataResolver's resolveBase64 default), and Discord takes it.
const declaresImage = (declared: string | null) => declared === null || declared.startsWith("image/");

/** An emoji's image from Create Guild Emoji's data URI: PNG, JPEG or GIF of at most 256 KiB, declared an image. */
export function decodeEmojiImage(dataUri: string): ExpressionFile {
  const bytes = decodeDataUri(dataUri);
  if (!bytes) throw imageInvalid("image");
  if (bytes.length > EMOJI_IMAGE_MAX_BYTES) throw tooLarge("image", EMOJI_IMAGE_MAX_BYTES);
  const probed = probeImage(bytes);
  const declared = declaredType(dataUri);
  if (!probed || !declaresImage(declared)) throw imageInvalid("image");
  let animated = false;
  if (probed.format === "png") {
    const png = inspectPng(bytes);
    if (!png) throw imageInvalid("image");
    animated = png.frames > 1;
  } else if (probed.format === "gif") {
    const gif = inspectGif(bytes);
    if (!gif) throw imageInvalid("image");
    animated = gif.frames > 1;
  }
  return { bytes, contentType: probed.contentType, hash: imageHash(bytes, animated), animated };
}

// ── Stickers ────────────────────────────────────────────────────────────────────────────────────────────────────

export interface StickerFile extends ExpressionFile {
  formatType: StickerFormatType;
}

const invalidFile = () => new ApiError(400, E.InvalidFileUploaded, "Invalid file uploaded");
const wrongDimensions = () =>
  Errors.invalidField(
    ["file"],
    FieldErrorCode.IMAGE_DIMENSIONS_INVALID,
    `Sticker must be exactly ${STICKER_DIMENSION}x${STICKER_DIMENSION}.`,
  );

function checkAnimation(structure: ImageStructure): void {
  if (structure.frames > STICKER_FRAMES_MAX)
    throw new ApiError(
      400,
      E.StickerFrameCountExceedsMaximumOf1000Frames,
      "Sticker frame count exceeds maximum of 1000 frames",
    );
  if (structure.durationMs > STICKER_ANIMATION_MAX_MS)
    throw new ApiError(
      400,
      E.StickerAnimationDurationExceedsMaximumOf5Seconds,
      "Sticker animation duration exceeds maximum of 5 seconds",
    );
}

/** A Lottie animation: JSON with its canvas (w, h), frame rate and in/out points, and no embedded raster images. */
function inspectLottie(bytes: Buffer): ImageStructure {
  let doc: unknown;
  try {
    doc = JSON.parse(bytes.toString("utf8"));
  } catch {
    doc = null;
  }
  const lottie = doc as {
    w?: unknown;
    h?: unknown;
    fr?: unknown;
    ip?: unknown;
    op?: unknown;
    layers?: unknown;
    assets?: unknown;
  } | null;
  const numbers = lottie && [lottie.w, lottie.h, lottie.fr, lottie.ip, lottie.op].every((v) => typeof v === "number");
  if (!lottie || typeof lottie !== "object" || !numbers || !Array.isArray(lottie.layers))
    throw new ApiError(400, E.InvalidJSONForUploadedLottieFile, "Invalid JSON for uploaded Lottie file");
  const assets = Array.isArray(lottie.assets) ? (lottie.assets as Array<Record<string, unknown>>) : [];
  if (assets.some((asset) => asset && typeof asset === "object" && typeof asset.p === "string"))
    throw new ApiError(
      400,
      E.UploadedLottiesCannotContainRasterizedImages,
      "Uploaded Lotties cannot contain rasterized images such as PNG or JPEG",
    );
  const [w, h, fr, ip, op] = [lottie.w, lottie.h, lottie.fr, lottie.ip, lottie.op] as number[];
  if (w > STICKER_DIMENSION || h > STICKER_DIMENSION)
    throw new ApiError(400, E.LottieAnimationMaximumDimensionsExceeded, "Lottie animation maximum dimensions exceeded");
  if (!(fr > 0) || fr > 60)
    throw new ApiError(
      400,
      E.StickerFramerateIsTooSmallOrTooLarge,
      "Sticker frame rate is either too small or too large",
    );
  const frames = Math.max(op - ip, 0);
  return { width: w, height: h, frames, durationMs: (frames / fr) * 1000 };
}

/**
 * A sticker's file from the multipart `file` part: PNG, APNG, GIF or Lottie JSON of at most 512 KiB, 320 × 320, its
 * format agreeing with the part's declared type. Lottie only where the guild may upload it (`lottieAllowed`).
 */
export function decodeStickerFile(bytes: Buffer, declared: string, lottieAllowed: boolean): StickerFile {
  if (bytes.length > STICKER_FILE_MAX_BYTES)
    throw new ApiError(400, E.FileUploadedExceedsMaximumSize, "File uploaded exceeds the maximum size");
  const type = declared.split(";")[0].trim().toLowerCase();
  const probed = probeImage(bytes);
  let structure: ImageStructure | null;
  let formatType: StickerFormatType;
  let contentType: string;
  if (probed?.format === "png") {
    if (type !== "image/png" && type !== "image/apng") throw invalidFile();
    structure = inspectPng(bytes);
    formatType = structure && structure.frames > 1 ? StickerFormat.APNG : StickerFormat.PNG;
    // A part declared animated must be animated.
    if (type === "image/apng" && formatType !== StickerFormat.APNG) throw invalidFile();
    contentType = "image/png";
  } else if (probed?.format === "gif") {
    if (type !== "image/gif") throw invalidFile();
    structure = inspectGif(bytes);
    formatType = StickerFormat.GIF;
    contentType = "image/gif";
  } else if (type === "application/json" && bytes[0] === 0x7b /* { */) {
    if (!lottieAllowed) throw invalidFile();
    structure = inspectLottie(bytes);
    formatType = StickerFormat.LOTTIE;
    contentType = "application/json";
  } else throw invalidFile();
  if (!structure) throw invalidFile();
  if (
    formatType !== StickerFormat.LOTTIE &&
    (structure.width !== STICKER_DIMENSION || structure.height !== STICKER_DIMENSION)
  )
    throw wrongDimensions();
  checkAnimation(structure);
  const animated = structure.frames > 1;
  return { bytes, contentType, hash: imageHash(bytes, animated), animated, formatType };
}

// ── Soundboard ──────────────────────────────────────────────────────────────────────────────────────────────────

const AUDIO_TYPES: Record<AudioInfo["format"], readonly string[]> = {
  mp3: ["audio/mpeg", "audio/mp3"],
  ogg: ["audio/ogg", "application/ogg"],
};

export interface SoundFile extends ExpressionFile {
  durationMs: number;
}

/** A sound from Create Guild Soundboard Sound's data URI: MP3 or OGG, at most 512 KiB and 5.2 s, measured. */
export function decodeSoundFile(dataUri: string): SoundFile {
  const invalid = () => Errors.invalidField(["sound"], FieldErrorCode.AUDIO_INVALID, "Invalid audio data");
  const bytes = decodeDataUri(dataUri);
  if (!bytes) throw invalid();
  if (bytes.length > SOUND_MAX_BYTES) throw tooLarge("sound", SOUND_MAX_BYTES);
  const audio = probeAudio(bytes);
  const declared = declaredType(dataUri);
  if (!audio || (declared !== null && !AUDIO_TYPES[audio.format].includes(declared))) throw invalid();
  if (audio.durationMs > SOUND_MAX_MS)
    throw Errors.invalidField(
      ["sound"],
      FieldErrorCode.AUDIO_DURATION_TOO_LONG,
      `Sound must be ${SOUND_MAX_MS / 1000} seconds or shorter.`,
    );
  return {
    bytes,
    contentType: audio.contentType,
    hash: imageHash(bytes, false),
    animated: false,
    durationMs: audio.durationMs,
  };
}

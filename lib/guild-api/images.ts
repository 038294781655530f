// Uploaded images (guild icons, splashes, banners): data URIs decoded, the format recognised by its magic
// bytes (never by the declared media type), dimensions read from the headers (PNG IHDR, JPEG SOF, GIF logical
// screen) and GIF frames counted, so the rules (1024x1024 icons, 16:9 banners, animated needs a feature) are
// checked without an image library. Bytes are stored content-addressed in `images`, served by cdn.ts.
import { createHash } from "node:crypto";
import { insertImage } from "./store/images";

export type ImageFormat = "png" | "jpeg" | "gif";
export type ImageKind =
  "icons" | "splashes" | "discovery-splashes" | "banners" | "role-icons" | "avatars" | "guild-events";

export interface ImageInfo {
  format: ImageFormat;
  contentType: string;
  width: number;
  height: number;
  /** Image frames (1 for PNG and JPEG). */
  frames: number;
  /** A GIF with more than one frame. */
  animated: boolean;
}

export interface DecodedImage extends ImageInfo {
  bytes: Buffer;
  /** md5 hex of the bytes, `a_`-prefixed when animated (Discord's image hash form). */
  hash: string;
}

const CONTENT_TYPES: Record<ImageFormat, string> = { png: "image/png", jpeg: "image/jpeg", gif: "image/gif" };
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const DATA_URI = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[^;,]*)*);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Format, size and frame count from the bytes' headers; null when they are not a PNG, JPEG or GIF we can read. */
export function probeImage(bytes: Uint8Array): ImageInfo | null {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length >= 24 && data.subarray(0, 8).equals(PNG_SIGNATURE)) return probePng(data);
  if (data.length >= 4 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return probeJpeg(data);
  if (data.length >= 13 && (data.toString("latin1", 0, 6) === "GIF87a" || data.toString("latin1", 0, 6) === "GIF89a"))
    return probeGif(data);
  return null;
}

const info = (format: ImageFormat, width: number, height: number, frames = 1): ImageInfo | null =>
  width > 0 && height > 0
    ? { format, contentType: CONTENT_TYPES[format], width, height, frames, animated: frames > 1 }
    : null;

// PNG: the 8-byte signature, then the IHDR chunk (length, "IHDR", width and height as big-endian uint32).
function probePng(data: Buffer): ImageInfo | null {
  if (data.toString("latin1", 12, 16) !== "IHDR") return null;
  return info("png", data.readUInt32BE(16), data.readUInt32BE(20));
}

// JPEG: walk the marker segments after SOI to the first start-of-frame (SOF0-15 but DHT C4, JPG C8, DAC CC),
// whose body is precision(1) height(2) width(2).
function probeJpeg(data: Buffer): ImageInfo | null {
  let i = 2;
  while (i < data.length) {
    if (data[i] !== 0xff) return null;
    while (i < data.length && data[i] === 0xff) i++; // fill bytes
    if (i >= data.length) return null;
    const marker = data[i++];
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) continue; // no length
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
    if (i + 2 > data.length) return null;
    const length = data.readUInt16BE(i);
    if (length < 2) return null;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (i + 7 > data.length) return null;
      return info("jpeg", data.readUInt16BE(i + 5), data.readUInt16BE(i + 3));
    }
    i += length;
  }
  return null;
}

// GIF: logical screen width/height (little-endian) at 6 and 8; then blocks: image descriptors (0x2C, one per
// frame), extensions (0x21) and the trailer (0x3B), with colour tables and data sub-blocks skipped.
function probeGif(data: Buffer): ImageInfo | null {
  const width = data.readUInt16LE(6);
  const height = data.readUInt16LE(8);
  const packed = data[10];
  let i = 13;
  if (packed & 0x80) i += 3 * (1 << ((packed & 0x07) + 1));
  let frames = 0;
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
    if (block === 0x3b) break;
    if (block === 0x21) {
      i++; // extension label
      if (!skipSubBlocks()) break;
    } else if (block === 0x2c) {
      if (i + 9 > data.length) break;
      const local = data[i + 8];
      i += 9;
      if (local & 0x80) i += 3 * (1 << ((local & 0x07) + 1));
      i++; // LZW minimum code size
      if (!skipSubBlocks()) break;
      frames++;
    } else {
      break; // not a block we know: stop counting, keep what the header says
    }
  }
  return frames === 0 ? null : info("gif", width, height, frames);
}

/** The bytes of a `data:<type>;base64,<data>` URI; null when it is not one. */
export function decodeDataUri(value: string): Buffer | null {
  const match = DATA_URI.exec(value);
  if (!match) return null;
  const payload = value.slice(match[0].length).replace(/\s+/g, "");
  if (payload.length === 0 || !BASE64.test(payload)) return null;
  return Buffer.from(payload, "base64");
}

/** md5 hex of the bytes, `a_`-prefixed for animated images, as Discord forms image hashes. */
export function imageHash(bytes: Uint8Array, animated: boolean): string {
  const hex = createHash("md5").update(bytes).digest("hex");
  return animated ? `a_${hex}` : hex;
}

/** A data URI decoded and probed, with its hash; null when it is not a PNG, JPEG or GIF data URI. */
export function decodeImage(dataUri: string): DecodedImage | null {
  const bytes = decodeDataUri(dataUri);
  if (!bytes) return null;
  const probed = probeImage(bytes);
  if (!probed) return null;
  return { ...probed, bytes, hash: imageHash(bytes, probed.animated) };
}

/** True when width:height is ratioW:ratioH, the height within one pixel of the exact value. */
export function hasAspectRatio(width: number, height: number, ratioW: number, ratioH: number): boolean {
  return Math.abs(width * ratioH - height * ratioW) < ratioW;
}

/** Stores the image under its hash (idempotent: same bytes, same row) and returns the hash. */
export async function saveImage(kind: ImageKind, ownerId: bigint, image: DecodedImage): Promise<string> {
  await insertImage(kind, ownerId, image.hash, image.contentType, image.bytes);
  return image.hash;
}

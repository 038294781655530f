// Small, real media files built byte by byte, for the demo world's expressions and the tests: PNG and APNG images of
// one colour (zlib from node), MP3 streams of silent MPEG-1 Layer III frames, and Ogg Vorbis streams whose pages carry
// real CRCs and granule positions. Each decodes in a browser and passes the API's decoders (lib/guild-api/audio.ts,
// expression-files.ts), which is the point: the demo world holds nothing the API would refuse.
import { crc32, deflateSync } from "node:zlib";

function pngChunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])));
  return Buffer.concat([head, body, crc]);
}

/** RGBA rows of one colour, each with its filter byte (0: none). */
function solidRows(width: number, height: number, rgba: number): Buffer {
  const row = Buffer.alloc(1 + width * 4);
  for (let x = 0; x < width; x++) row.writeUInt32BE(rgba >>> 0, 1 + x * 4);
  return Buffer.concat(Array.from({ length: height }, () => row));
}

/**
 * A PNG of one RGBA colour; with `frames` > 1 an APNG whose frames alternate `rgba` and `alternate`, each shown for
 * `delayMs`.
 */
export function solidPng(
  width: number,
  height: number,
  rgba = 0x5865f2ff,
  { frames = 1, delayMs = 100, alternate = 0xeb459eff } = {},
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA
  const chunks = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk("IHDR", ihdr)];
  if (frames <= 1) {
    chunks.push(pngChunk("IDAT", deflateSync(solidRows(width, height, rgba))));
  } else {
    const actl = Buffer.alloc(8);
    actl.writeUInt32BE(frames, 0);
    chunks.push(pngChunk("acTL", actl));
    let sequence = 0;
    for (let frame = 0; frame < frames; frame++) {
      const fctl = Buffer.alloc(26);
      fctl.writeUInt32BE(sequence++, 0);
      fctl.writeUInt32BE(width, 4);
      fctl.writeUInt32BE(height, 8);
      fctl.writeUInt16BE(delayMs, 20);
      fctl.writeUInt16BE(1000, 22);
      chunks.push(pngChunk("fcTL", fctl));
      const pixels = deflateSync(solidRows(width, height, frame % 2 ? alternate : rgba));
      if (frame === 0) chunks.push(pngChunk("IDAT", pixels));
      else {
        const seq = Buffer.alloc(4);
        seq.writeUInt32BE(sequence++);
        chunks.push(pngChunk("fdAT", Buffer.concat([seq, pixels])));
      }
    }
  }
  chunks.push(pngChunk("IEND", Buffer.alloc(0)));
  return Buffer.concat(chunks);
}

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, stereo, no CRC: 417 bytes a frame, 1152 samples (26.1 ms). */
const MP3_HEADER = [0xff, 0xfb, 0x90, 0x00];
export const MP3_FRAME_BYTES = 417;
export const MP3_FRAME_MS = (1152 / 44100) * 1000;

/** An MP3 of `frames` silent frames; `xing` puts a LAME-style Info frame first (claiming `xingFrames` frames). */
export function silentMp3(frames: number, { xing = false, xingFrames = frames, id3 = false } = {}): Buffer {
  const frame = () => {
    const bytes = Buffer.alloc(MP3_FRAME_BYTES);
    Buffer.from(MP3_HEADER).copy(bytes);
    return bytes;
  };
  const parts: Buffer[] = [];
  if (id3) {
    // ID3v2.3 header with a 10-byte (syncsafe) body of padding.
    parts.push(Buffer.from([0x49, 0x44, 0x33, 3, 0, 0, 0, 0, 0, 10]), Buffer.alloc(10));
  }
  if (xing) {
    const info = frame();
    info.write("Info", 4 + 32, "latin1");
    info.writeUInt32BE(0x01, 40); // flags: frame count present
    info.writeUInt32BE(xingFrames, 44);
    parts.push(info);
  }
  for (let i = 0; i < frames; i++) parts.push(frame());
  return Buffer.concat(parts);
}

// Ogg's CRC-32 (polynomial 0x04C11DB7, not reflected).
const OGG_CRC = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** One Ogg page holding `packet` (under 255 × 255 bytes), its CRC filled in. */
export function oggPage(packet: Buffer, granule: bigint, sequence: number, flags: number, serial = 0x47484c4c): Buffer {
  const lacing: number[] = [];
  let left = packet.length;
  while (left >= 255) {
    lacing.push(255);
    left -= 255;
  }
  lacing.push(left);
  const header = Buffer.alloc(27 + lacing.length);
  header.write("OggS", 0, "latin1");
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(serial, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  Buffer.from(lacing).copy(header, 27);
  const page = Buffer.concat([header, packet]);
  let crc = 0;
  for (const byte of page) crc = ((crc << 8) ^ OGG_CRC[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  page.writeUInt32LE(crc, 22);
  return page;
}

/** An Ogg Vorbis stream's pages: the identification header, then one page whose granule says `samples` at 44.1 kHz. */
export function vorbisOgg(samples: number, sampleRate = 44100): Buffer {
  const id = Buffer.alloc(30);
  id[0] = 0x01;
  id.write("vorbis", 1, "latin1");
  id[11] = 1; // channels
  id.writeUInt32LE(sampleRate, 12);
  id[28] = 0xb8; // block sizes 256 and 2048
  id[29] = 1; // framing
  return Buffer.concat([oggPage(id, 0n, 0, 0x02), oggPage(Buffer.alloc(64), BigInt(samples), 1, 0x04)]);
}

/** `bytes` as a base64 data URI of `type`. */
export const dataUri = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString("base64")}`;

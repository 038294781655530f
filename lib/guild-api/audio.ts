// Uploaded sounds (soundboard): the format recognised by its bytes and the duration measured, never taken from the
// upload's word. MP3: every MPEG audio Layer III frame header is walked from the first to the last (an ID3v2 tag
// before them and an ID3v1 tag after them are skipped), so the duration is frames × samples per frame ÷ sample rate;
// a Xing/Info or VBRI header frame is counted out, its own frame count never trusted. OGG: every page is read and
// its CRC checked; the duration is the last granule position of the one logical stream (Vorbis: at its sample rate;
// Opus: at 48 kHz, less the pre-skip). Anything else, or a stream with a byte out of place, is not a sound.

export type AudioFormat = "mp3" | "ogg";

export interface AudioInfo {
  format: AudioFormat;
  contentType: "audio/mpeg" | "audio/ogg";
  /** Measured duration in milliseconds. */
  durationMs: number;
  sampleRate: number;
}

/** Format and measured duration; null when the bytes are not a whole MP3 or OGG (Vorbis or Opus) stream. */
export function probeAudio(bytes: Uint8Array): AudioInfo | null {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length >= 4 && data.toString("latin1", 0, 4) === "OggS") return probeOgg(data);
  return probeMp3(data);
}

// ── MP3 ─────────────────────────────────────────────────────────────────────────────────────────────────────────

// Layer III bitrates in kbit/s by bitrate index: MPEG-1, and MPEG-2/2.5 (index 0 is "free format": refused).
const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
// Sample rates by version bits (0: MPEG-2.5, 2: MPEG-2, 3: MPEG-1) and sample-rate index.
const SAMPLE_RATES: Record<number, readonly number[]> = {
  0: [11025, 12000, 8000],
  2: [22050, 24000, 16000],
  3: [44100, 48000, 32000],
};

export interface Mp3FrameHeader {
  /** Bytes in the frame, header included. */
  length: number;
  samples: number;
  sampleRate: number;
  /** Byte offset of the Xing/Info tag within the frame (after the side information). */
  sideInfoEnd: number;
}

/** The Layer III frame header at `offset`, or null when there is none there. */
export function readMp3FrameHeader(data: Buffer, offset: number): Mp3FrameHeader | null {
  if (offset + 4 > data.length) return null;
  const b1 = data[offset + 1];
  const b2 = data[offset + 2];
  const b3 = data[offset + 3];
  if (data[offset] !== 0xff || (b1 & 0xe0) !== 0xe0) return null; // 11-bit frame sync
  const version = (b1 >> 3) & 0x03;
  const layer = (b1 >> 1) & 0x03;
  if (version === 1 || layer !== 1) return null; // reserved version; only Layer III is MP3
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 0x03;
  if (bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const padding = (b2 >> 1) & 0x01;
  const mono = b3 >> 6 === 3;
  const mpeg1 = version === 3;
  const bitrate = (mpeg1 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex] * 1000;
  const sampleRate = SAMPLE_RATES[version][rateIndex];
  const samples = mpeg1 ? 1152 : 576;
  const length = Math.floor(((samples / 8) * bitrate) / sampleRate) + padding;
  const sideInfo = mpeg1 ? (mono ? 17 : 32) : mono ? 9 : 17;
  return { length, samples, sampleRate, sideInfoEnd: 4 + sideInfo };
}

/** Bytes of an ID3v2 tag at the start (header, syncsafe size, footer), 0 when there is none. */
function id3v2Length(data: Buffer): number {
  if (data.length < 10 || data.toString("latin1", 0, 3) !== "ID3") return 0;
  const size = data.subarray(6, 10);
  if (size.some((byte) => byte & 0x80)) return -1;
  const body = (size[0] << 21) | (size[1] << 14) | (size[2] << 7) | size[3];
  return 10 + body + (data[5] & 0x10 ? 10 : 0);
}

function probeMp3(data: Buffer): AudioInfo | null {
  const start = id3v2Length(data);
  if (start < 0 || start >= data.length) return null;
  // An ID3v1 tag ("TAG" and 125 bytes) may close the file.
  const end =
    data.length >= 128 && data.toString("latin1", data.length - 128, data.length - 125) === "TAG"
      ? data.length - 128
      : data.length;
  let offset = start;
  let frames = 0;
  let samples = 0;
  let sampleRate = 0;
  while (offset < end) {
    const header = readMp3FrameHeader(data, offset);
    if (!header || offset + header.length > end) return null;
    if (sampleRate === 0) sampleRate = header.sampleRate;
    else if (header.sampleRate !== sampleRate) return null;
    const tag = data.toString("latin1", offset + header.sideInfoEnd, offset + header.sideInfoEnd + 4);
    const vbri = data.toString("latin1", offset + 36, offset + 40);
    // The first frame may be a VBR header instead of audio (LAME's Xing/Info, Fraunhofer's VBRI): not counted.
    const vbrHeader = offset === start && (tag === "Xing" || tag === "Info" || vbri === "VBRI");
    if (!vbrHeader) {
      frames++;
      samples += header.samples;
    }
    offset += header.length;
  }
  if (frames === 0) return null;
  return { format: "mp3", contentType: "audio/mpeg", durationMs: (samples / sampleRate) * 1000, sampleRate };
}

// ── OGG ─────────────────────────────────────────────────────────────────────────────────────────────────────────

// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, initial value 0, no final XOR.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let bit = 0; bit < 8; bit++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    table[i] = r >>> 0;
  }
  return table;
})();

/** The CRC of an Ogg page, its checksum field (bytes 22–25) counted as zeros. */
export function oggCrc(page: Uint8Array): number {
  let crc = 0;
  for (let i = 0; i < page.length; i++) {
    const byte = i >= 22 && i < 26 ? 0 : page[i];
    crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]) >>> 0;
  }
  return crc;
}

function probeOgg(data: Buffer): AudioInfo | null {
  let offset = 0;
  let serial: number | null = null;
  let sampleRate = 0;
  let preSkip = 0;
  let lastGranule = -1n;
  let pages = 0;
  while (offset < data.length) {
    if (offset + 27 > data.length || data.toString("latin1", offset, offset + 4) !== "OggS") return null;
    if (data[offset + 4] !== 0) return null; // stream structure version
    const headerType = data[offset + 5];
    const granule = data.readBigInt64LE(offset + 6);
    const pageSerial = data.readUInt32LE(offset + 14);
    const segments = data[offset + 26];
    if (offset + 27 + segments > data.length) return null;
    let bodyLength = 0;
    for (let i = 0; i < segments; i++) bodyLength += data[offset + 27 + i];
    const pageEnd = offset + 27 + segments + bodyLength;
    if (pageEnd > data.length) return null;
    const page = data.subarray(offset, pageEnd);
    if (oggCrc(page) !== data.readUInt32LE(offset + 22)) return null;
    const body = page.subarray(27 + segments);
    if (pages === 0) {
      // The first page opens the stream (BOS) and holds the codec's identification header.
      if (!(headerType & 0x02)) return null;
      serial = pageSerial;
      if (body.length >= 16 && body[0] === 0x01 && body.toString("latin1", 1, 7) === "vorbis") {
        sampleRate = body.readUInt32LE(12);
      } else if (body.length >= 19 && body.toString("latin1", 0, 8) === "OpusHead") {
        sampleRate = 48_000; // Opus granule positions always count 48 kHz samples
        preSkip = body.readUInt16LE(10);
      } else return null;
      if (sampleRate === 0) return null;
    } else if (pageSerial !== serial) return null; // one logical stream only
    if (granule !== -1n) lastGranule = granule;
    pages++;
    offset = pageEnd;
  }
  if (pages < 2 || lastGranule <= 0n) return null;
  const samples = Number(lastGranule) - preSkip;
  if (samples <= 0) return null;
  return { format: "ogg", contentType: "audio/ogg", durationMs: (samples / sampleRate) * 1000, sampleRate };
}

// The decoders behind emoji, stickers and soundboard sounds, on real files built byte by byte (lib/seed/media.ts):
// MP3 frame walking (ID3v2 skipped, a Xing/Info frame counted out, a cut stream refused), Ogg pages (CRCs, granule
// positions, Vorbis and Opus), PNG/APNG chunk walking, GIF blocks, and the refusals with Discord's codes.
import { crc32 } from "node:zlib";
import { describe, expect, test } from "vitest";
import { probeAudio } from "@/lib/guild-api/audio";
import { ApiError } from "@/lib/guild-api/errors";
import {
  decodeEmojiImage,
  decodeSoundFile,
  decodeStickerFile,
  inspectGif,
  inspectPng,
  StickerFormat,
} from "@/lib/guild-api/expression-files";
import { dataUri, MP3_FRAME_MS, oggPage, silentMp3, solidPng, vorbisOgg } from "@/lib/seed/media";
import { gif } from "../fixtures/gif";

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError);
    const e = error as ApiError;
    return { status: e.status, code: e.code, body: JSON.stringify(e.toBody()) };
  }
  throw new Error("expected a refusal");
};

describe("MP3", () => {
  test("duration is frames × 1152 ÷ 44,100, whatever tags surround them", () => {
    expect(probeAudio(silentMp3(100))).toMatchObject({ format: "mp3", contentType: "audio/mpeg", sampleRate: 44100 });
    expect(probeAudio(silentMp3(100))!.durationMs).toBeCloseTo(100 * MP3_FRAME_MS, 6);
    expect(probeAudio(silentMp3(10, { id3: true }))!.durationMs).toBeCloseTo(10 * MP3_FRAME_MS, 6);
    const tagged = Buffer.concat([silentMp3(10), Buffer.from("TAG"), Buffer.alloc(125)]);
    expect(probeAudio(tagged)!.durationMs).toBeCloseTo(10 * MP3_FRAME_MS, 6);
  });

  test("a Xing/Info frame is not audio, and its frame count is not believed", () => {
    const lying = silentMp3(300, { xing: true, xingFrames: 10 });
    expect(probeAudio(lying)!.durationMs).toBeCloseTo(300 * MP3_FRAME_MS, 6);
  });

  test("a cut frame, stray bytes, Layer II or free format: not a sound", () => {
    const mp3 = silentMp3(20);
    expect(probeAudio(mp3.subarray(0, mp3.length - 5))).toBeNull();
    expect(probeAudio(Buffer.concat([mp3, Buffer.from("junk")]))).toBeNull();
    const layer2 = Buffer.from(mp3);
    layer2[1] = 0xfd;
    expect(probeAudio(layer2)).toBeNull();
    const free = Buffer.from(mp3);
    free[2] = 0x00;
    expect(probeAudio(free)).toBeNull();
    expect(probeAudio(Buffer.from("not audio at all"))).toBeNull();
  });
});

describe("Ogg", () => {
  test("Vorbis: the last granule position at the stream's sample rate", () => {
    expect(probeAudio(vorbisOgg(44100 * 2))).toMatchObject({
      format: "ogg",
      contentType: "audio/ogg",
      durationMs: 2000,
    });
    expect(probeAudio(vorbisOgg(48000 * 3, 48000))!.durationMs).toBe(3000);
  });

  test("Opus: 48 kHz granules less the pre-skip", () => {
    const head = Buffer.alloc(19);
    head.write("OpusHead", 0, "latin1");
    head[8] = 1;
    head[9] = 1;
    head.writeUInt16LE(312, 10);
    head.writeUInt32LE(48000, 12);
    const opus = Buffer.concat([oggPage(head, 0n, 0, 0x02), oggPage(Buffer.alloc(20), 48000n + 312n, 1, 0x04)]);
    expect(probeAudio(opus)!.durationMs).toBe(1000);
  });

  test("a wrong CRC, a second stream, a missing BOS or a cut page: not a sound", () => {
    const ogg = vorbisOgg(44100);
    const corrupt = Buffer.from(ogg);
    corrupt[corrupt.length - 1] ^= 0xff;
    expect(probeAudio(corrupt)).toBeNull();
    expect(probeAudio(ogg.subarray(0, ogg.length - 3))).toBeNull();
    const [first] = [vorbisOgg(44100).subarray(0, 58)];
    expect(probeAudio(Buffer.concat([first, oggPage(Buffer.alloc(8), 100n, 1, 0, 0x1234)]))).toBeNull();
    expect(
      probeAudio(Buffer.concat([oggPage(Buffer.alloc(30), 0n, 0, 0), oggPage(Buffer.alloc(8), 100n, 1, 0)])),
    ).toBeNull();
  });
});

/** A PNG's IHDR rewritten (width, height, interlace), its CRC fixed: the rest of the file unchanged. */
function withHeader(png: Buffer, header: { width?: number; height?: number; interlace?: number }): Buffer {
  const out = Buffer.from(png);
  if (header.width !== undefined) out.writeUInt32BE(header.width, 16);
  if (header.height !== undefined) out.writeUInt32BE(header.height, 20);
  if (header.interlace !== undefined) out[28] = header.interlace;
  out.writeUInt32BE(crc32(out.subarray(12, 29)), 29);
  return out;
}

describe("PNG decompression limits", () => {
  test("an IHDR claiming more pixels than the cap is refused before anything is inflated", () => {
    const bomb = withHeader(solidPng(64, 64), { width: 30_000, height: 30_000 });
    const started = performance.now();
    expect(inspectPng(bomb)).toBeNull();
    expect(performance.now() - started).toBeLessThan(50);
    // A real image over the cap: refused too, whole as it is (emoji are shown at 128 px, stickers are 320 px).
    expect(inspectPng(solidPng(2100, 2100))).toBeNull();
    expect(inspectPng(solidPng(2000, 2000))).toMatchObject({ width: 2000, height: 2000 });
  });

  test("an interlaced (Adam7) PNG decodes: a 1 × 1 image's one pass is its whole data", () => {
    expect(inspectPng(withHeader(solidPng(1, 1), { interlace: 1 }))).toMatchObject({ width: 1, height: 1, frames: 1 });
  });
});

describe("PNG, APNG and GIF structure", () => {
  test("a PNG's size; an APNG's frames and delays", () => {
    expect(inspectPng(solidPng(320, 320))).toEqual({ width: 320, height: 320, frames: 1, durationMs: 0 });
    expect(inspectPng(solidPng(64, 32, 0xff0000ff, { frames: 4, delayMs: 250 }))).toEqual({
      width: 64,
      height: 32,
      frames: 4,
      durationMs: 1000,
    });
  });

  test("a PNG that only starts like one is refused: bad CRC, no IEND, too little image data", () => {
    const png = solidPng(16, 16);
    const badCrc = Buffer.from(png);
    badCrc[30] ^= 0x01; // inside IHDR's body
    expect(inspectPng(badCrc)).toBeNull();
    expect(inspectPng(png.subarray(0, png.length - 12))).toBeNull();
    // IHDR says 32 × 32 over 16 × 16 rows of pixels.
    const header = Buffer.from(png.subarray(0, 33));
    header.writeUInt32BE(32, 16);
    header.writeUInt32BE(32, 20);
    header.writeUInt32BE(crc32(header.subarray(12, 29)), 29);
    expect(inspectPng(Buffer.concat([header, png.subarray(33)]))).toBeNull();
  });

  test("a GIF walked to its trailer, delays summed", () => {
    expect(inspectGif(gif(10, 10, 3))).toEqual({ width: 10, height: 10, frames: 3, durationMs: 300 });
    const cut = gif(10, 10, 3);
    expect(inspectGif(cut.subarray(0, cut.length - 1))).toBeNull();
  });
});

describe("emoji, sticker and sound files", () => {
  test("emoji: PNG, JPEG or GIF as declared, at most 256 KiB; animated when the GIF or APNG has frames", () => {
    expect(decodeEmojiImage(dataUri("image/png", solidPng(128, 128)))).toMatchObject({
      animated: false,
      contentType: "image/png",
    });
    const animated = decodeEmojiImage(dataUri("image/gif", gif(32, 32, 2)));
    expect(animated).toMatchObject({ animated: true, contentType: "image/gif" });
    expect(animated.hash).toMatch(/^a_[0-9a-f]{32}$/);
    // discord.js declares every image image/jpg: the bytes decide the format, but it must be declared an image.
    expect(decodeEmojiImage(dataUri("image/jpg", solidPng(128, 128))).contentType).toBe("image/png");
    expect(refusal(() => decodeEmojiImage(dataUri("audio/mpeg", solidPng(128, 128))))).toMatchObject({
      status: 400,
      code: 50035,
    });
    expect(refusal(() => decodeEmojiImage(dataUri("image/png", Buffer.from("not an image")))).body).toContain(
      "IMAGE_INVALID",
    );
    const big = dataUri("image/png", Buffer.concat([solidPng(8, 8), Buffer.alloc(300 * 1024)]));
    expect(refusal(() => decodeEmojiImage(big)).body).toContain("BINARY_TYPE_MAX_SIZE");
  });

  test("stickers: the format from the bytes, agreeing with the declared type; 320 × 320; 5 s of animation", () => {
    expect(decodeStickerFile(solidPng(320, 320), "image/png", false).formatType).toBe(StickerFormat.PNG);
    expect(decodeStickerFile(solidPng(320, 320, 1, { frames: 2 }), "image/png", false).formatType).toBe(
      StickerFormat.APNG,
    );
    expect(decodeStickerFile(gif(320, 320, 2), "image/gif", false).formatType).toBe(StickerFormat.GIF);
    expect(refusal(() => decodeStickerFile(solidPng(320, 320), "image/gif", false))).toMatchObject({ code: 50046 });
    expect(refusal(() => decodeStickerFile(solidPng(320, 320), "image/apng", false))).toMatchObject({ code: 50046 });
    expect(refusal(() => decodeStickerFile(solidPng(300, 320), "image/png", false)).body).toContain(
      "IMAGE_DIMENSIONS_INVALID",
    );
    const long = solidPng(320, 320, 1, { frames: 6, delayMs: 1000 });
    expect(refusal(() => decodeStickerFile(long, "image/png", false))).toMatchObject({ code: 170007 });
    expect(refusal(() => decodeStickerFile(Buffer.alloc(600 * 1024), "image/png", false))).toMatchObject({
      code: 50045,
    });
  });

  test("Lottie stickers: only where allowed, valid JSON, no raster images, within 320 × 320", () => {
    const lottie = (extra: Record<string, unknown> = {}) =>
      Buffer.from(JSON.stringify({ v: "5.7.4", w: 320, h: 320, fr: 30, ip: 0, op: 60, layers: [], ...extra }));
    expect(decodeStickerFile(lottie(), "application/json", true).formatType).toBe(StickerFormat.LOTTIE);
    expect(refusal(() => decodeStickerFile(lottie(), "application/json", false))).toMatchObject({ code: 50046 });
    expect(refusal(() => decodeStickerFile(Buffer.from("{nope"), "application/json", true))).toMatchObject({
      code: 170001,
    });
    expect(
      refusal(() =>
        decodeStickerFile(lottie({ assets: [{ id: "a", p: "data:image/png;base64," }] }), "application/json", true),
      ),
    ).toMatchObject({ code: 170002 });
    expect(refusal(() => decodeStickerFile(lottie({ w: 640 }), "application/json", true))).toMatchObject({
      code: 170005,
    });
    expect(refusal(() => decodeStickerFile(lottie({ op: 300 }), "application/json", true))).toMatchObject({
      code: 170007,
    });
  });

  test("sounds: MP3 or OGG as declared, at most 5.2 s measured and 512 KiB", () => {
    expect(decodeSoundFile(dataUri("audio/mpeg", silentMp3(150)))).toMatchObject({ contentType: "audio/mpeg" });
    expect(decodeSoundFile(dataUri("audio/ogg", vorbisOgg(44100 * 5))).durationMs).toBe(5000);
    expect(refusal(() => decodeSoundFile(dataUri("audio/mpeg", silentMp3(250)))).body).toContain(
      "AUDIO_DURATION_TOO_LONG",
    );
    expect(refusal(() => decodeSoundFile(dataUri("audio/ogg", vorbisOgg(44100 * 6)))).body).toContain(
      "AUDIO_DURATION_TOO_LONG",
    );
    expect(refusal(() => decodeSoundFile(dataUri("audio/ogg", silentMp3(10)))).body).toContain("AUDIO_INVALID");
    expect(refusal(() => decodeSoundFile(dataUri("audio/mpeg", Buffer.alloc(600 * 1024)))).body).toContain(
      "BINARY_TYPE_MAX_SIZE",
    );
  });
});

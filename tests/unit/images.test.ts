// Image probing: format by magic bytes, dimensions from PNG IHDR, JPEG SOF and the GIF logical screen,
// GIF frames counted; data URIs; hashes; the 16:9 check.
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { PNG } from "pngjs";
import { gif } from "../fixtures/gif";
import { decodeDataUri, decodeImage, hasAspectRatio, imageHash, probeImage } from "@/lib/guild-api/images";

const png = (width: number, height: number) => PNG.sync.write(new PNG({ width, height }));

/** A baseline JPEG's headers: SOI, APP0 (JFIF), a DQT-sized filler segment, SOF0 or SOF2 with the size, then EOI. */
function jpeg(width: number, height: number, sof = 0xc0, fill = false): Buffer {
  const app0 = [
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ];
  const dqt = [0xff, 0xdb, 0x00, 0x05, 0x00, 0x01, 0x02];
  const sofSegment = [
    0xff,
    sof,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
    1,
    0x22,
    0,
    2,
    0x11,
    1,
    3,
    0x11,
    1,
  ];
  return Buffer.from([0xff, 0xd8, ...app0, ...(fill ? [0xff] : []), ...dqt, ...sofSegment, 0xff, 0xd9]);
}

describe("probeImage", () => {
  test("PNG: size from IHDR", () => {
    expect(probeImage(png(1024, 576))).toEqual({
      format: "png",
      contentType: "image/png",
      width: 1024,
      height: 576,
      frames: 1,
      animated: false,
    });
    expect(probeImage(png(1, 2))).toMatchObject({ width: 1, height: 2 });
  });

  test("JPEG: size from the first SOF, after other segments and fill bytes", () => {
    expect(probeImage(jpeg(1920, 1080))).toEqual({
      format: "jpeg",
      contentType: "image/jpeg",
      width: 1920,
      height: 1080,
      frames: 1,
      animated: false,
    });
    expect(probeImage(jpeg(300, 200, 0xc2, true))).toMatchObject({ format: "jpeg", width: 300, height: 200 });
  });

  test("JPEG: DHT (C4) is not a frame header; scan data before a frame is not an image", () => {
    const dht = Buffer.from([0xff, 0xd8, 0xff, 0xc4, 0x00, 0x04, 0x00, 0x00, ...jpeg(64, 32).subarray(2)]);
    expect(probeImage(dht)).toMatchObject({ width: 64, height: 32 });
    expect(probeImage(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02, 0xff, 0xd9]))).toBeNull();
  });

  test("GIF: logical screen size and frame count", () => {
    expect(probeImage(gif(32, 18, 1))).toEqual({
      format: "gif",
      contentType: "image/gif",
      width: 32,
      height: 18,
      frames: 1,
      animated: false,
    });
    expect(probeImage(gif(32, 18, 3))).toMatchObject({ frames: 3, animated: true });
    expect(probeImage(gif(20, 20, 2, { globalTable: false, localTable: true }))).toMatchObject({
      width: 20,
      height: 20,
      frames: 2,
      animated: true,
    });
  });

  test("GIF87a headers are read too; a GIF with no frame is not an image", () => {
    const old = gif(8, 8, 1);
    old.write("GIF87a", 0, "latin1");
    expect(probeImage(old)).toMatchObject({ width: 8, height: 8, frames: 1 });
    expect(probeImage(Buffer.from([...Buffer.from("GIF89a"), 8, 0, 8, 0, 0, 0, 0, 0x3b]))).toBeNull();
  });

  test("the declared type does not matter, the magic bytes do; other formats and truncated data are refused", () => {
    expect(probeImage(Buffer.from("RIFF\x00\x00\x00\x00WEBPVP8 ", "latin1"))).toBeNull();
    expect(probeImage(Buffer.from("hello world, not an image"))).toBeNull();
    expect(probeImage(png(10, 10).subarray(0, 12))).toBeNull();
    expect(probeImage(jpeg(10, 10).subarray(0, 30))).toBeNull();
    expect(probeImage(new Uint8Array())).toBeNull();
  });

  test("zero-sized images are refused", () => {
    const zero = png(4, 4);
    zero.writeUInt32BE(0, 16);
    expect(probeImage(zero)).toBeNull();
  });
});

describe("data URIs and hashes", () => {
  test("decodes base64 data URIs, with or without parameters", () => {
    const bytes = png(3, 3);
    expect(decodeDataUri(`data:image/png;base64,${bytes.toString("base64")}`)?.equals(bytes)).toBe(true);
    expect(decodeDataUri(`data:image/png;name=x.png;base64,${bytes.toString("base64")}`)?.equals(bytes)).toBe(true);
  });

  test("refuses what is not a base64 data URI", () => {
    expect(decodeDataUri("https://example.com/icon.png")).toBeNull();
    expect(decodeDataUri("data:image/png,rawtext")).toBeNull();
    expect(decodeDataUri("data:image/png;base64,")).toBeNull();
    expect(decodeDataUri("data:image/png;base64,@@@@")).toBeNull();
  });

  test("decodeImage: md5 hex hash, a_ prefix for animated GIFs", () => {
    const still = png(16, 9);
    const decoded = decodeImage(`data:image/png;base64,${still.toString("base64")}`);
    expect(decoded?.hash).toBe(createHash("md5").update(still).digest("hex"));
    expect(decoded?.hash).toMatch(/^[0-9a-f]{32}$/);
    const animated = gif(16, 9, 2);
    expect(decodeImage(`data:image/gif;base64,${animated.toString("base64")}`)?.hash).toBe(
      `a_${createHash("md5").update(animated).digest("hex")}`,
    );
    expect(imageHash(still, false)).toBe(decoded?.hash);
    expect(decodeImage(`data:image/png;base64,${Buffer.from("not an image").toString("base64")}`)).toBeNull();
  });
});

describe("hasAspectRatio (16:9)", () => {
  test.each([
    [1920, 1080, true],
    [960, 540, true],
    [100, 56, true], // 56.25 rounds
    [100, 57, true], // within a pixel
    [100, 55, false],
    [1024, 768, false], // 4:3
    [1080, 1920, false],
    [16, 9, true],
  ])("%i x %i → %s", (width, height, expected) => {
    expect(hasAspectRatio(width, height, 16, 9)).toBe(expected);
  });
});

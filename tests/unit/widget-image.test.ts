// Guild widget images: every style is a real PNG of Discord's size; the count, the name and the icon reach
// the pixels; odd names and counts never throw; icons decode (or fail softly) for the widget.
import { describe, expect, test } from "vitest";
import { PNG } from "pngjs";
import {
  acronym,
  decodeIconForWidget,
  renderWidgetImage,
  WIDGET_IMAGE_SIZES,
  WIDGET_IMAGE_STYLES,
  type WidgetImageStyle,
} from "@/lib/guild-api/widget-image";
import {
  FALLBACK_GLYPH,
  GLYPHS,
  GLYPH_ROWS,
  fitGlyphs,
  measureGlyphs,
  toGlyphs,
} from "@/lib/guild-api/widget-image/font";

const BANNERS = WIDGET_IMAGE_STYLES.filter((style) => style !== "shield");
const ICON_COLOUR = [16, 192, 160, 255] as const;

function solidIcon(size: number, colour: readonly number[] = ICON_COLOUR) {
  const rgba = new Uint8Array(size * size * 4);
  for (let i = 0; i < rgba.length; i += 4) rgba.set(colour, i);
  return { width: size, height: size, rgba };
}

function render(style: WidgetImageStyle, overrides: Partial<Parameters<typeof renderWidgetImage>[0]> = {}) {
  return renderWidgetImage({ style, guildName: "Guildhall HQ", onlineCount: 42, ...overrides });
}

/** Pixels exactly equal to `colour`, and how many of them lie in the left quarter of the image. */
function countColour(png: PNG, colour: readonly number[]) {
  let total = 0;
  let left = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      const i = (y * png.width + x) * 4;
      if (
        png.data[i] === colour[0] &&
        png.data[i + 1] === colour[1] &&
        png.data[i + 2] === colour[2] &&
        png.data[i + 3] === colour[3]
      ) {
        total++;
        if (x < png.width / 4) left++;
      }
    }
  }
  return { total, left };
}

function pngOf(width: number, height: number, paint: (x: number, y: number) => readonly number[]): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) png.data.set(paint(x, y), (y * width + x) * 4);
  return PNG.sync.write(png);
}

describe("renderWidgetImage", () => {
  test("uses Discord's widget image sizes", () => {
    expect(WIDGET_IMAGE_STYLES).toEqual(["shield", "banner1", "banner2", "banner3", "banner4"]);
    expect(WIDGET_IMAGE_SIZES).toEqual({
      shield: { width: 146, height: 20 },
      banner1: { width: 320, height: 76 },
      banner2: { width: 320, height: 82 },
      banner3: { width: 320, height: 100 },
      banner4: { width: 320, height: 160 },
    });
  });

  test.each(WIDGET_IMAGE_STYLES)("%s is a PNG of its style's exact size", (style) => {
    const bytes = render(style);
    expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    const png = PNG.sync.read(bytes);
    expect({ width: png.width, height: png.height }).toEqual(WIDGET_IMAGE_SIZES[style]);
    // Drawn, not blank: white text and an opaque centre.
    expect(countColour(png, [255, 255, 255, 255]).total).toBeGreaterThan(20);
    const centre = (Math.floor(png.height / 2) * png.width + Math.floor(png.width / 2)) * 4;
    expect(png.data[centre + 3]).toBe(255);
  });

  test.each(WIDGET_IMAGE_STYLES)("%s shows the online count", (style) => {
    const a = render(style, { onlineCount: 42 });
    const b = render(style, { onlineCount: 1337 });
    expect(a.equals(b)).toBe(false);
    // Same input, same bytes: the renderer has no hidden state.
    expect(render(style, { onlineCount: 42 }).equals(a)).toBe(true);
  });

  test.each(BANNERS)("%s shows the guild name", (style) => {
    expect(render(style, { guildName: "Alpha" }).equals(render(style, { guildName: "Omega" }))).toBe(false);
  });

  test.each(BANNERS)("%s draws the icon at the left", (style) => {
    const withIcon = PNG.sync.read(render(style, { icon: solidIcon(48) }));
    const counted = countColour(withIcon, ICON_COLOUR);
    // A 40px-or-larger circle of the icon's colour, all of it on the left.
    expect(counted.total).toBeGreaterThan(30 * 30);
    expect(counted.left).toBe(counted.total);
    // Without the icon that colour appears nowhere (the placeholder is drawn instead).
    expect(countColour(PNG.sync.read(render(style)), ICON_COLOUR).total).toBe(0);
  });

  test("an icon of another size is rescaled, and a malformed one is ignored", () => {
    const big = countColour(PNG.sync.read(render("banner1", { icon: solidIcon(128) })), ICON_COLOUR);
    const native = countColour(PNG.sync.read(render("banner1", { icon: solidIcon(48) })), ICON_COLOUR);
    expect(big.total).toBe(native.total);
    const broken = { width: 48, height: 48, rgba: new Uint8Array(10) };
    expect(render("banner1", { icon: broken }).equals(render("banner1"))).toBe(true);
  });

  test.each(WIDGET_IMAGE_STYLES)("%s survives a 200-character name and an emoji-only name", (style) => {
    const long = "x".repeat(200);
    expect(() => render(style, { guildName: long })).not.toThrow();
    // Cut with "...": what lies past the visible part cannot change the image.
    expect(
      render(style, { guildName: long }).equals(render(style, { guildName: `${"x".repeat(150)}${"y".repeat(50)}` })),
    ).toBe(true);
    const emoji = PNG.sync.read(render(style, { guildName: "🎮🔥👨‍👩‍👧" }));
    expect({ width: emoji.width, height: emoji.height }).toEqual(WIDGET_IMAGE_SIZES[style]);
    expect(() => render(style, { guildName: "" })).not.toThrow();
    expect(() => render(style, { guildName: "\u0000\n\t   " })).not.toThrow();
  });

  test("non-ASCII names draw fallback glyphs rather than nothing", () => {
    expect(render("banner1", { guildName: "🎮🔥" }).equals(render("banner1", { guildName: "" }))).toBe(false);
  });

  test("odd counts are clamped to a whole number of at least zero, and big ones fit", () => {
    const zero = render("shield", { onlineCount: 0 });
    expect(render("shield", { onlineCount: -5 }).equals(zero)).toBe(true);
    expect(render("shield", { onlineCount: Number.NaN }).equals(zero)).toBe(true);
    expect(render("shield", { onlineCount: 0.7 }).equals(zero)).toBe(true);
    for (const style of WIDGET_IMAGE_STYLES)
      expect(() => render(style, { onlineCount: Number.MAX_SAFE_INTEGER })).not.toThrow();
  });

  test("renders fast enough to serve without a cache (printed, not asserted)", () => {
    const icon = solidIcon(48);
    for (const style of WIDGET_IMAGE_STYLES) {
      render(style, { icon }); // warm the logo-mask cache and the JIT
      const runs = 50;
      const start = performance.now();
      for (let i = 0; i < runs; i++) render(style, { icon, onlineCount: i });
      console.log(`widget ${style}: ${((performance.now() - start) / runs).toFixed(3)} ms per render`);
    }
  });
});

describe("decodeIconForWidget", () => {
  test("decodes a PNG and box-filters it to 48x48", () => {
    const icon = decodeIconForWidget(pngOf(96, 96, (x) => (x < 48 ? [255, 0, 0, 255] : [0, 0, 255, 255])));
    expect(icon).not.toBeNull();
    expect(icon!.width).toBe(48);
    expect(icon!.height).toBe(48);
    expect(icon!.rgba.length).toBe(48 * 48 * 4);
    expect([...icon!.rgba.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
    expect([...icon!.rgba.subarray(47 * 4, 48 * 4)]).toEqual([0, 0, 255, 255]);
  });

  test("centre-crops a non-square image and honours a requested size", () => {
    // 120x40: red margins, green middle 40 columns.
    const icon = decodeIconForWidget(
      pngOf(120, 40, (x) => (x >= 40 && x < 80 ? [0, 255, 0, 255] : [255, 0, 0, 255])),
      20,
    );
    expect(icon?.width).toBe(20);
    for (let i = 0; i < icon!.rgba.length; i += 4) expect([...icon!.rgba.subarray(i, i + 4)]).toEqual([0, 255, 0, 255]);
  });

  test("averages by alpha so transparent pixels do not darken the edges", () => {
    // Alternating opaque white and fully transparent black: the average is white at half alpha.
    const icon = decodeIconForWidget(pngOf(96, 96, (x) => (x % 2 === 0 ? [255, 255, 255, 255] : [0, 0, 0, 0])));
    expect([...icon!.rgba.subarray(0, 4)]).toEqual([255, 255, 255, 128]);
  });

  test("returns null, never throws, on what it cannot decode", () => {
    const valid = pngOf(8, 8, () => [1, 2, 3, 255]);
    expect(decodeIconForWidget(Buffer.alloc(0))).toBeNull();
    expect(decodeIconForWidget(Buffer.from("not a png at all, just some text"))).toBeNull();
    expect(decodeIconForWidget(valid.subarray(0, valid.length - 20))).toBeNull();
    const huge = Buffer.from(valid);
    huge.writeUInt32BE(100_000, 16); // declares 100000 px wide
    expect(decodeIconForWidget(huge)).toBeNull();
    const corrupt = Buffer.from(valid);
    corrupt.fill(0x55, 40, 60);
    expect(() => decodeIconForWidget(corrupt)).not.toThrow();
    expect(decodeIconForWidget(valid)).not.toBeNull();
  });
});

describe("widget text", () => {
  test("every printable ASCII character has a glyph distinct from the fallback", () => {
    const fallback = [...GLYPHS.subarray(FALLBACK_GLYPH * GLYPH_ROWS, (FALLBACK_GLYPH + 1) * GLYPH_ROWS)].join();
    for (let code = 33; code <= 126; code++) {
      const rows = [...GLYPHS.subarray((code - 32) * GLYPH_ROWS, (code - 31) * GLYPH_ROWS)];
      expect(
        rows.some((row) => row !== 0),
        String.fromCharCode(code),
      ).toBe(true);
      expect(rows.join(), String.fromCharCode(code)).not.toBe(fallback);
    }
  });

  test("accents fold to their base letter, emoji become one fallback glyph each, whitespace collapses", () => {
    expect(toGlyphs("Café")).toEqual(toGlyphs("Cafe"));
    expect(toGlyphs("🎮👨‍👩‍👧")).toEqual([FALLBACK_GLYPH, FALLBACK_GLYPH]);
    expect(toGlyphs("a \t\n  b  ")).toEqual(toGlyphs("a b"));
  });

  test("long text is cut to the width with an ellipsis", () => {
    const style = { scale: 2, bold: true };
    const fitted = fitGlyphs(toGlyphs("The Very Long Name of a Server"), 120, style);
    expect(measureGlyphs(fitted, style)).toBeLessThanOrEqual(120);
    expect(fitted.slice(-3)).toEqual(toGlyphs("..."));
    expect(fitGlyphs(toGlyphs("Short"), 120, style)).toEqual(toGlyphs("Short"));
  });

  test("acronyms follow Discord's rule", () => {
    expect(acronym("Guildhall HQ")).toBe("GH");
    expect(acronym("Bob's Lab")).toBe("BL");
    expect(acronym("the-cool server")).toBe("t-cs");
  });
});

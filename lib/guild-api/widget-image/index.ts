// Guild widget images (GET /guilds/{guild.id}/widget.png?style=...): a pure renderer from a guild's name,
// icon and online count to a PNG in the layout of each of Discord's widget styles. No I/O, no native canvas,
// no font files: a small raster (raster.ts), an embedded bitmap font (font.ts) and a drawn logo mark (logo.ts).
import { PNG } from "pngjs";
import { fitGlyphs, measureGlyphs, toGlyphs, CAP_HEIGHT, FALLBACK_GLYPH, type TextStyle } from "./font";
import { logoMask, LOGO_ASPECT } from "./logo";
import { hex, Raster, resampleRgba, type Rgba } from "./raster";

export type WidgetImageStyle = "shield" | "banner1" | "banner2" | "banner3" | "banner4";

export const WIDGET_IMAGE_STYLES: readonly WidgetImageStyle[] = ["shield", "banner1", "banner2", "banner3", "banner4"];

/** Discord's widget image sizes, so pages that embed them with fixed width/height attributes keep their layout. */
export const WIDGET_IMAGE_SIZES: Record<WidgetImageStyle, { width: number; height: number }> = {
  shield: { width: 146, height: 20 },
  banner1: { width: 320, height: 76 },
  banner2: { width: 320, height: 82 },
  banner3: { width: 320, height: 100 },
  banner4: { width: 320, height: 160 },
};

export interface WidgetIcon {
  width: number;
  height: number;
  /** width * height * 4 bytes, non-premultiplied RGBA. */
  rgba: Uint8Array;
}

export interface WidgetImageInput {
  style: WidgetImageStyle;
  guildName: string;
  onlineCount: number;
  icon?: WidgetIcon | null;
}

/** Icons are decoded to this size by default: the largest any layout draws, so no layout scales up. */
export const WIDGET_ICON_SIZE = 48;
/** Larger PNGs are refused before decoding: an icon is at most 1024x1024, and decoding costs width*height*4 bytes. */
const MAX_DECODE_DIMENSION = 4096;

const WHITE = hex("#ffffff");
const BLURPLE = hex("#5865f2");
const BLURPLE_TINT = hex("#dee0fc");
const DARK = hex("#2b2d31");
const MUTED = hex("#b5bac1");
const ONLINE_GREEN = hex("#23a55a");
const BUTTON_GREEN = hex("#248046");

const SMALL: TextStyle = { scale: 1 };
const SMALL_BOLD: TextStyle = { scale: 1, bold: true };
const LARGE_BOLD: TextStyle = { scale: 2, bold: true };
const HUGE_BOLD: TextStyle = { scale: 3, bold: true };

/** Renders one widget image as a PNG. Never throws on odd names or counts: they are clamped and truncated. */
export function renderWidgetImage(input: WidgetImageInput): Buffer {
  const { width, height } = WIDGET_IMAGE_SIZES[input.style];
  const png = new PNG({ width, height });
  const raster = new Raster(width, height, png.data);
  const view: WidgetView = {
    name: toGlyphs(input.guildName),
    guildName: input.guildName,
    online: formatCount(input.onlineCount),
    icon: input.icon && isUsableIcon(input.icon) ? input.icon : null,
  };
  LAYOUTS[input.style](raster, view);
  // Flat colours and text compress as well with the cheap Sub filter as with the adaptive choice, at a
  // fraction of the cost; level 6 is zlib's default balance.
  return PNG.sync.write(png, { colorType: 6, filterType: 1, deflateLevel: 6 });
}

/**
 * Decodes a PNG icon for the widget: centre-cropped to a square and box-filtered to size x size.
 * Returns null for anything it cannot decode (not a PNG, truncated, absurdly large); never throws.
 */
export function decodeIconForWidget(png: Buffer, size = WIDGET_ICON_SIZE): WidgetIcon | null {
  try {
    if (png.length < 33 || png.readUInt32BE(0) !== 0x89504e47 || png.toString("latin1", 12, 16) !== "IHDR") return null;
    const declaredWidth = png.readUInt32BE(16);
    const declaredHeight = png.readUInt32BE(20);
    if (declaredWidth === 0 || declaredHeight === 0) return null;
    if (declaredWidth > MAX_DECODE_DIMENSION || declaredHeight > MAX_DECODE_DIMENSION) return null;
    const decoded = PNG.sync.read(png);
    const side = Math.min(decoded.width, decoded.height);
    const left = Math.floor((decoded.width - side) / 2);
    const top = Math.floor((decoded.height - side) / 2);
    let square: Uint8Array = decoded.data;
    if (decoded.width !== decoded.height) {
      square = new Uint8Array(side * side * 4);
      for (let row = 0; row < side; row++) {
        const from = ((top + row) * decoded.width + left) * 4;
        square.set(decoded.data.subarray(from, from + side * 4), row * side * 4);
      }
    }
    const rgba = side === size ? Uint8Array.from(square) : resampleRgba(square, side, side, size, size);
    return { width: size, height: size, rgba };
  } catch {
    return null;
  }
}

interface WidgetView {
  name: number[];
  guildName: string;
  online: string;
  icon: WidgetIcon | null;
}

type Layout = (raster: Raster, view: WidgetView) => void;

const LAYOUTS: Record<WidgetImageStyle, Layout> = {
  // A shields.io-style badge: the logo mark on blurple, "N online" centred on dark grey.
  shield(raster, view) {
    const { width, height } = raster;
    const logoW = 14;
    const logoH = Math.round(logoW / LOGO_ASPECT);
    const leftWidth = 6 + logoW + 6;
    raster.fillRoundRect(0, 0, width, height, 3, DARK);
    raster.fillRoundRect(0, 0, leftWidth + 3, height, 3, BLURPLE);
    raster.fillRect(leftWidth, 0, 3, height, DARK);
    drawLogo(raster, 6, Math.round((height - logoH) / 2), logoW, WHITE);
    const rightWidth = width - leftWidth;
    const count = fitGlyphs(toGlyphs(`${view.online} online`), rightWidth - 8, SMALL);
    const x = leftWidth + Math.max(4, Math.floor((rightWidth - measureGlyphs(count, SMALL)) / 2));
    raster.drawGlyphs(count, x, Math.floor((height - CAP_HEIGHT) / 2), SMALL, WHITE, width - 3);
  },

  // Blurple card: icon, name, online count and an invitation line on the left, the logo mark on the right.
  banner1(raster, view) {
    const { width, height } = raster;
    raster.fillRoundRect(0, 0, width, height, 6, BLURPLE);
    drawIcon(raster, view, 14, 14, 48, DARK);
    const textX = 74;
    const logoW = 34;
    const divider = width - logoW - 28;
    drawText(raster, view.name, textX, 15, LARGE_BOLD, WHITE, divider - 8 - textX);
    drawOnline(raster, view.online, textX, 37, WHITE);
    drawText(raster, toGlyphs("Join our Discord server >"), textX, 54, SMALL, BLURPLE_TINT, divider - 8 - textX);
    raster.fillRect(divider, 14, 1, height - 28, hex("#ffffff", 64));
    drawLogo(raster, width - logoW - 14, Math.round((height - logoW / LOGO_ASPECT) / 2), logoW, WHITE);
  },

  // Compact dark card with name and online count, and a blurple logo column on the right.
  banner2(raster, view) {
    const { width, height } = raster;
    const column = 58;
    raster.fillRoundRect(0, 0, width, height, 6, DARK);
    raster.fillRoundRect(width - column - 6, 0, column + 6, height, 6, BLURPLE);
    raster.fillRect(width - column - 6, 0, 6, height, DARK);
    drawIcon(raster, view, 14, 19, 44, BLURPLE);
    const textX = 70;
    drawText(raster, view.name, textX, 24, LARGE_BOLD, WHITE, width - column - 10 - textX);
    drawOnline(raster, view.online, textX, 48, MUTED);
    const logoW = 30;
    drawLogo(
      raster,
      width - column + Math.round((column - logoW) / 2),
      Math.round((height - logoW / LOGO_ASPECT) / 2),
      logoW,
      WHITE,
    );
  },

  // Dark card with icon, name and online count, over a blurple "Chat now" call-to-action band.
  banner3(raster, view) {
    const { width, height } = raster;
    const band = 34;
    raster.fillRoundRect(0, 0, width, height, 6, DARK);
    raster.fillRoundRect(0, height - band - 6, width, band + 6, 6, BLURPLE);
    raster.fillRect(0, height - band - 6, width, 6, DARK);
    drawIcon(raster, view, 14, 11, 44, BLURPLE);
    const textX = 70;
    drawText(raster, view.name, textX, 15, LARGE_BOLD, WHITE, width - 14 - textX);
    drawOnline(raster, view.online, textX, 39, MUTED);
    const bandY = height - band;
    const logoW = 24;
    const logoH = Math.round(logoW / LOGO_ASPECT);
    drawLogo(raster, 14, bandY + Math.round((band - logoH) / 2), logoW, WHITE);
    raster.drawGlyphs(
      toGlyphs("Chat now"),
      14 + logoW + 10,
      bandY + Math.floor((band - 2 * CAP_HEIGHT) / 2),
      LARGE_BOLD,
      WHITE,
    );
    drawChevron(raster, width - 24, bandY + band / 2, 5, WHITE);
  },

  // Tall card: a blurple band with a big logo and wordmark, then icon, name, online count and a join button.
  banner4(raster, view) {
    const { width, height } = raster;
    const band = 72;
    raster.fillRoundRect(0, 0, width, height, 6, DARK);
    raster.fillRoundRect(0, 0, width, band + 6, 6, BLURPLE);
    raster.fillRect(0, band, width, 6, DARK);
    const logoW = 48;
    const logoH = Math.round(logoW / LOGO_ASPECT);
    const wordmark = toGlyphs("DISCORD");
    const total = logoW + 14 + measureGlyphs(wordmark, HUGE_BOLD);
    const logoX = Math.round((width - total) / 2);
    drawLogo(raster, logoX, Math.round((band - logoH) / 2), logoW, WHITE);
    raster.drawGlyphs(wordmark, logoX + logoW + 14, Math.floor((band - 3 * CAP_HEIGHT) / 2), HUGE_BOLD, WHITE);
    drawIcon(raster, view, 16, band + 12, 40, BLURPLE);
    const textX = 68;
    drawText(raster, view.name, textX, band + 14, LARGE_BOLD, WHITE, width - 16 - textX);
    drawOnline(raster, view.online, textX, band + 36, MUTED);
    const button = { x: 16, y: height - 30, w: width - 32, h: 20 };
    raster.fillRoundRect(button.x, button.y, button.w, button.h, 4, BUTTON_GREEN);
    const label = toGlyphs("Join my server");
    const labelX = button.x + Math.floor((button.w - measureGlyphs(label, SMALL_BOLD)) / 2);
    raster.drawGlyphs(label, labelX, button.y + Math.floor((button.h - CAP_HEIGHT) / 2), SMALL_BOLD, WHITE);
  },
};

/** Text cut to maxWidth with "..." when it does not fit. */
function drawText(
  raster: Raster,
  glyphs: number[],
  x: number,
  y: number,
  style: TextStyle,
  color: Rgba,
  maxWidth: number,
): void {
  raster.drawGlyphs(fitGlyphs(glyphs, maxWidth, style), x, y, style, color, x + maxWidth);
}

/** A green presence dot and "N Online". */
function drawOnline(raster: Raster, online: string, x: number, y: number, color: Rgba): void {
  raster.fillCircle(x + 3.5, y + CAP_HEIGHT / 2, 3.5, ONLINE_GREEN);
  raster.drawGlyphs(toGlyphs(`${online} Online`), x + 11, y, SMALL_BOLD, color);
}

function drawLogo(raster: Raster, x: number, y: number, width: number, color: Rgba): void {
  const height = Math.round(width / LOGO_ASPECT);
  raster.fillMask(logoMask(width, height), width, height, x, y, color);
}

/** A ">" chevron of two 2px-thick strokes, centred vertically on cy. */
function drawChevron(raster: Raster, x: number, cy: number, size: number, color: Rgba): void {
  for (let i = 0; i <= size; i++) {
    raster.fillRect(x + i, Math.round(cy - size + i - 1), 2, 2, color);
    raster.fillRect(x + i, Math.round(cy + size - i - 1), 2, 2, color);
  }
}

/** The guild icon in a circle, or a circle of `placeholder` colour with the guild's acronym. */
function drawIcon(raster: Raster, view: WidgetView, x: number, y: number, size: number, placeholder: Rgba): void {
  if (view.icon) {
    raster.drawImage(view.icon, x, y, size, size / 2);
    return;
  }
  raster.fillCircle(x + size / 2, y + size / 2, size / 2, placeholder);
  // Initials the font cannot draw (an emoji-only name) would be fallback diamonds: show the logo mark instead.
  const initials = toGlyphs(acronym(view.guildName))
    .filter((glyph) => glyph !== FALLBACK_GLYPH)
    .slice(0, 3);
  if (initials.length === 0) {
    const logoW = Math.round(size * 0.56);
    drawLogo(
      raster,
      x + Math.round((size - logoW) / 2),
      y + Math.round((size - logoW / LOGO_ASPECT) / 2),
      logoW,
      WHITE,
    );
    return;
  }
  const style = measureGlyphs(initials, LARGE_BOLD) <= size * 0.72 ? LARGE_BOLD : SMALL_BOLD;
  const fitted = fitGlyphs(initials, size - 8, style);
  const textW = measureGlyphs(fitted, style);
  raster.drawGlyphs(
    fitted,
    x + Math.floor((size - textW) / 2),
    y + Math.floor((size - CAP_HEIGHT * style.scale) / 2),
    style,
    WHITE,
  );
}

/** Discord's guild acronym: the first character of each word ("Guildhall HQ" → "GH"; "Bob's Lab" → "BL"). */
export function acronym(name: string): string {
  return name
    .replace(/'s /g, " ")
    .replace(/\w+/g, (word) => word[0])
    .replace(/\s/g, "");
}

/** 1234567 → "1,234,567"; negative, fractional or non-finite counts are clamped to a whole number ≥ 0. */
function formatCount(count: number): string {
  const whole = Number.isFinite(count) && count > 0 ? Math.floor(count) : 0;
  return String(whole).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function isUsableIcon(icon: WidgetIcon): boolean {
  return (
    Number.isInteger(icon.width) &&
    Number.isInteger(icon.height) &&
    icon.width > 0 &&
    icon.height > 0 &&
    icon.rgba.length >= icon.width * icon.height * 4
  );
}

// A tiny RGBA raster with just what the widget banners need: solid and gradient fills, anti-aliased rounded
// rectangles and circles, coverage masks, bitmap text and a masked image blit. Non-premultiplied "over"
// compositing, so shapes drawn on a transparent canvas keep soft, transparent edges in the PNG.
import { GLYPHS, GLYPH_ROWS, GLYPH_WIDTH, advance, type TextStyle } from "./font";

/** [r, g, b, a], each 0..255. */
export type Rgba = readonly [number, number, number, number];

export function hex(color: string, alpha = 255): Rgba {
  const value = Number.parseInt(color.slice(1), 16);
  return [(value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff, alpha];
}

export class Raster {
  readonly data: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
    data?: Buffer,
  ) {
    this.data = data ?? Buffer.alloc(width * height * 4);
  }

  /** Composites one pixel; `coverage` (0..1) scales the colour's alpha. Out-of-bounds pixels are ignored. */
  blend(x: number, y: number, r: number, g: number, b: number, a: number, coverage = 1): void {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const sa = (a * coverage) / 255;
    if (sa <= 0) return;
    const d = this.data;
    const i = (y * this.width + x) * 4;
    if (sa >= 1) {
      d[i] = r;
      d[i + 1] = g;
      d[i + 2] = b;
      d[i + 3] = 255;
      return;
    }
    const da = d[i + 3] / 255;
    const oa = sa + da * (1 - sa);
    const k = (da * (1 - sa)) / oa;
    const s = sa / oa;
    d[i] = Math.round(r * s + d[i] * k);
    d[i + 1] = Math.round(g * s + d[i + 1] * k);
    d[i + 2] = Math.round(b * s + d[i + 2] * k);
    d[i + 3] = Math.round(oa * 255);
  }

  fillRect(x: number, y: number, w: number, h: number, color: Rgba): void {
    const x0 = Math.max(0, Math.floor(x));
    const y0 = Math.max(0, Math.floor(y));
    const x1 = Math.min(this.width, Math.floor(x + w));
    const y1 = Math.min(this.height, Math.floor(y + h));
    if (x1 <= x0 || y1 <= y0) return;
    if (color[3] === 255) {
      // Opaque fills are the bulk of every banner: write the first row, then copy it.
      const d = this.data;
      const rowStart = (y0 * this.width + x0) * 4;
      for (let px = 0; px < x1 - x0; px++) {
        const i = rowStart + px * 4;
        d[i] = color[0];
        d[i + 1] = color[1];
        d[i + 2] = color[2];
        d[i + 3] = 255;
      }
      const rowBytes = (x1 - x0) * 4;
      for (let py = y0 + 1; py < y1; py++) d.copyWithin((py * this.width + x0) * 4, rowStart, rowStart + rowBytes);
      return;
    }
    for (let py = y0; py < y1; py++)
      for (let px = x0; px < x1; px++) this.blend(px, py, color[0], color[1], color[2], color[3]);
  }

  /** A vertical gradient from `top` to `bottom` colour (both opaque). */
  fillGradient(x: number, y: number, w: number, h: number, top: Rgba, bottom: Rgba): void {
    for (let row = 0; row < h; row++) {
      const t = h > 1 ? row / (h - 1) : 0;
      const mix: Rgba = [
        Math.round(top[0] + (bottom[0] - top[0]) * t),
        Math.round(top[1] + (bottom[1] - top[1]) * t),
        Math.round(top[2] + (bottom[2] - top[2]) * t),
        Math.round(top[3] + (bottom[3] - top[3]) * t),
      ];
      this.fillRect(x, y + row, w, 1, mix);
    }
  }

  /**
   * A rounded rectangle with anti-aliased corners. Only the corner squares need coverage maths; the
   * straight parts are plain rect fills.
   */
  fillRoundRect(x: number, y: number, w: number, h: number, radius: number, color: Rgba): void {
    const r = Math.max(0, Math.min(radius, w / 2, h / 2));
    const ri = Math.ceil(r);
    if (ri === 0) return this.fillRect(x, y, w, h, color);
    this.fillRect(x, y + ri, w, h - 2 * ri, color);
    this.fillRect(x + ri, y, w - 2 * ri, ri, color);
    this.fillRect(x + ri, y + h - ri, w - 2 * ri, ri, color);
    // Corner squares: distance from each pixel centre to the corner circle's centre.
    for (let cy = 0; cy < ri; cy++) {
      for (let cx = 0; cx < ri; cx++) {
        const dx = r - (cx + 0.5);
        const dy = r - (cy + 0.5);
        const coverage = clamp01(r - Math.sqrt(dx * dx + dy * dy) + 0.5);
        if (coverage <= 0) continue;
        this.blend(x + cx, y + cy, color[0], color[1], color[2], color[3], coverage);
        this.blend(x + w - 1 - cx, y + cy, color[0], color[1], color[2], color[3], coverage);
        this.blend(x + cx, y + h - 1 - cy, color[0], color[1], color[2], color[3], coverage);
        this.blend(x + w - 1 - cx, y + h - 1 - cy, color[0], color[1], color[2], color[3], coverage);
      }
    }
  }

  /** An anti-aliased disc centred at (cx, cy) (pixel-edge coordinates, so cx = 10 is between pixels 9 and 10). */
  fillCircle(cx: number, cy: number, radius: number, color: Rgba): void {
    const x0 = Math.floor(cx - radius);
    const y0 = Math.floor(cy - radius);
    const x1 = Math.ceil(cx + radius);
    const y1 = Math.ceil(cy + radius);
    for (let y = y0; y < y1; y++) {
      for (let x = x0; x < x1; x++) {
        const dx = x + 0.5 - cx;
        const dy = y + 0.5 - cy;
        const coverage = clamp01(radius - Math.sqrt(dx * dx + dy * dy) + 0.5);
        if (coverage > 0) this.blend(x, y, color[0], color[1], color[2], color[3], coverage);
      }
    }
  }

  /** Paints `color` through a coverage mask (0..255 per pixel) placed at (x, y). */
  fillMask(mask: Uint8Array, maskWidth: number, maskHeight: number, x: number, y: number, color: Rgba): void {
    for (let my = 0; my < maskHeight; my++) {
      for (let mx = 0; mx < maskWidth; mx++) {
        const m = mask[my * maskWidth + mx];
        if (m !== 0) this.blend(x + mx, y + my, color[0], color[1], color[2], color[3], m / 255);
      }
    }
  }

  /**
   * Draws glyphs with their cap line at `y`. Returns the x just past the last glyph.
   * `clipRight` stops drawing at a column so a run can never spill into the next part of a layout.
   */
  drawGlyphs(
    glyphs: readonly number[],
    x: number,
    y: number,
    style: TextStyle,
    color: Rgba,
    clipRight = this.width,
  ): number {
    const s = style.scale;
    const step = advance(style);
    const smear = style.bold ? 1 : 0;
    let penX = x;
    // At 1x a one-pixel smear would close the one-pixel gaps of "m", "w" or "#", so there bold is drawn in
    // glyph space instead: a column is thickened only where that keeps a gap open. At 2x and up the smear
    // is one device pixel, which never closes a (2-pixel) gap.
    const thinBold = smear === 1 && s === 1;
    const columns = thinBold ? GLYPH_WIDTH + 1 : GLYPH_WIDTH;
    const width = thinBold ? s : s + smear;
    for (const glyph of glyphs) {
      for (let row = 0; row < GLYPH_ROWS; row++) {
        let mask = GLYPHS[glyph * GLYPH_ROWS + row];
        if (mask === 0) continue;
        if (thinBold) {
          mask <<= 1;
          mask |= (mask >> 1) & ~(mask << 1);
        }
        for (let col = 0; col < columns; col++) {
          if ((mask & (1 << (columns - 1 - col))) === 0) continue;
          const px = penX + col * s;
          const w = Math.min(width, clipRight - px);
          if (w > 0) this.fillRect(px, y + row * s, w, s, color);
        }
      }
      penX += step;
    }
    return penX - s;
  }

  /**
   * Draws an RGBA image scaled into (x, y, size, size), clipped to a circle (`radius` = size / 2) or a
   * rounded square, with anti-aliased edges and the image's own alpha respected.
   */
  drawImage(
    src: { width: number; height: number; rgba: Uint8Array },
    x: number,
    y: number,
    size: number,
    radius: number,
  ): void {
    const scaled =
      src.width === size && src.height === size ? src.rgba : resampleRgba(src.rgba, src.width, src.height, size, size);
    const r = Math.min(radius, size / 2);
    for (let py = 0; py < size; py++) {
      for (let px = 0; px < size; px++) {
        const coverage = roundRectCoverage(px + 0.5, py + 0.5, size, size, r);
        if (coverage <= 0) continue;
        const i = (py * size + px) * 4;
        this.blend(x + px, y + py, scaled[i], scaled[i + 1], scaled[i + 2], scaled[i + 3], coverage);
      }
    }
  }
}

function clamp01(value: number): number {
  return value < 0 ? 0 : value > 1 ? 1 : value;
}

/** Coverage of a pixel centred at (px, py) by a w x h rounded rectangle at the origin. */
function roundRectCoverage(px: number, py: number, w: number, h: number, r: number): number {
  const dx = Math.max(r - px, px - (w - r), 0);
  const dy = Math.max(r - py, py - (h - r), 0);
  if (dx === 0 && dy === 0) return 1;
  return clamp01(r - Math.sqrt(dx * dx + dy * dy) + 0.5);
}

/**
 * Scales RGBA pixels to dw x dh: a box filter (area average, alpha-weighted so transparent pixels do not
 * darken edges) when shrinking, nearest neighbour when growing.
 */
export function resampleRgba(src: Uint8Array, sw: number, sh: number, dw: number, dh: number): Uint8Array {
  const out = new Uint8Array(dw * dh * 4);
  const fx = sw / dw;
  const fy = sh / dh;
  for (let dy = 0; dy < dh; dy++) {
    const sy0 = Math.floor(dy * fy);
    const sy1 = Math.max(sy0 + 1, Math.min(sh, Math.floor((dy + 1) * fy)));
    for (let dx = 0; dx < dw; dx++) {
      const sx0 = Math.floor(dx * fx);
      const sx1 = Math.max(sx0 + 1, Math.min(sw, Math.floor((dx + 1) * fx)));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      let n = 0;
      for (let sy = sy0; sy < sy1; sy++) {
        for (let sx = sx0; sx < sx1; sx++) {
          const i = (sy * sw + sx) * 4;
          const alpha = src[i + 3];
          r += src[i] * alpha;
          g += src[i + 1] * alpha;
          b += src[i + 2] * alpha;
          a += alpha;
          n++;
        }
      }
      const o = (dy * dw + dx) * 4;
      if (a > 0) {
        out[o] = Math.round(r / a);
        out[o + 1] = Math.round(g / a);
        out[o + 2] = Math.round(b / a);
        out[o + 3] = Math.round(a / n);
      }
    }
  }
  return out;
}

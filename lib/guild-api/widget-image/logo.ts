// A Discord-like logo mark (the controller-shaped face): a polygon outline less two elliptical eyes
// in a 127 x 96 design box, and rasterised with 4x4 supersampling into a coverage mask.
// Masks are cached per size: the banners use only a handful of sizes, so each is computed once per process.

const DESIGN_WIDTH = 127.14;
const DESIGN_HEIGHT = 96.36;
const SUPERSAMPLE = 4;

/** Width / height of the mark, for callers choosing a size. */
export const LOGO_ASPECT = DESIGN_WIDTH / DESIGN_HEIGHT;

// The left half of the outline, from the top centre down around the left "foot" to the bottom centre,
// flattened by hand from the mark's curves; the right half is its mirror image.
const LEFT_HALF: readonly (readonly [number, number])[] = [
  [63.57, 6.83],
  [49, 6.83],
  [47.3, 3.3],
  [45.64, 0],
  [32, 3.2],
  [19.39, 8.09],
  [9.1, 26.4],
  [2.9, 44.5],
  [0.2, 62.4],
  [0.54, 80.21],
  [16, 89.5],
  [32.71, 96.36],
  [36.5, 91.2],
  [39.6, 85.25],
  [34, 82.9],
  [28.75, 80.07],
  [31.41, 78.07],
  [39.5, 81.6],
  [47.5, 83.5],
  [55.5, 84.8],
  [63.57, 85.25],
];

/** The closed outline as x0, y0, x1, y1, ... */
const OUTLINE: Float64Array = (() => {
  const right = LEFT_HALF.slice(1, -1)
    .reverse()
    .map(([x, y]) => [DESIGN_WIDTH - x, y] as const);
  return Float64Array.from([...LEFT_HALF, ...right].flat());
})();

function inEllipse(x: number, y: number, cx: number, cy: number, rx: number, ry: number): boolean {
  const dx = (x - cx) / rx;
  const dy = (y - cy) / ry;
  return dx * dx + dy * dy <= 1;
}

/** Even-odd point-in-polygon test against OUTLINE. */
function inOutline(x: number, y: number): boolean {
  let inside = false;
  const n = OUTLINE.length / 2;
  for (let i = 0, j = n - 1; i < n; j = i++) {
    const xi = OUTLINE[2 * i];
    const yi = OUTLINE[2 * i + 1];
    const xj = OUTLINE[2 * j];
    const yj = OUTLINE[2 * j + 1];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Whether a point of the design box is inside the mark: the outline less the two eyes. */
function insideMark(x: number, y: number): boolean {
  if (!inOutline(x, y)) return false;
  if (inEllipse(x, y, 42.45, 53, 11.5, 12.7)) return false;
  if (inEllipse(x, y, 84.69, 53, 11.5, 12.7)) return false;
  return true;
}

const cache = new Map<string, Uint8Array>();

/** A width x height coverage mask (0..255 per pixel) of the logo mark. */
export function logoMask(width: number, height: number): Uint8Array {
  const key = `${width}x${height}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const mask = new Uint8Array(width * height);
  const sx = DESIGN_WIDTH / width;
  const sy = DESIGN_HEIGHT / height;
  const samples = SUPERSAMPLE * SUPERSAMPLE;
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      let hits = 0;
      for (let j = 0; j < SUPERSAMPLE; j++) {
        for (let i = 0; i < SUPERSAMPLE; i++) {
          if (insideMark((px + (i + 0.5) / SUPERSAMPLE) * sx, (py + (j + 0.5) / SUPERSAMPLE) * sy)) hits++;
        }
      }
      mask[py * width + px] = Math.round((hits / samples) * 255);
    }
  }
  cache.set(key, mask);
  return mask;
}

// A 5x7 bitmap font for printable ASCII (32..126), with two descender rows for g, j, p, q, y and friends.
// Embedded so the widget renderer needs no font files and no native canvas. Glyphs are written as rows of
// '#'/'.' so they can be read and corrected by eye; they are compiled once into 5-bit row masks.
// Anything outside printable ASCII (after folding accents away) renders as a hollow-diamond fallback glyph.

export const GLYPH_WIDTH = 5;
/** Rows 0..6 hold capitals and digits; rows 7..8 hold descenders. */
export const GLYPH_ROWS = 9;
export const CAP_HEIGHT = 7;

const GLYPH_SOURCE: readonly string[] = [
  /* 32 ' ' */ "..... ..... ..... ..... ..... ..... .....",
  /* 33 '!' */ "..#.. ..#.. ..#.. ..#.. ..#.. ..... ..#..",
  /* 34 '"' */ ".#.#. .#.#. .#.#. ..... ..... ..... .....",
  /* 35 '#' */ ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
  /* 36 '$' */ "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
  /* 37 '%' */ "##... ##..# ...#. ..#.. .#... #..## ...##",
  /* 38 '&' */ ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
  /* 39 ''' */ "..#.. ..#.. .#... ..... ..... ..... .....",
  /* 40 '(' */ "...#. ..#.. .#... .#... .#... ..#.. ...#.",
  /* 41 ')' */ ".#... ..#.. ...#. ...#. ...#. ..#.. .#...",
  /* 42 '*' */ "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
  /* 43 '+' */ "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
  /* 44 ',' */ "..... ..... ..... ..... ..... .##.. .##.. ..#.. .#...",
  /* 45 '-' */ "..... ..... ..... ##### ..... ..... .....",
  /* 46 '.' */ "..... ..... ..... ..... ..... .##.. .##..",
  /* 47 '/' */ "..... ....# ...#. ..#.. .#... #.... .....",
  /* 48 '0' */ ".###. #...# #..## #.#.# ##..# #...# .###.",
  /* 49 '1' */ "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
  /* 50 '2' */ ".###. #...# ....# ...#. ..#.. .#... #####",
  /* 51 '3' */ "##### ...#. ..#.. ...#. ....# #...# .###.",
  /* 52 '4' */ "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
  /* 53 '5' */ "##### #.... ####. ....# ....# #...# .###.",
  /* 54 '6' */ "..##. .#... #.... ####. #...# #...# .###.",
  /* 55 '7' */ "##### ....# ...#. ..#.. .#... .#... .#...",
  /* 56 '8' */ ".###. #...# #...# .###. #...# #...# .###.",
  /* 57 '9' */ ".###. #...# #...# .#### ....# ...#. .##..",
  /* 58 ':' */ "..... .##.. .##.. ..... .##.. .##.. .....",
  /* 59 ';' */ "..... .##.. .##.. ..... .##.. .##.. ..#.. .#...",
  /* 60 '<' */ "...#. ..#.. .#... #.... .#... ..#.. ...#.",
  /* 61 '=' */ "..... ..... ##### ..... ##### ..... .....",
  /* 62 '>' */ ".#... ..#.. ...#. ....# ...#. ..#.. .#...",
  /* 63 '?' */ ".###. #...# ....# ...#. ..#.. ..... ..#..",
  /* 64 '@' */ ".###. #...# ....# .##.# #.#.# #.#.# .###.",
  /* 65 'A' */ ".###. #...# #...# ##### #...# #...# #...#",
  /* 66 'B' */ "####. #...# #...# ####. #...# #...# ####.",
  /* 67 'C' */ ".###. #...# #.... #.... #.... #...# .###.",
  /* 68 'D' */ "###.. #..#. #...# #...# #...# #..#. ###..",
  /* 69 'E' */ "##### #.... #.... ####. #.... #.... #####",
  /* 70 'F' */ "##### #.... #.... ####. #.... #.... #....",
  /* 71 'G' */ ".###. #...# #.... #.### #...# #...# .####",
  /* 72 'H' */ "#...# #...# #...# ##### #...# #...# #...#",
  /* 73 'I' */ ".###. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
  /* 74 'J' */ "..### ...#. ...#. ...#. ...#. #..#. .##..",
  /* 75 'K' */ "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
  /* 76 'L' */ "#.... #.... #.... #.... #.... #.... #####",
  /* 77 'M' */ "#...# ##.## #.#.# #.#.# #...# #...# #...#",
  /* 78 'N' */ "#...# #...# ##..# #.#.# #..## #...# #...#",
  /* 79 'O' */ ".###. #...# #...# #...# #...# #...# .###.",
  /* 80 'P' */ "####. #...# #...# ####. #.... #.... #....",
  /* 81 'Q' */ ".###. #...# #...# #...# #.#.# #..#. .##.#",
  /* 82 'R' */ "####. #...# #...# ####. #.#.. #..#. #...#",
  /* 83 'S' */ ".#### #.... #.... .###. ....# ....# ####.",
  /* 84 'T' */ "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
  /* 85 'U' */ "#...# #...# #...# #...# #...# #...# .###.",
  /* 86 'V' */ "#...# #...# #...# #...# #...# .#.#. ..#..",
  /* 87 'W' */ "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
  /* 88 'X' */ "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
  /* 89 'Y' */ "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
  /* 90 'Z' */ "##### ....# ...#. ..#.. .#... #.... #####",
  /* 91 '[' */ ".###. .#... .#... .#... .#... .#... .###.",
  /* 92 '\' */ "..... #.... .#... ..#.. ...#. ....# .....",
  /* 93 ']' */ ".###. ...#. ...#. ...#. ...#. ...#. .###.",
  /* 94 '^' */ "..#.. .#.#. #...# ..... ..... ..... .....",
  /* 95 '_' */ "..... ..... ..... ..... ..... ..... #####",
  /* 96 '`' */ ".#... ..#.. ...#. ..... ..... ..... .....",
  /* 97 'a' */ "..... ..... .###. ....# .#### #...# .####",
  /* 98 'b' */ "#.... #.... #.##. ##..# #...# #...# ####.",
  /* 99 'c' */ "..... ..... .###. #.... #.... #...# .###.",
  /* 100 'd' */ "....# ....# .##.# #..## #...# #...# .####",
  /* 101 'e' */ "..... ..... .###. #...# ##### #.... .###.",
  /* 102 'f' */ "..##. .#..# .#... ###.. .#... .#... .#...",
  /* 103 'g' */ "..... ..... .#### #...# #...# #...# .#### ....# .###.",
  /* 104 'h' */ "#.... #.... #.##. ##..# #...# #...# #...#",
  /* 105 'i' */ "..#.. ..... .##.. ..#.. ..#.. ..#.. .###.",
  /* 106 'j' */ "...#. ..... ..##. ...#. ...#. ...#. ...#. #..#. .##..",
  /* 107 'k' */ "#.... #.... #..#. #.#.. ##... #.#.. #..#.",
  /* 108 'l' */ ".##.. ..#.. ..#.. ..#.. ..#.. ..#.. .###.",
  /* 109 'm' */ "..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#",
  /* 110 'n' */ "..... ..... #.##. ##..# #...# #...# #...#",
  /* 111 'o' */ "..... ..... .###. #...# #...# #...# .###.",
  /* 112 'p' */ "..... ..... ####. #...# #...# #...# ####. #.... #....",
  /* 113 'q' */ "..... ..... .#### #...# #...# #...# .#### ....# ....#",
  /* 114 'r' */ "..... ..... #.##. ##..# #.... #.... #....",
  /* 115 's' */ "..... ..... .###. #.... .###. ....# ####.",
  /* 116 't' */ ".#... .#... ###.. .#... .#... .#..# ..##.",
  /* 117 'u' */ "..... ..... #...# #...# #...# #..## .##.#",
  /* 118 'v' */ "..... ..... #...# #...# #...# .#.#. ..#..",
  /* 119 'w' */ "..... ..... #...# #...# #.#.# #.#.# .#.#.",
  /* 120 'x' */ "..... ..... #...# .#.#. ..#.. .#.#. #...#",
  /* 121 'y' */ "..... ..... #...# #...# #...# #...# .#### ....# .###.",
  /* 122 'z' */ "..... ..... ##### ...#. ..#.. .#... #####",
  /* 123 '{' */ "...#. ..#.. ..#.. .#... ..#.. ..#.. ...#.",
  /* 124 '|' */ "..#.. ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
  /* 125 '}' */ ".#... ..#.. ..#.. ...#. ..#.. ..#.. .#...",
  /* 126 '~' */ "..... ..... .#... #.#.# ...#. ..... .....",
  /* fallback */ "..#.. .###. ##.## #...# ##.## .###. ..#..",
];

/** Index of the fallback glyph in GLYPHS. */
export const FALLBACK_GLYPH = GLYPH_SOURCE.length - 1;
/** Glyph index for an ASCII code: code - 32. */
export const SPACE_GLYPH = 0;
export const DOT_GLYPH = ".".charCodeAt(0) - 32;

/** GLYPHS[glyph * GLYPH_ROWS + row]: a 5-bit mask, bit 4 the leftmost column. */
export const GLYPHS: Uint8Array = compile(GLYPH_SOURCE);

function compile(source: readonly string[]): Uint8Array {
  const table = new Uint8Array(source.length * GLYPH_ROWS);
  source.forEach((glyph, index) => {
    const rows = glyph.split(" ");
    if (rows.length < CAP_HEIGHT || rows.length > GLYPH_ROWS)
      throw new Error(`glyph ${index + 32} has ${rows.length} rows`);
    rows.forEach((row, y) => {
      if (row.length !== GLYPH_WIDTH) throw new Error(`glyph ${index + 32} row ${y} is ${row.length} wide`);
      let mask = 0;
      for (let x = 0; x < GLYPH_WIDTH; x++) if (row[x] === "#") mask |= 1 << (GLYPH_WIDTH - 1 - x);
      table[index * GLYPH_ROWS + y] = mask;
    });
  });
  return table;
}

// One user-perceived character (an emoji with skin tone and ZWJ parts, a letter with combining marks) becomes
// one glyph, so an emoji-only name shows one box per emoji rather than one per code point.
const graphemes = new Intl.Segmenter("en", { granularity: "grapheme" });
/** Guild names are at most 100 characters; anything longer is cut before segmenting so work stays bounded. */
const MAX_SOURCE_LENGTH = 256;

/**
 * Text as glyph indices: printable ASCII maps to itself, accented Latin letters to their base letter
 * ("é" → "e", by NFD), runs of whitespace to one space, control characters are dropped, anything else is the fallback (a hollow diamond, like U+FFFD).
 */
export function toGlyphs(text: string): number[] {
  const glyphs: number[] = [];
  const source = text.length > MAX_SOURCE_LENGTH ? text.slice(0, MAX_SOURCE_LENGTH) : text;
  // Pure printable ASCII is the common case and needs no segmenter.
  if (/^[\x20-\x7e]*$/.test(source)) {
    for (let i = 0; i < source.length; i++) pushGlyph(glyphs, source.charCodeAt(i) - 32);
    return trimSpaces(glyphs);
  }
  for (const { segment } of graphemes.segment(source)) {
    const code = segment.charCodeAt(0);
    if (segment.length === 1 && code >= 32 && code <= 126) pushGlyph(glyphs, code - 32);
    else if (/^\s+$/u.test(segment)) pushGlyph(glyphs, SPACE_GLYPH);
    else if (/^\p{Cc}+$/u.test(segment)) continue;
    else {
      const base = segment.normalize("NFD").charCodeAt(0);
      const folded = /^[\x21-\x7e]\p{M}*$/u.test(segment.normalize("NFD"));
      pushGlyph(glyphs, folded ? base - 32 : FALLBACK_GLYPH);
    }
  }
  return trimSpaces(glyphs);
}

function pushGlyph(glyphs: number[], glyph: number): void {
  // Collapse whitespace runs: a name of many spaces must not push the rest out of the banner.
  if (glyph === SPACE_GLYPH && (glyphs.length === 0 || glyphs[glyphs.length - 1] === SPACE_GLYPH)) return;
  glyphs.push(glyph);
}

function trimSpaces(glyphs: number[]): number[] {
  while (glyphs.length > 0 && glyphs[glyphs.length - 1] === SPACE_GLYPH) glyphs.pop();
  return glyphs;
}

export interface TextStyle {
  /** Whole-pixel scale: 1 draws 5x7 capitals, 2 draws 10x14. */
  scale: number;
  /** Bold smears each glyph one device pixel to the right (and widens the advance by one). */
  bold?: boolean;
}

/** Horizontal advance of one glyph: its width, one column of spacing, and the bold smear. */
export function advance(style: TextStyle): number {
  return (GLYPH_WIDTH + 1) * style.scale + (style.bold ? 1 : 0);
}

/** Width in pixels of a glyph run, without the trailing spacing column. */
export function measureGlyphs(glyphs: readonly number[], style: TextStyle): number {
  if (glyphs.length === 0) return 0;
  return glyphs.length * advance(style) - style.scale;
}

/** The longest prefix that fits in maxWidth, ending in "..." when anything had to be cut. */
export function fitGlyphs(glyphs: number[], maxWidth: number, style: TextStyle): number[] {
  if (measureGlyphs(glyphs, style) <= maxWidth) return glyphs;
  const step = advance(style);
  const ellipsis = 3;
  let keep = Math.floor((maxWidth + style.scale) / step) - ellipsis;
  if (keep < 0) keep = 0;
  const cut = trimSpaces(glyphs.slice(0, keep));
  return cut.concat([DOT_GLYPH, DOT_GLYPH, DOT_GLYPH]);
}

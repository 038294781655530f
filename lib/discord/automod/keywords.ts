// Keywords as Discord's AutoMod matches them ("Keyword Matching Strategies" in Discord's Auto Moderation docs): case
// insensitive, a keyword may be a phrase, and a `*` at either end says how it meets the words around it:
//   cat    whole word: the occurrence starts and ends at word boundaries ("my cat!", not "catch" or "wildcat")
//   cat*   prefix: starts at a word boundary (catch, Catapult)
//   *cat   suffix: ends at a word boundary (wildcat, copyCat)
//   *cat*  anywhere (location, eduCation)
// Discord says a whole word "must be surrounded by whitespace"; Guildhall takes any character that is not a letter,
// digit or combining mark (Unicode's \p{L}, \p{N}, \p{M}) as a boundary, so "cat!" and "(cat)" count as the word.
// What an occurrence "matched" is the occurrence grown to the ends of its words on its wildcard sides ("location" for
// *cat*): that is what an allow_list entry is compared with.
//
// Speed: a rule's keywords compile once into one Aho-Corasick automaton over their lowercased text, so a message is
// read once per rule, whatever the number of keywords, and boundaries are checked only where a keyword occurs.

/** Boundary bits: whether an occurrence must start (end) at a word boundary. */
const STARTS_WORD = 1;
const ENDS_WORD = 2;

export interface Keyword {
  /** As the rule lists it, wildcards included. */
  readonly pattern: string;
  /** Lowercased, without its wildcards. */
  readonly core: string;
  /** STARTS_WORD | ENDS_WORD: 3 whole word, 1 prefix, 2 suffix, 0 anywhere. */
  readonly bounds: number;
}

/** Lowercase, with Greek's final sigma read as sigma so that a word's form does not depend on where it ends. */
export function fold(text: string): string {
  const lower = text.toLowerCase();
  return lower.includes("ς") ? lower.replaceAll("ς", "σ") : lower;
}

/** A keyword or allow_list entry read: null when nothing is left once its wildcards are off. */
export function parseKeyword(pattern: string): Keyword | null {
  let start = 0;
  let end = pattern.length;
  let bounds = STARTS_WORD | ENDS_WORD;
  if (pattern.startsWith("*")) {
    start = 1;
    bounds &= ~STARTS_WORD;
  }
  if (end > start && pattern.endsWith("*")) {
    end -= 1;
    bounds &= ~ENDS_WORD;
  }
  const core = fold(pattern.slice(start, end));
  return core ? { pattern, core, bounds } : null;
}

const WORD_CHARACTER = /^[\p{L}\p{N}\p{M}]$/u;
/** Per BMP code unit: 0 not yet known, 1 word character, 2 not. Filled as characters are met. */
const bmpWordCache = new Uint8Array(0x10000);

const ASCII_WORD = Uint8Array.from({ length: 128 }, (_, unit) =>
  WORD_CHARACTER.test(String.fromCharCode(unit)) ? 1 : 0,
);

function isWordCodePoint(codePoint: number): boolean {
  if (codePoint < 0x10000) {
    let known = bmpWordCache[codePoint];
    if (known === 0) {
      known = WORD_CHARACTER.test(String.fromCharCode(codePoint)) ? 1 : 2;
      bmpWordCache[codePoint] = known;
    }
    return known === 1;
  }
  return WORD_CHARACTER.test(String.fromCodePoint(codePoint));
}

/**
 * A message's content folded once for every rule, with the maps between its indices and the folded text's (needed
 * only when lowercasing changed a length, as İ's does) and, on first need, where its words start and end.
 */
export class FoldedText {
  readonly folded: string;
  private readonly toOriginal: Int32Array | null = null;
  private readonly toFolded: Int32Array | null = null;
  /** wordStartAt[i]: where the word run ending at i starts (i when i - 1 is no word character). */
  private wordStartAt: Int32Array | null = null;
  /** wordEndAt[i]: where the word run starting at i ends (i when i is no word character). */
  private wordEndAt: Int32Array | null = null;

  constructor(readonly original: string) {
    this.folded = fold(original);
    if (this.folded.length !== original.length) {
      // Character by character (fold reads no context, so the pieces make the same text).
      const toOriginal = new Int32Array(this.folded.length + 1);
      const toFolded = new Int32Array(original.length + 1);
      let at = 0;
      for (let i = 0; i < original.length;) {
        const codePoint = original.codePointAt(i)!;
        const width = codePoint > 0xffff ? 2 : 1;
        const piece = fold(String.fromCodePoint(codePoint)).length;
        for (let k = 0; k < piece; k++) toOriginal[at + k] = i;
        for (let k = 0; k < width; k++) toFolded[i + k] = at;
        at += piece;
        i += width;
      }
      toOriginal[this.folded.length] = original.length;
      toFolded[original.length] = this.folded.length;
      this.toOriginal = toOriginal;
      this.toFolded = toFolded;
    }
  }

  /** The original index of a folded one. */
  originalIndex(folded: number): number {
    return this.toOriginal ? this.toOriginal[folded] : folded;
  }

  /** The folded index of an original one. */
  foldedIndex(original: number): number {
    return this.toFolded ? this.toFolded[original] : original;
  }

  /** Whether index `i` of the folded text is at the start of a word's run of characters or outside any word. */
  startsWord(i: number): boolean {
    return this.wordStart(i) === i;
  }

  /** Whether index `i` of the folded text ends a word or is outside any word. */
  endsWord(i: number): boolean {
    return this.wordEnd(i) === i;
  }

  /** The start of the word that index `i` (a position between characters) is inside or at the end of. */
  wordStart(i: number): number {
    return (this.wordStartAt ?? this.findWords()[0])[i];
  }

  /** The end of the word that index `i` is inside or at the start of. */
  wordEnd(i: number): number {
    return (this.wordEndAt ?? this.findWords()[1])[i];
  }

  private findWords(): [Int32Array, Int32Array] {
    const text = this.folded;
    const n = text.length;
    const isWord = new Uint8Array(n);
    for (let i = 0; i < n;) {
      const unit = text.charCodeAt(i);
      if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < n) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          if (isWordCodePoint(((unit - 0xd800) << 10) + (low - 0xdc00) + 0x10000)) isWord[i] = isWord[i + 1] = 1;
          i += 2;
          continue;
        }
      }
      if (unit < 128 ? ASCII_WORD[unit] : isWordCodePoint(unit)) isWord[i] = 1;
      i += 1;
    }
    const starts = new Int32Array(n + 1);
    for (let i = 1; i <= n; i++) starts[i] = isWord[i - 1] ? starts[i - 1] : i;
    const ends = new Int32Array(n + 1);
    ends[n] = n;
    for (let i = n - 1; i >= 0; i--) ends[i] = isWord[i] ? ends[i + 1] : i;
    this.wordStartAt = starts;
    this.wordEndAt = ends;
    return [starts, ends];
  }
}

/** One keyword's occurrence that met its boundaries, in folded indices, with its extent (see the header). */
export interface KeywordOccurrence {
  keyword: Keyword;
  start: number;
  end: number;
  extentStart: number;
  extentEnd: number;
}

/** Dense transition rows for the shallowest states, up to this many entries (4 bytes each); deeper states are sparse. */
const DENSE_ENTRIES = 1 << 19;

/**
 * A list of keywords compiled into an Aho-Corasick automaton over UTF-16 code units. Characters that occur in no
 * keyword share one class that sends the automaton home. States are numbered breadth first; the first ones (all of
 * them for lists of ordinary words) have a full row of transitions, so reading a character is one array lookup; the
 * rest keep their own children (sorted) and fall back along failure links to a dense state.
 */
export class KeywordList {
  readonly keywords: readonly Keyword[];
  private readonly asciiClass = new Int32Array(128);
  private readonly otherClass = new Map<number, number>();
  private readonly classes: number;
  private readonly denseStates: number;
  private readonly dense: Int32Array;
  private readonly childStart: Int32Array;
  private readonly childClass: Int32Array;
  private readonly childState: Int32Array;
  private readonly failure: Int32Array;
  private readonly depth: Int32Array;
  /** The first state with keywords ending there on this state's suffix chain (itself first), or -1. */
  private readonly firstOutput: Int32Array;
  /** The next such state down the chain from one that has keywords, or -1. */
  private readonly nextOutput: Int32Array;
  private readonly outputStart: Int32Array;
  private readonly outputKeywords: Int32Array;

  /** `denseEntries`: the dense rows' budget (tests shrink it to exercise sparse states). */
  constructor(patterns: readonly string[], { denseEntries = DENSE_ENTRIES }: { denseEntries?: number } = {}) {
    this.keywords = patterns.map(parseKeyword).filter((keyword): keyword is Keyword => keyword !== null);
    // The character classes.
    let classes = 1;
    const classOf = (unit: number): number => {
      if (unit < 128) return this.asciiClass[unit] || (this.asciiClass[unit] = classes++);
      let known = this.otherClass.get(unit);
      if (known === undefined) this.otherClass.set(unit, (known = classes++));
      return known;
    };
    // The trie, its states in insertion order for now.
    const children: Map<number, number>[] = [new Map()];
    const endingHere: number[][] = [[]];
    this.keywords.forEach((keyword, index) => {
      let state = 0;
      for (let i = 0; i < keyword.core.length; i++) {
        const cls = classOf(keyword.core.charCodeAt(i));
        let next = children[state].get(cls);
        if (next === undefined) {
          next = children.length;
          children[state].set(cls, next);
          children.push(new Map());
          endingHere.push([]);
        }
        state = next;
      }
      endingHere[state].push(index);
    });
    this.classes = classes;
    const count = children.length;
    // Breadth-first numbering: a state's failure state (a shorter suffix) comes before it.
    const order = [0];
    const number = new Int32Array(count);
    for (let k = 0; k < order.length; k++)
      for (const child of children[order[k]].values()) {
        number[child] = order.length;
        order.push(child);
      }
    this.depth = new Int32Array(count);
    this.failure = new Int32Array(count);
    this.childStart = new Int32Array(count + 1);
    const childClass: number[] = [];
    const childState: number[] = [];
    order.forEach((old, state) => {
      this.childStart[state] = childClass.length;
      const sorted = [...children[old].entries()].sort((a, b) => a[0] - b[0]);
      for (const [cls, child] of sorted) {
        childClass.push(cls);
        childState.push(number[child]);
        this.depth[number[child]] = this.depth[state] + 1;
      }
    });
    this.childStart[count] = childClass.length;
    this.childClass = Int32Array.from(childClass);
    this.childState = Int32Array.from(childState);
    // Failure links, breadth first.
    for (let state = 0; state < count; state++)
      for (let c = this.childStart[state]; c < this.childStart[state + 1]; c++) {
        const child = this.childState[c];
        if (state === 0) continue;
        let fallback = this.failure[state];
        let next = this.child(fallback, this.childClass[c]);
        while (next < 0 && fallback !== 0) {
          fallback = this.failure[fallback];
          next = this.child(fallback, this.childClass[c]);
        }
        this.failure[child] = next < 0 ? 0 : next;
      }
    // Outputs.
    this.outputStart = new Int32Array(count + 1);
    const outputKeywords: number[] = [];
    order.forEach((old, state) => {
      this.outputStart[state] = outputKeywords.length;
      outputKeywords.push(...endingHere[old]);
    });
    this.outputStart[count] = outputKeywords.length;
    this.outputKeywords = Int32Array.from(outputKeywords);
    this.firstOutput = new Int32Array(count).fill(-1);
    this.nextOutput = new Int32Array(count).fill(-1);
    for (let state = 1; state < count; state++) {
      const inherited = this.firstOutput[this.failure[state]];
      if (this.outputStart[state + 1] > this.outputStart[state]) {
        this.firstOutput[state] = state;
        this.nextOutput[state] = inherited;
      } else this.firstOutput[state] = inherited;
    }
    // Dense rows for the first states (the root's at least); a failure state is shallower, so its row is already
    // filled.
    this.denseStates = Math.max(1, Math.min(count, Math.floor(denseEntries / classes)));
    this.dense = new Int32Array(this.denseStates * classes);
    for (let state = 0; state < this.denseStates; state++) {
      const row = state * classes;
      if (state !== 0)
        this.dense.set(this.dense.subarray(this.failure[state] * classes, (this.failure[state] + 1) * classes), row);
      for (let c = this.childStart[state]; c < this.childStart[state + 1]; c++)
        this.dense[row + this.childClass[c]] = this.childState[c];
    }
  }

  get empty(): boolean {
    return this.keywords.length === 0;
  }

  /** The first occurrence (by where it ends; the longest first) that meets its boundaries and `accept`; or null. */
  find(text: FoldedText, accept?: (extentStart: number, extentEnd: number) => boolean): KeywordOccurrence | null {
    return this.scan(text, (occurrence) => !accept || accept(occurrence.extentStart, occurrence.extentEnd));
  }

  /**
   * For each index i of the folded text, the furthest end of an extent that starts at or before i (-1 if none):
   * an extent [s, e) lies within one of this list's if reach[s] >= e.
   */
  reach(text: FoldedText): Int32Array {
    const reach = new Int32Array(text.folded.length + 1).fill(-1);
    this.scan(text, ({ extentStart, extentEnd }) => {
      if (extentEnd > reach[extentStart]) reach[extentStart] = extentEnd;
      return false;
    });
    for (let i = 1; i < reach.length; i++) if (reach[i - 1] > reach[i]) reach[i] = reach[i - 1];
    return reach;
  }

  /** Every occurrence that meets its boundaries, by where it ends, until `visit` takes one (which it answers). */
  private scan(text: FoldedText, visit: (occurrence: KeywordOccurrence) => boolean): KeywordOccurrence | null {
    if (this.keywords.length === 0) return null;
    const folded = text.folded;
    const { asciiClass, otherClass, classes, dense, denseStates, firstOutput } = this;
    let state = 0;
    for (let i = 0; i < folded.length; i++) {
      const unit = folded.charCodeAt(i);
      const cls = unit < 128 ? asciiClass[unit] : (otherClass.get(unit) ?? 0);
      if (cls === 0) {
        state = 0;
        continue;
      }
      // Sparse states follow failure links until a child or a dense state answers.
      let next = -1;
      while (state >= denseStates) {
        next = this.child(state, cls);
        if (next >= 0) break;
        state = this.failure[state];
      }
      state = next >= 0 ? next : dense[state * classes + cls];
      for (let out = firstOutput[state]; out >= 0; out = this.nextOutput[out]) {
        const end = i + 1;
        const start = end - this.depth[out];
        for (let k = this.outputStart[out]; k < this.outputStart[out + 1]; k++) {
          const keyword = this.keywords[this.outputKeywords[k]];
          if (keyword.bounds & STARTS_WORD && !text.startsWord(start)) continue;
          if (keyword.bounds & ENDS_WORD && !text.endsWord(end)) continue;
          const extentStart = keyword.bounds & STARTS_WORD ? start : text.wordStart(start);
          const extentEnd = keyword.bounds & ENDS_WORD ? end : text.wordEnd(end);
          const occurrence = { keyword, start, end, extentStart, extentEnd };
          if (visit(occurrence)) return occurrence;
        }
      }
    }
    return null;
  }

  /** The child of `state` on class `cls`, or -1. */
  private child(state: number, cls: number): number {
    let low = this.childStart[state];
    let high = this.childStart[state + 1] - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      const at = this.childClass[mid];
      if (at === cls) return this.childState[mid];
      if (at < cls) low = mid + 1;
      else high = mid - 1;
    }
    return -1;
  }
}

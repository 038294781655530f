// Regular expressions as AutoMod runs them. Discord runs a rule's regex_patterns with Rust's regex crate; Guildhall
// runs them with re2js, RE2's linear-time engine in JavaScript. Both are of one family (automata, no backtracking),
// so what Rust refuses for its engine's sake (backreferences, lookaround) RE2 refuses too, and no pattern can stall
// the server however a message reads. Known differences, rare in moderators' patterns: RE2's \b, \w, \d and \s are
// ASCII where Rust's are Unicode; Rust's class operations ([a-z&&[^aeiou]]) read here as literal characters; RE2
// accepts \Q…\E, which Rust refuses. Also used by the raid cleanup's name filter (lib/moderation/raid-filter.ts).
import { RE2JS, RE2Set } from "re2js";

export type RegexCheck = { ok: true } | { ok: false; message: string };

export type CompiledRegex = { ok: true; regex: RE2JS } | { ok: false; message: string };

/**
 * AutoMod's patterns ignore case, as Discord says: "Case-insensitive and unicode support flags are on by default for
 * every regex pattern" (support.discord.com, "Filter Messages Using Regular Expressions (Regex)", article
 * 10069840290711). A pattern makes case count again with (?-i), as in Rust. (Unicode: RE2 reads text as code points
 * and knows \p{…} classes without a flag.)
 */
const AUTOMOD_REGEX_FLAGS = RE2JS.CASE_INSENSITIVE;

/** The pattern compiled on the linear-time engine, or the engine's reason for refusing it. */
export function compileRegex(pattern: string, { ignoreCase = false }: { ignoreCase?: boolean } = {}): CompiledRegex {
  const flags = ignoreCase ? RE2JS.CASE_INSENSITIVE : 0;
  try {
    return { ok: true, regex: RE2JS.compile(pattern, flags) };
  } catch (error) {
    // Flags reach the parser as a prefix ("(?i)"), which its messages quote: ask again without them so the message
    // quotes only what was written.
    let reason = error;
    if (flags !== 0) {
      try {
        RE2JS.compile(pattern);
      } catch (plain) {
        reason = plain;
      }
    }
    return { ok: false, message: describeRefusal(reason instanceof Error ? reason.message : String(reason)) };
  }
}

/** Whether Discord (Rust's regex crate) would accept the pattern: syntax errors, backreferences, lookaround are refused with the engine's message. */
export function checkRegexPattern(pattern: string): RegexCheck {
  const compiled = compileRegex(pattern, { ignoreCase: true });
  return compiled.ok ? { ok: true } : compiled;
}

/**
 * The engine's message without its prefix. RE2 reads a lookbehind as a malformed named group and a backreference as
 * an unknown escape; for those two it says what Rust's crate says, quoting the same fragment.
 */
function describeRefusal(message: string): string {
  const text = message.replace(/^error parsing regexp: /, "");
  const lookaround = /`(\(\?<?[=!])/.exec(text);
  if (lookaround) return `look-around, including look-ahead and look-behind, is not supported: \`${lookaround[1]}\``;
  const backreference = /^invalid escape sequence: `(\\[1-9])`/.exec(text);
  if (backreference) return `backreferences are not supported: \`${backreference[1]}\``;
  return text;
}

/** One occurrence of a pattern of a RegexList in the text, in UTF-16 indices. */
export interface RegexOccurrence {
  pattern: number;
  start: number;
  end: number;
  text: string;
}

/**
 * A rule's patterns compiled once. One pass of a combined automaton (RE2's set matching) says which patterns match
 * at all, so a clean message costs one scan however many patterns there are; only a pattern that matches is run
 * again to find where (RE2 finds positions with a slower engine than the one that answers yes or no).
 */
export class RegexList {
  private constructor(
    readonly patterns: readonly string[],
    private readonly regexes: readonly RE2JS[],
    private readonly set: RE2Set | null,
  ) {}

  /** Throws if a pattern is refused: rules are checked with checkRegexPattern when they are written. */
  static compile(patterns: readonly string[]): RegexList {
    const regexes = patterns.map((pattern) => {
      const compiled = compileRegex(pattern, { ignoreCase: true });
      if (!compiled.ok) throw new Error(`AutoMod pattern ${JSON.stringify(pattern)} refused: ${compiled.message}`);
      return compiled.regex;
    });
    let set: RE2Set | null = null;
    if (patterns.length > 1) {
      set = new RE2Set(RE2Set.UNANCHORED, AUTOMOD_REGEX_FLAGS);
      for (const pattern of patterns) set.add(pattern);
      set.compile();
    }
    return new RegexList(patterns, regexes, set);
  }

  /**
   * The first occurrence, pattern by pattern in the rule's order and left to right within one, that `accept` takes
   * (an allow list turns some down); null if none.
   */
  find(content: string, accept: (start: number, end: number) => boolean): RegexOccurrence | null {
    if (this.regexes.length === 0) return null;
    // Set or single, the yes-or-no engine answers first.
    const candidates = this.set ? this.set.match(content) : this.regexes[0].test(content) ? [0] : [];
    for (const pattern of candidates) {
      const matcher = this.regexes[pattern].matcher(content);
      while (matcher.find()) {
        const start = matcher.start();
        const end = matcher.end();
        if (accept(start, end)) return { pattern, start, end, text: content.slice(start, end) };
      }
    }
    return null;
  }
}

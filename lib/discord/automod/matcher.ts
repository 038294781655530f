// AutoMod's one matcher (issue #33): whether a message's content (or a member's profile) triggers a rule, and what
// in it did. Pure: the built-in API runs it on every message, the dashboard on the text a moderator tries a rule on.
// Rules compile once (cache the compiled trigger per rule: rules change rarely, messages are many). Keywords and
// allow_list entries: ./keywords.ts; regular expressions: ./regex.ts; the presets' words: ./presets.ts.
//
// A keyword rule triggers when one of its keywords or regex_patterns matches and no allow_list entry covers what it
// matched. Discord documents allow_list as "substrings which should not trigger the rule", the rule's patterns
// included, so an entry exempts a regex's match as it does a keyword's: an occurrence is exempt when an entry's own
// match (grown to the ends of its words on its wildcard sides) contains it. The matcher then looks on for another.
import { FoldedText, KeywordList } from "./keywords";
import { KEYWORD_PRESET_WORDS } from "./presets";
import { RegexList } from "./regex";
import type { KeywordPresetType, KeywordTrigger } from "./rules";

export { checkRegexPattern, type RegexCheck } from "./regex";

export interface TriggerMatch {
  kind: "keyword" | "regex" | "preset" | "mention";
  /**
   * The rule's keyword or pattern that matched, as the rule lists it (for presets: the preset's word; for mention
   * spam: the first mention past the limit, as <@id> or <@&id>).
   */
  pattern: string;
  /** The text it matched in the content (for a wildcard keyword, the whole word: "location" for *cat*). */
  matched: string;
  /** Offset (UTF-16 index) of `matched` in the content. */
  index: number;
}

/** A keyword/member-profile trigger compiled once (cache it per rule: rules change rarely, messages are many). */
export interface CompiledKeywordTrigger {
  match(content: string): TriggerMatch | null;
}

/** A keyword or member-profile rule's trigger, compiled. Throws on a pattern checkRegexPattern refuses. */
export function compileKeywordTrigger(trigger: KeywordTrigger): CompiledKeywordTrigger {
  return compileTrigger("keyword", trigger.keyword_filter, trigger.allow_list, trigger.regex_patterns);
}

/** Keyword presets (1 PROFANITY, 2 SEXUAL_CONTENT, 3 SLURS) with an allow_list. */
export function compilePresetTrigger(presets: readonly number[], allowList: readonly string[]): CompiledKeywordTrigger {
  const words = new Set<string>();
  for (const preset of presets)
    for (const word of KEYWORD_PRESET_WORDS[preset as KeywordPresetType] ?? []) words.add(word);
  return compileTrigger("preset", [...words], allowList, []);
}

/** <@id> and <@!id> mention a user, <@&id> a role. */
const MENTION = /<@([!&]?)([1-9]\d{0,19})>/g;

/** Mention spam: unique user and role mentions (<@id>, <@!id>, <@&id>) in the content, beyond `limit`. */
export function matchMentionSpam(content: string, limit: number): TriggerMatch | null {
  if (!content.includes("<@")) return null;
  const seen = new Set<string>();
  for (const mention of content.matchAll(MENTION)) {
    const key = mention[1] === "&" ? `<@&${mention[2]}>` : `<@${mention[2]}>`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (seen.size > limit) return { kind: "mention", pattern: key, matched: mention[0], index: mention.index };
  }
  return null;
}

/** The last content folded: the rules of a guild read the same message one after another. */
let lastText: FoldedText | null = null;

function foldedText(content: string): FoldedText {
  if (lastText?.original !== content) lastText = new FoldedText(content);
  return lastText;
}

function compileTrigger(
  kind: "keyword" | "preset",
  keywordPatterns: readonly string[],
  allowPatterns: readonly string[],
  regexPatterns: readonly string[],
): CompiledKeywordTrigger {
  const keywords = new KeywordList(keywordPatterns);
  const allowList = new KeywordList(allowPatterns);
  const regexes = RegexList.compile(regexPatterns);
  return {
    match(content) {
      const text = foldedText(content);
      // Whether an occurrence counts: no allow_list entry covers it. The entries' reach is worked out once per
      // message, and only when something matched.
      let reach: Int32Array | null = null;
      const counts = (start: number, end: number) => {
        if (allowList.empty) return true;
        reach ??= allowList.reach(text);
        return reach[start] < end;
      };
      const keyword = keywords.find(text, counts);
      if (keyword) {
        const index = text.originalIndex(keyword.extentStart);
        const matched = content.slice(index, text.originalIndex(keyword.extentEnd));
        return { kind, pattern: keyword.keyword.pattern, matched, index };
      }
      const regex = regexes.find(content, (start, end) => counts(text.foldedIndex(start), text.foldedIndex(end)));
      if (regex)
        return { kind: "regex", pattern: regexes.patterns[regex.pattern], matched: regex.text, index: regex.start };
      return null;
    },
  };
}

import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { FoldedText, KeywordList } from "@/lib/discord/automod/keywords";
import {
  checkRegexPattern,
  compileKeywordTrigger,
  compilePresetTrigger,
  matchMentionSpam,
  type TriggerMatch,
} from "@/lib/discord/automod/matcher";
import { KeywordPresetType } from "@/lib/discord/automod/rules";

const rule = (keyword_filter: string[], allow_list: string[] = [], regex_patterns: string[] = []) =>
  compileKeywordTrigger({ keyword_filter, allow_list, regex_patterns });
const matched = (keywords: string[], content: string, allow: string[] = []) =>
  rule(keywords, allow).match(content)?.matched ?? null;

describe("keywords, as Discord's Keyword Matching Strategies table has them", () => {
  test("prefix: the word must start with the keyword", () => {
    expect(matched(["cat*"], "catch")).toBe("catch");
    expect(matched(["cat*"], "a Catapult!")).toBe("Catapult");
    expect(matched(["cat*"], "CAttLE")).toBe("CAttLE");
    expect(matched(["tra*"], "the TRAditional train")).toBe("TRAditional");
    expect(matched(["the mat*"], "into the matrix")).toBe("the matrix");
    expect(matched(["cat*"], "wildcat, location")).toBeNull();
    expect(matched(["the mat*"], "breathe matter")).toBeNull();
  });

  test("suffix: the word must end with the keyword", () => {
    expect(matched(["*cat"], "wildcat")).toBe("wildcat");
    expect(matched(["*cat"], "a copyCat.")).toBe("copyCat");
    expect(matched(["*tra"], "orchesTRA")).toBe("orchesTRA");
    expect(matched(["*the mat"], "breathe mat")).toBe("breathe mat");
    expect(matched(["*cat"], "catch location")).toBeNull();
    expect(matched(["*the mat"], "breathe matter")).toBeNull();
  });

  test("anywhere: the keyword may sit inside a word, and the match is the whole word", () => {
    expect(matched(["*cat*"], "location")).toBe("location");
    expect(matched(["*cat*"], "eduCation")).toBe("eduCation");
    expect(matched(["*tra*"], "abstracted")).toBe("abstracted");
    expect(matched(["*the mat*"], "breathe matter")).toBe("breathe matter");
    expect(matched(["*cat*"], "a dog")).toBeNull();
  });

  test("whole word: boundaries are anything but letters and digits, or the ends", () => {
    expect(matched(["cat"], "my cat!")).toBe("cat");
    expect(matched(["cat"], "Cat")).toBe("Cat");
    expect(matched(["cat"], "(cat)")).toBe("cat");
    expect(matched(["the mat"], "on the mat.")).toBe("the mat");
    expect(matched(["cat"], "catch")).toBeNull();
    expect(matched(["cat"], "wildcat")).toBeNull();
    expect(matched(["cat"], "cat5")).toBeNull();
    expect(matched(["cat"], "5cat")).toBeNull();
    expect(matched(["the mat"], "the matrix")).toBeNull();
    expect(matched(["i like c++"], "I like C++!")).toBe("I like C++");
  });

  test("case does not count, in the keyword or the content", () => {
    expect(matched(["CaT"], "CAT")).toBe("CAT");
    expect(matched(["BAD WORD*"], "a Bad Wording")).toBe("Bad Wording");
  });

  test("Unicode words: accented letters belong to the word, and lowercase beyond ASCII", () => {
    expect(matched(["café"], "Un CAFÉ noir")).toBe("CAFÉ");
    expect(matched(["caf"], "Café")).toBeNull();
    expect(matched(["caf*"], "Café")).toBe("Café");
    expect(matched(["*fé"], "CAFÉ")).toBe("CAFÉ");
    expect(matched(["über*"], "ÜBERALL")).toBe("ÜBERALL");
    expect(matched(["мир"], "Привет, МИР!")).toBe("МИР");
    expect(matched(["мир"], "мирный")).toBeNull();
    // A combining accent is part of its word (e + U+0301).
    expect(matched(["cafe"], "cafe\u0301")).toBeNull();
    // Greek's final sigma and sigma are one letter.
    expect(matched(["οδοσ*"], "ΟΔΟΣ")).toBe("ΟΔΟΣ");
  });

  test("offsets are the content's, even where lowercasing changes a length (İ becomes two units)", () => {
    const match = rule(["x"]).match("İİ x");
    expect(match).toEqual({ kind: "keyword", pattern: "x", matched: "x", index: 3 });
    expect(rule(["*cat*"]).match("İ eduCation")).toMatchObject({ matched: "eduCation", index: 2 });
    expect(rule(["😀 cat"]).match("a 😀 CAT")).toMatchObject({ matched: "😀 CAT", index: 2 });
  });

  test("the match names the keyword as the rule lists it", () => {
    expect(rule(["dog", "*CAT*"]).match("two locations")).toEqual({
      kind: "keyword",
      pattern: "*CAT*",
      matched: "locations",
      index: 4,
    });
  });

  test("a keyword that is only wildcards matches nothing", () => {
    expect(rule(["*", "**"]).match("anything at all")).toBeNull();
  });
});

describe("allow_list", () => {
  test("an entry covering what a keyword matched exempts that occurrence, and the matcher looks on", () => {
    expect(matched(["*cat*"], "education", ["education"])).toBeNull();
    expect(matched(["*cat*"], "education", ["location"])).toBe("education");
    expect(matched(["*cat*"], "education location", ["education"])).toBe("location");
    expect(matched(["*cat*"], "location, education", ["education"])).toBe("location");
    expect(matched(["cat*"], "catalog catch", ["catalog"])).toBe("catch");
  });

  test("entries use the same wildcard forms", () => {
    expect(matched(["*cat*"], "education educated", ["edu*"])).toBeNull();
    expect(matched(["*cat*"], "vacation", ["*tion"])).toBeNull();
    expect(matched(["*cat*"], "vacations", ["*tion"])).toBe("vacations");
    expect(matched(["ass"], "ass", ["*ass*"])).toBeNull();
  });

  test("a phrase on the allow list covers a keyword inside it", () => {
    expect(matched(["cat"], "the cat food is here", ["cat food"])).toBeNull();
    expect(matched(["cat"], "the cat sat", ["cat food"])).toBe("cat");
  });

  test("an entry inside the match does not cover it", () => {
    expect(matched(["*cat*"], "location", ["cat"])).toBe("location");
  });

  test("an entry exempts a regex's match it covers", () => {
    const trigger = rule([], ["education"], ["cat"]);
    expect(trigger.match("education")).toBeNull();
    expect(trigger.match("education cat")).toEqual({ kind: "regex", pattern: "cat", matched: "cat", index: 10 });
  });
});

describe("regular expressions", () => {
  test("Discord's engine refuses backreferences, lookaround and syntax errors, with a message", () => {
    for (const pattern of ["(a)\\1", "(?=x)", "(?!x)", "(?<!x)", "(?<=x)y", "(a", "a)", "[a-", "a{1001}"]) {
      const check = checkRegexPattern(pattern);
      expect(check, pattern).toMatchObject({ ok: false, message: expect.any(String) });
    }
    expect(checkRegexPattern("(a)\\1")).toEqual({ ok: false, message: "backreferences are not supported: `\\1`" });
    expect(checkRegexPattern("(?<!x)")).toMatchObject({ message: expect.stringContaining("look-around") });
    expect(checkRegexPattern("(?=x)")).toMatchObject({ message: expect.stringContaining("look-around") });
    // The message quotes the pattern as written, without the case flag the matcher adds.
    expect(checkRegexPattern("(a")).toEqual({ ok: false, message: "missing closing ): `(a`" });
  });

  test("ordinary patterns are accepted", () => {
    for (const pattern of [
      "\\bfoo\\b",
      "(?i)bar",
      "[a-z]{3,}",
      "(b|c)at",
      "^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$",
      "\\p{L}+",
    ])
      expect(checkRegexPattern(pattern), pattern).toEqual({ ok: true });
  });

  test("patterns ignore case unless they say (?-i), as Discord's are", () => {
    expect(rule([], [], ["free nitro"]).match("get FREE Nitro now")).toEqual({
      kind: "regex",
      pattern: "free nitro",
      matched: "FREE Nitro",
      index: 4,
    });
    expect(rule([], [], ["(?-i)free"]).match("FREE")).toBeNull();
    expect(rule([], [], ["(?-i)free"]).match("free")).not.toBeNull();
  });

  test("any of several patterns matches; a keyword or a regex triggers the rule", () => {
    const trigger = rule(["dog"], [], ["(b|c)at", "^(?:[0-9]{1,3}\\.){3}[0-9]{1,3}$", "x{3}"]);
    expect(trigger.match("10.0.0.1")).toMatchObject({ kind: "regex", matched: "10.0.0.1", index: 0 });
    expect(trigger.match("one bat")).toMatchObject({ kind: "regex", pattern: "(b|c)at", matched: "bat", index: 4 });
    expect(trigger.match("xx xxx")).toMatchObject({ pattern: "x{3}", index: 3 });
    expect(trigger.match("my dog")).toMatchObject({ kind: "keyword", pattern: "dog" });
    expect(trigger.match("nothing here")).toBeNull();
  });

  test("a rule with a refused pattern does not compile", () => {
    expect(() => rule([], [], ["(a)\\1"])).toThrow(/backreferences/);
  });

  test("a pattern that makes backtracking engines explode answers at once", () => {
    const trigger = rule([], [], ["(a+)+$"]);
    const started = performance.now();
    expect(trigger.match("a".repeat(30) + "!")).toBeNull();
    expect(rule([], [], ["(a+)+$", "(x+x+)+y"]).match("a".repeat(30) + "!" + "x".repeat(40))).toBeNull();
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe("keyword presets", () => {
  test("each preset's words match; an allow_list entry exempts one", () => {
    expect(compilePresetTrigger([KeywordPresetType.Profanity], []).match("what the FUCK")).toMatchObject({
      kind: "preset",
      pattern: "*fuck*",
      matched: "FUCK",
    });
    expect(compilePresetTrigger([KeywordPresetType.SexualContent], []).match("send nudes")).toMatchObject({
      pattern: "nudes",
    });
    expect(compilePresetTrigger([KeywordPresetType.Slurs], []).match("you retard")).toMatchObject({
      pattern: "retard",
    });
    expect(compilePresetTrigger([KeywordPresetType.Profanity], ["*fuck*"]).match("what the fuck")).toBeNull();
  });

  test("only the chosen presets count, and innocent longer words do not", () => {
    expect(compilePresetTrigger([KeywordPresetType.Profanity], []).match("send nudes")).toBeNull();
    expect(compilePresetTrigger([], []).match("what the fuck")).toBeNull();
    const all = compilePresetTrigger([1, 2, 3], []);
    for (const innocent of ["a document", "some spice", "the raccoon", "Scunthorpe United", "analysis", "Sussex"])
      expect(all.match(innocent), innocent).toBeNull();
  });
});

describe("mention spam", () => {
  const id = (n: number) => String(100000000000000000n + BigInt(n));
  const user = (n: number) => `<@${id(n)}>`;
  const role = (n: number) => `<@&${id(n)}>`;

  test("unique user and role mentions beyond the limit trigger it", () => {
    expect(matchMentionSpam(`${user(1)} ${user(2)} ${role(1)}`, 3)).toBeNull();
    expect(matchMentionSpam(`${user(1)} ${user(2)} ${role(1)} hi ${user(3)}`, 3)).toEqual({
      kind: "mention",
      pattern: user(3),
      matched: user(3),
      index: 70,
    });
  });

  test("a user mentioned again, with or without the nickname form, counts once; a role and a user are two", () => {
    const nick = `<@!${id(1)}>`;
    expect(matchMentionSpam(`${user(1)} ${user(1)} ${nick} ${user(1)}`, 1)).toBeNull();
    expect(matchMentionSpam(`${user(1)}${role(1)}`, 1)).toMatchObject({ pattern: role(1) });
  });

  test("text that only looks like a mention does not count", () => {
    expect(matchMentionSpam("<@> <@abc> <#123456789012345678> @everyone @here <@!&1>", 0)).toBeNull();
  });
});

// ---- Properties, against a slow, obviously correct reading of Discord's rules. ----

const isWordChar = (char: string) => /[\p{L}\p{N}\p{M}]/u.test(char);

interface Expected {
  pattern: string;
  matched: string;
  index: number;
}

/** Every occurrence of `patterns` in `content` that meets its boundaries, with its extent (grown on wildcard sides). */
function naiveOccurrences(
  patterns: readonly string[],
  content: string,
): { pattern: string; start: number; end: number }[] {
  // The alphabet below keeps lengths under lowercasing, so indices are shared.
  const text = content.toLowerCase();
  const found: { pattern: string; start: number; end: number }[] = [];
  for (const pattern of patterns) {
    const prefixWildcard = pattern.startsWith("*");
    const suffixWildcard = pattern.length > 1 && pattern.endsWith("*");
    const core = pattern.slice(prefixWildcard ? 1 : 0, suffixWildcard ? -1 : undefined).toLowerCase();
    if (!core) continue;
    for (let i = 0; i + core.length <= text.length; i++) {
      if (text.slice(i, i + core.length) !== core) continue;
      let start = i;
      let end = i + core.length;
      const atWordStart = start === 0 || !isWordChar(text[start - 1]);
      const atWordEnd = end === text.length || !isWordChar(text[end]);
      if (!prefixWildcard && !atWordStart) continue;
      if (!suffixWildcard && !atWordEnd) continue;
      if (prefixWildcard) while (start > 0 && isWordChar(text[start - 1])) start--;
      if (suffixWildcard) while (end < text.length && isWordChar(text[end])) end++;
      found.push({ pattern, start, end });
    }
  }
  return found;
}

function naiveMatches(keywords: readonly string[], allow: readonly string[], content: string): Expected[] {
  const allowed = naiveOccurrences(allow, content);
  return naiveOccurrences(keywords, content)
    .filter(({ start, end }) => !allowed.some((entry) => entry.start <= start && entry.end >= end))
    .map(({ pattern, start, end }) => ({ pattern, matched: content.slice(start, end), index: start }));
}

const WORDS = [
  "cat",
  "Cat",
  "catch",
  "wildcat",
  "location",
  "education",
  "the",
  "mat",
  "matrix",
  "breathe",
  "café",
  "CAFÉ",
  "a",
  "ab",
  "aba",
  "über",
  "naïve",
  "x1",
  "42",
  "мир",
];
const SEPARATORS = [" ", " ", " ", "  ", ", ", "!", "-", "\n", "'", "."];

const word = fc.constantFrom(...WORDS);
/** Texts of the small alphabet; an empty separator glues two words into one. */
const text = fc
  .array(fc.tuple(word, fc.constantFrom(...SEPARATORS, "")), { maxLength: 14 })
  .map((parts) => parts.map(([w, separator]) => w + separator).join(""));
/** A piece of a word, a word or two words, in one of the four forms. */
const keyword = fc
  .tuple(
    fc.oneof(
      word,
      word.chain((w) =>
        fc.tuple(fc.nat(w.length), fc.nat(w.length)).map(([a, b]) => w.slice(Math.min(a, b), Math.max(a, b) + 1)),
      ),
      fc.tuple(word, word).map(([a, b]) => `${a} ${b}`),
    ),
    fc.boolean(),
    fc.boolean(),
  )
  .map(([core, before, after]) => `${before ? "*" : ""}${core}${after ? "*" : ""}`);

const asExpected = (match: TriggerMatch | null): Expected | null =>
  match && { pattern: match.pattern, matched: match.matched, index: match.index };

describe("properties", () => {
  test("the compiled matcher agrees with the naive reading: it finds a match exactly when there is one, and a real one", () => {
    fc.assert(
      fc.property(
        fc.array(keyword, { maxLength: 12 }),
        fc.array(keyword, { maxLength: 4 }),
        text,
        (keywords, allow, content) => {
          const expected = naiveMatches(keywords, allow, content);
          const actual = asExpected(rule(keywords, allow).match(content));
          if (expected.length === 0) expect(actual).toBeNull();
          else expect(expected).toContainEqual(actual);
        },
      ),
      { numRuns: 600 },
    );
  });

  test("sparse states (past the dense rows' budget) find what dense rows find", () => {
    fc.assert(
      fc.property(fc.array(keyword, { minLength: 1, maxLength: 30 }), text, (keywords, content) => {
        const folded = new FoldedText(content);
        const dense = new KeywordList(keywords).find(folded);
        for (const denseEntries of [0, 40, 200])
          expect(new KeywordList(keywords, { denseEntries }).find(folded)).toEqual(dense);
      }),
      { numRuns: 300 },
    );
  });

  test("a word of the text, as a whole-word keyword, always matches it", () => {
    const separated = fc.array(fc.tuple(word, fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 14 });
    fc.assert(
      fc.property(separated, fc.nat(), fc.boolean(), (parts, pick, upper) => {
        const content = parts.map(([w, separator]) => w + separator).join("");
        const chosen = parts[pick % parts.length][0];
        const match = rule([upper ? chosen.toUpperCase() : chosen]).match(content);
        expect(match?.matched.toLowerCase()).toBe(chosen.toLowerCase());
      }),
      { numRuns: 300 },
    );
  });

  test("adding an allow_list entry equal to a keyword never makes a match appear, and exempts that keyword", () => {
    fc.assert(
      fc.property(
        fc.array(keyword, { minLength: 1, maxLength: 8 }),
        fc.array(keyword, { maxLength: 3 }),
        fc.nat(),
        text,
        (keywords, allow, pick, content) => {
          const chosen = keywords[pick % keywords.length];
          const before = rule(keywords, allow).match(content);
          const after = rule(keywords, [...allow, chosen]).match(content);
          if (before === null) expect(after).toBeNull();
          expect(rule([chosen], [chosen]).match(content)).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  });
});

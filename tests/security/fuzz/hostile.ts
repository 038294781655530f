// Hostile inputs, as raw JSON text fragments or plain strings, so values JSON.stringify cannot express (numbers above
// 2^53 and 2^63 that must stay exact, lone surrogates as \u escapes, invalid JSON) reach the server byte for byte.
import fc from "fast-check";

const LONG = 100_000;

/** Strings that have broken parsers, sanitisers and databases before: control, bidi, zero-width, surrogates, emoji. */
export const HOSTILE_STRINGS: readonly string[] = [
  "",
  " ",
  "   \t\n ",
  "\u0000",
  "a\u0000b",
  "\u0007\u001b[31m",
  "\u202eevil\u202c",
  "\u200b",
  "\u200b\u200c\u200d\ufeff",
  "\ud800",
  "\udfff",
  "a\ud83db",
  "🛡️👨‍👩‍👧‍👦",
  "Ｇｕｉｌｄ",
  "e\u0301\u0301\u0301\u0301",
  "'; DROP TABLE members; --",
  "<script>alert(1)</script>",
  "${jndi:ldap://x}",
  "%00",
  "%",
  "../../etc/passwd",
  "null",
  "true",
  "-1",
  "__proto__",
  "constructor",
  "x".repeat(101),
  "y".repeat(1025),
  "z".repeat(LONG),
  "😀".repeat(5000),
];

/** Snowflake-shaped and not: zero, negative, above 2^53, at and above 2^63 and 2^64, padded, fractional, words. */
export const HOSTILE_SNOWFLAKES: readonly string[] = [
  "0",
  "-1",
  "1",
  "01",
  "00000000000000000000001",
  " 1",
  "1 ",
  "+1",
  "1.0",
  "1e3",
  "0x1F",
  "NaN",
  "Infinity",
  "9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "18446744073709551615",
  "18446744073709551616",
  "99999999999999999999",
  "123456789012345678901234567890",
  "-9223372036854775809",
  "１２３",
  "@me",
  "null",
  "abc",
  "",
  "9".repeat(400),
];

/** JSON number literals that stress number parsing and integer columns (kept as text, never rounded by JS). */
export const HOSTILE_NUMBER_LITERALS: readonly string[] = [
  "0",
  "-0",
  "-1",
  "0.5",
  "1e-7",
  "2147483648",
  "4294967296",
  "9007199254740992",
  "9007199254740993",
  "9223372036854775807",
  "9223372036854775808",
  "-9223372036854775809",
  "18446744073709551616",
  "99999999999999999999",
  "1e308",
  "1e309",
  "-1e309",
  "1E400",
  "123456789012345678901234567890.5",
];

/** JSON texts that are not what any operation expects, or not JSON at all. */
export const HOSTILE_BODY_TEXTS: readonly string[] = [
  "",
  " ",
  "null",
  "true",
  "0",
  "-1",
  "99999999999999999999",
  '"text"',
  "[]",
  "[{}]",
  "{}",
  "{",
  "}",
  "{'a': 1}",
  '{"a": 1,}',
  '{"a": NaN}',
  '{"a": undefined}',
  '{"a": 1} trailing',
  "\u0000",
  "\ufeff{}",
  '{"__proto__": {"admin": true}}',
  '{"constructor": {"prototype": {"admin": true}}}',
  '"\\ud800"',
  '{"\\u0000": 1}',
  `${"[".repeat(5000)}${"]".repeat(5000)}`,
  `${'{"a":'.repeat(3000)}1${"}".repeat(3000)}`,
  `${"[".repeat(200_000)}${"]".repeat(200_000)}`,
];

const jsonString = (value: string) => JSON.stringify(value);

/** A JSON text fragment for one value: hostile numbers, strings, snowflakes, wrong types, deep nesting. */
export const hostileJsonFragment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_NUMBER_LITERALS),
  fc.constantFrom(...HOSTILE_STRINGS).map(jsonString),
  fc.constantFrom(...HOSTILE_SNOWFLAKES).map(jsonString),
  // Lone surrogates survive only as escapes: JSON.stringify would keep them, but UTF-8 encoding of the body would not.
  fc.constantFrom('"\\ud800"', '"a\\udc00b"', '"\\u0000"', '"\\u202e\\u200b"'),
  fc.constantFrom("null", "true", "false", "[]", "{}", '[""]', "[null]", '{"id": {}}', "[[[[[]]]]]"),
  fc.integer({ min: 1, max: 2000 }).map((depth) => `${"[".repeat(depth)}${"]".repeat(depth)}`),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.string({ unit: "binary", maxLength: 40 }).map(jsonString),
  fc.array(fc.constantFrom(...HOSTILE_SNOWFLAKES), { maxLength: 4 }).map((ids) => JSON.stringify(ids)),
);

/** A query or path value: hostile strings and snowflakes, plus arbitrary text. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...HOSTILE_SNOWFLAKES),
  fc.constantFrom(...HOSTILE_STRINGS.filter((s) => s.length < 2000)),
  fc.constantFrom(...HOSTILE_NUMBER_LITERALS),
  fc.constantFrom("true", "false", "True", "1", "0", "yes", "[]", "{}", "undefined"),
  fc.string({ unit: "binary", maxLength: 30 }),
);

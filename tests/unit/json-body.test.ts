// The request JSON parser: JSON.parse's results, except integers beyond 2^53 (kept exact as bigint), repeated keys and
// nesting past MAX_JSON_DEPTH (refused), and "__proto__" (an own key).
import { describe, expect, test } from "vitest";
import { JsonBodyError, MAX_JSON_DEPTH, parseJsonBody } from "@/lib/guild-api/json-body";

describe("parseJsonBody", () => {
  test("agrees with JSON.parse on ordinary documents", () => {
    for (const text of [
      '{"a":1,"b":[true,false,null],"c":"x\\"y\\\\z\\u00e9\\n","d":-0.5e-3,"e":{}}',
      " [ 1 , 2 ] ",
      '"plain"',
      "0",
      "-12",
      "1E+2",
      '{"long":"' + "a".repeat(100_000) + '"}',
    ])
      expect(parseJsonBody(text)).toEqual(JSON.parse(text));
  });

  test("integers beyond 2^53 are exact bigints; safe integers and other numbers stay numbers", () => {
    expect(parseJsonBody('{"id":1100000000000000001,"neg":-9007199254740993}')).toEqual({
      id: 1100000000000000001n,
      neg: -9007199254740993n,
    });
    expect(parseJsonBody("[9007199254740991, 1.5, 1e21]")).toEqual([9007199254740991, 1.5, 1e21]);
  });

  test("refuses what JSON.parse refuses", () => {
    for (const text of [
      "",
      "01",
      "[1,]",
      '{"a":1,}',
      "tru",
      '"\\x"',
      '"\u0001"',
      "-",
      "1.",
      ".5",
      "+1",
      '"abc',
      "[1",
      "{} {}",
    ])
      expect(() => parseJsonBody(text), text).toThrow(JsonBodyError);
  });

  test("refuses a repeated key, even with the same value", () => {
    expect(() => parseJsonBody('{"a":1,"a":2}')).toThrow(/Duplicate key "a"/);
    expect(() => parseJsonBody('{"a":1,"b":{"c":1,"c":1}}')).toThrow(JsonBodyError);
    expect(parseJsonBody('[{"a":1},{"a":2}]')).toEqual([{ a: 1 }, { a: 2 }]);
  });

  test(`refuses nesting deeper than ${MAX_JSON_DEPTH} levels without exhausting the stack`, () => {
    const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseJsonBody(nested(MAX_JSON_DEPTH + 1))).toThrow(/Nested deeper/);
    expect(() => parseJsonBody(nested(1_000_000))).toThrow(JsonBodyError);
  });

  test('"__proto__" is an own key and never a prototype', () => {
    const value = parseJsonBody('{"__proto__":{"admin":true}}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["__proto__"]);
    expect((value as { admin?: boolean }).admin).toBeUndefined();
  });
});

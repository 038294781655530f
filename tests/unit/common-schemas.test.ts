// Shared field schemas: snowflakes as string or integer within 64 bits, Discord's booleans, names, ISO timestamps.
import { describe, expect, test } from "vitest";
import { z } from "zod";
import {
  bodyBoolean,
  booleanQuery,
  displayName,
  isoTimestamp,
  snowflake,
  snowflakeCursor,
} from "@/lib/guild-api/schemas/common";

const ok = <S extends z.ZodType>(schema: S, value: unknown) => schema.parse(value) as z.output<S>;
const refused = (schema: z.ZodType, value: unknown) =>
  expect(schema.safeParse(value).success, String(value)).toBe(false);

describe("snowflake", () => {
  test("a decimal string or an integer (number or exact bigint), as its decimal string", () => {
    expect(ok(snowflake, "1100000000000000001")).toBe("1100000000000000001");
    expect(ok(snowflake, 1100000000000000001n)).toBe("1100000000000000001");
    expect(ok(snowflake, 42)).toBe("42");
    expect(ok(snowflake, "9223372036854775807")).toBe("9223372036854775807");
  });

  test("refuses 0, negatives, 2^63 and above, fractions, unsafe numbers, other types", () => {
    for (const value of [
      "0",
      0,
      -1,
      "-1",
      "9223372036854775808",
      9223372036854775808n,
      "99999999999999999999",
      1.5,
      2 ** 60,
      "01",
      " 1",
      true,
      null,
      {},
      [],
    ])
      refused(snowflake, value);
  });

  test("cursors take 0", () => {
    expect(ok(snowflakeCursor, "0")).toBe("0");
    refused(snowflakeCursor, "9223372036854775808");
  });
});

describe("booleans", () => {
  test("query strings: true/false/True/False/1/0, absent is false", () => {
    for (const [value, expected] of [
      ["true", true],
      ["True", true],
      ["1", true],
      ["false", false],
      ["False", false],
      ["0", false],
      [undefined, false],
    ] as const)
      expect(ok(booleanQuery, value)).toBe(expected);
    refused(booleanQuery, "yes");
  });

  test('bodies: JSON booleans and the same words ("true" as discord.py sends it)', () => {
    expect(ok(bodyBoolean, true)).toBe(true);
    expect(ok(bodyBoolean, "false")).toBe(false);
    expect(ok(bodyBoolean, "True")).toBe(true);
    for (const value of ["yes", 1, null]) refused(bodyBoolean, value);
  });
});

describe("names", () => {
  const name = displayName(z.string().min(1).max(10));
  test("trimmed; whitespace-only is empty; controls and unpaired surrogates refused", () => {
    expect(ok(name, "  crew \t")).toBe("crew");
    for (const value of ["   ", "a\u0000b", "a\u001fb", "a\u007fb", "a\u0085b", "a\ud800b", "\udfff"])
      refused(name, value);
    expect(ok(name, "ok \u{1F600}")).toBe("ok \u{1F600}");
  });
});

describe("isoTimestamp", () => {
  test("ISO 8601 date and time with or without zone (none is UTC); anything else refused", () => {
    expect(ok(isoTimestamp, "2026-01-02T03:04:05Z")).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
    expect(ok(isoTimestamp, "2026-01-02T03:04:05.123456+00:00")).toBe(Date.UTC(2026, 0, 2, 3, 4, 5, 123));
    expect(ok(isoTimestamp, "2026-01-02T03:04:05")).toBe(Date.UTC(2026, 0, 2, 3, 4, 5));
    for (const value of ["-1", "%00", "0", "2026-01-02", "2026-13-02T00:00:00Z", "tomorrow", ""])
      refused(isoTimestamp, value);
  });
});

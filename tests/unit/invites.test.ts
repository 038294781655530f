// Pure pieces of the invites page: relative expiry, reading the API's bad-line messages, counting a CSV's ids.
import { describe, expect, it } from "vitest";
import { formatRelativeTime } from "@/components/ui/relative-time";
import {
  countTargetUserLines,
  CreateInviteFormSchema,
  parseTargetUsersProblem,
} from "@/lib/dashboard/actions/schemas/invites";

const now = Date.UTC(2025, 0, 1);
const MIN = 60_000;

describe("formatRelativeTime", () => {
  it("picks the largest unit the span nearly fills, in both directions", () => {
    expect(formatRelativeTime(now + 59.9 * MIN, now)).toBe("in 1 hour");
    expect(formatRelativeTime(now + 40 * MIN, now)).toBe("in 40 minutes");
    expect(formatRelativeTime(now + 7 * 1440 * MIN, now)).toBe("in 1 week");
    expect(formatRelativeTime(now + 5 * 1440 * MIN, now)).toBe("in 5 days");
    expect(formatRelativeTime(now - 3 * 60 * MIN, now)).toBe("3 hours ago");
    expect(formatRelativeTime(now + 10_000, now)).toBe("in 10 seconds");
    expect(formatRelativeTime(now, now)).toBe("just now");
    expect(formatRelativeTime(now - 400, now)).toBe("just now");
    expect(formatRelativeTime(now - 9_000, now, "de")).toBe("jetzt");
  });
});

describe("target-users files", () => {
  it("splits the API's messages into line and problem", () => {
    expect(parseTargetUsersProblem('line 3: "abc" is not a valid user id')).toEqual({
      line: 3,
      problem: '"abc" is not a valid user id',
    });
    expect(parseTargetUsersProblem("This field is required")).toEqual({
      line: null,
      problem: "This field is required",
    });
  });

  it("counts id lines, not the header, blank lines or a byte-order mark", () => {
    expect(countTargetUserLines('\uFEFFuser_id\r\n1\n\n2\n"3"\n')).toBe(3);
    expect(countTargetUserLines("1\nuser_id\n")).toBe(2);
  });
});

describe("CreateInviteFormSchema", () => {
  it("takes the expiry presets and 0-100 uses only", () => {
    const base = { channelId: "1", temporary: false, unique: false };
    expect(CreateInviteFormSchema.safeParse({ ...base, max_age: 0, max_uses: 100 }).success).toBe(true);
    expect(CreateInviteFormSchema.safeParse({ ...base, max_age: 604_800, max_uses: 0 }).success).toBe(true);
    expect(CreateInviteFormSchema.safeParse({ ...base, max_age: 1000, max_uses: 1 }).success).toBe(false);
    expect(CreateInviteFormSchema.safeParse({ ...base, max_age: 3600, max_uses: -1 }).success).toBe(false);
    expect(CreateInviteFormSchema.safeParse({ ...base, max_age: 3600, max_uses: Number.NaN }).success).toBe(false);
  });
});

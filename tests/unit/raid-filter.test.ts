import { describe, expect, test } from "vitest";
import { snowflakeAt } from "@/lib/discord/snowflake";
import { compileNamePattern, raidMatcher, RaidFilterSchema, type RaidCandidate } from "@/lib/moderation/raid-filter";

const now = Date.UTC(2026, 10, 29, 12, 0, 0);
const DAY = 86_400_000;

const member = (over: Partial<RaidCandidate> & { createdDaysAgo?: number } = {}): RaidCandidate => ({
  id: String(snowflakeAt(now - (over.createdDaysAgo ?? 1) * DAY)),
  username: "raider123",
  globalName: null,
  nick: null,
  avatar: null,
  joinedAt: "2026-11-29T11:30:20.000Z",
  ...over,
});

const filter = (over: Record<string, unknown> = {}) =>
  RaidFilterSchema.parse({ joinedFrom: "2026-11-29T11:30Z", joinedTo: "2026-11-29T11:45Z", ...over });

describe("raid cleanup's filter", () => {
  test("the join window counts to the minute, its last minute included", () => {
    const match = raidMatcher(filter());
    expect(match(member({ joinedAt: "2026-11-29T11:30:00.000Z" }))).toBe(true);
    expect(match(member({ joinedAt: "2026-11-29T11:45:59.999Z" }))).toBe(true);
    expect(match(member({ joinedAt: "2026-11-29T11:29:59.999Z" }))).toBe(false);
    expect(match(member({ joinedAt: "2026-11-29T11:46:00.000Z" }))).toBe(false);
  });

  test("account age, no avatar, and a name pattern over username, global name and nickname, ignoring case", () => {
    // Younger than 7 days when they joined (11:30 today), whenever the cleanup runs.
    const young = raidMatcher(filter({ accountYoungerThanDays: 7 }));
    expect(young(member({ createdDaysAgo: 2 }))).toBe(true);
    expect(young(member({ createdDaysAgo: 6.9 }))).toBe(true);
    expect(young(member({ createdDaysAgo: 7.1 }))).toBe(false);
    expect(young(member({ createdDaysAgo: 30 }))).toBe(false);
    const bare = raidMatcher(filter({ noAvatar: true }));
    expect(bare(member())).toBe(true);
    expect(bare(member({ avatar: "a1b2" }))).toBe(false);
    const named = raidMatcher(filter({ namePattern: "^raider\\d+$" }));
    expect(named(member({ username: "RAIDER77" }))).toBe(true);
    expect(named(member({ username: "friend", nick: "raider9" }))).toBe(true);
    expect(named(member({ username: "friend", globalName: "Raider 9" }))).toBe(false);
  });

  test("patterns the linear-time engine refuses (backreferences, lookaround) are refused with its message", () => {
    expect(compileNamePattern("(a)\\1")).toMatchObject({ ok: false, error: expect.stringContaining("\\1") });
    expect(compileNamePattern("(?=x)")).toMatchObject({ ok: false });
    const parsed = RaidFilterSchema.safeParse({
      joinedFrom: "2026-11-29T11:30Z",
      joinedTo: "2026-11-29T11:45Z",
      namePattern: "(?<=a)b",
    });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]).toMatchObject({ path: ["namePattern"] });
  });

  test("a pattern that makes backtracking engines explode answers at once", () => {
    const match = raidMatcher(filter({ namePattern: "(a+)+$" }));
    const started = performance.now();
    expect(match(member({ username: `${"a".repeat(5_000)}!` }))).toBe(false);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  test("the window must end after it starts and span at most 7 days; times are to the minute", () => {
    expect(RaidFilterSchema.safeParse({ joinedFrom: "2026-11-29T11:30Z", joinedTo: "2026-11-29T11:30Z" }).success).toBe(
      false,
    );
    expect(RaidFilterSchema.safeParse({ joinedFrom: "2026-11-01T00:00Z", joinedTo: "2026-11-29T00:00Z" }).success).toBe(
      false,
    );
    expect(
      RaidFilterSchema.safeParse({ joinedFrom: "2026-11-29T11:30:15Z", joinedTo: "2026-11-29T11:45Z" }).success,
    ).toBe(false);
  });
});

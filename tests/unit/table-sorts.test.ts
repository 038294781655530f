// The orders the Bans and Invites tables offer, as their URLs name them: unknown values fall back to the default,
// uses only for a moderator who can see them, and the invites' sorting before paging (never-expiring last when soonest
// comes first, ties newest first).
import { describe, expect, test } from "vitest";
import { banOrderOf, parseBanSort } from "@/lib/dashboard/data/ban-sorts";
import { inviteSortsFor, parseInviteSort, sortInvites } from "@/lib/dashboard/data/invite-sorts";

describe("bans: account age both ways", () => {
  test("oldest accounts first (the API's order) unless the URL says newest", () => {
    expect(parseBanSort(undefined)).toBe("oldest");
    expect(parseBanSort("newest")).toBe("newest");
    expect(parseBanSort("DROP TABLE")).toBe("oldest");
    expect(banOrderOf("oldest")).toBe("ascending");
    expect(banOrderOf("newest")).toBe("descending");
  });
});

describe("invites", () => {
  const hour = 3_600_000;
  const at = (hours: number) => new Date(Date.UTC(2026, 0, 1) + hours * hour).toISOString();
  const invites = [
    { code: "never", created_at: at(0), expires_at: null, uses: 128 },
    { code: "soon", created_at: at(5), expires_at: at(6), uses: 1 },
    { code: "later", created_at: at(5), expires_at: at(48), uses: 7 },
    { code: "unused", created_at: at(9), expires_at: at(10), uses: 0 },
  ];
  const codes = (sort: Parameters<typeof sortInvites>[1]) => sortInvites(invites, sort).map((i) => i.code);

  test("each order, ties newest first then by code", () => {
    expect(codes("newest")).toEqual(["unused", "later", "soon", "never"]);
    expect(codes("oldest")).toEqual(["never", "later", "soon", "unused"]);
    expect(codes("uses-desc")).toEqual(["never", "later", "soon", "unused"]);
    expect(codes("uses-asc")).toEqual(["unused", "soon", "later", "never"]);
    expect(codes("expires-asc")).toEqual(["soon", "unused", "later", "never"]);
    expect(codes("expires-desc")).toEqual(["never", "later", "unused", "soon"]);
    // A copy: the list as read stays as it was.
    expect(invites.map((i) => i.code)).toEqual(["never", "soon", "later", "unused"]);
  });

  test("uses sort only for a moderator who sees uses (Manage Server); anything else is newest first", () => {
    expect(parseInviteSort("uses-desc", true)).toBe("uses-desc");
    expect(parseInviteSort("uses-desc", false)).toBe("newest");
    expect(parseInviteSort("expires-asc", false)).toBe("expires-asc");
    expect(parseInviteSort("bogus", true)).toBe("newest");
    expect(inviteSortsFor(false).map((s) => s.key)).not.toContain("uses-asc");
  });

  test("without uses (no metadata) the uses orders fall back to newest first", () => {
    const unknown = invites.map(({ uses: _uses, ...invite }) => invite);
    expect(sortInvites(unknown, "uses-desc").map((i) => i.code)).toEqual(["unused", "later", "soon", "never"]);
  });
});

import { describe, expect, test } from "vitest";
import { cursorTrail, listHref, pageNumber, trailPager } from "@/lib/dashboard/list-params";

describe("trailPager: forward-only lists remember earlier pages in the URL", () => {
  test("the first page has only a next link, which records the first page in the trail", () => {
    expect(trailPager(undefined, [], "40")).toEqual({ previous: null, next: { cursor: "40", trail: "0" } });
  });

  test("walking forward then back returns to the same cursors", () => {
    const second = trailPager("40", cursorTrail("0"), "80");
    expect(second.previous).toEqual({ cursor: null, trail: null });
    expect(second.next).toEqual({ cursor: "80", trail: "0,40" });
    const third = trailPager("80", cursorTrail("0,40"), null);
    expect(third.previous).toEqual({ cursor: "40", trail: "0" });
    expect(third.next).toBeNull();
  });

  test("cursorTrail drops entries that are not cursors; the pattern is the list's own", () => {
    expect(cursorTrail("0,12,<script>,34")).toEqual(["0", "12", "34"]);
    expect(cursorTrail("0,clx1abc,DROP TABLE", /^[a-z0-9]+$/)).toEqual(["0", "clx1abc"]);
    expect(cursorTrail(undefined)).toEqual([]);
  });
});

describe("page numbers and links", () => {
  test("pageNumber falls back to 1 for anything but a positive whole number", () => {
    expect(pageNumber("3")).toBe(3);
    expect(pageNumber(["2", "5"])).toBe(2);
    for (const bad of [undefined, "0", "-1", "1.5", "x"]) expect(pageNumber(bad)).toBe(1);
  });

  test("listHref keeps only parameters with a value", () => {
    expect(listHref("/g/1/bans", { q: "ann", after: null, trail: "", page: 2 })).toBe("/g/1/bans?q=ann&page=2");
    expect(listHref("/g/1/bans", { q: undefined })).toBe("/g/1/bans");
  });
});

// The lists by time read a page at a time in either order (the audit history and the prune page's previews; the
// When or Previewed header asks for newest or oldest first): each order is time then id, so entries written in the
// same millisecond are neither skipped nor repeated, and a page's cursor (the last id of the page before) continues
// in the order it was read in. Against the harness server's database (SQLite, or PostgreSQL with
// INTEGRATION_DATABASE=postgresql), with rows written straight through the dashboard's Prisma client.
import { beforeAll, describe, expect, test } from "vitest";
import type { TimeOrder } from "@/lib/dashboard/list-params";
import { testServerForFile } from "../harness";

testServerForFile();

// Imported once the server has set DATABASE_URL: the dashboard's Prisma client is made on import.
let prisma: typeof import("@/lib/dashboard/db").prisma;
let history: typeof import("@/lib/dashboard/audit/history");
let previews: typeof import("@/lib/dashboard/audit/prune-previews");

beforeAll(async () => {
  ({ prisma } = await import("@/lib/dashboard/db"));
  history = await import("@/lib/dashboard/audit/history");
  previews = await import("@/lib/dashboard/audit/prune-previews");
});

const BASE = Date.UTC(2026, 0, 1);
/** Seven times, two of them shared by two rows each (same millisecond). */
const OFFSETS = [0, 1_000, 1_000, 2_000, 3_000, 3_000, 4_000];

/** Every page of `read` in turn, following its cursor, until it says there is no next page. */
async function allPages(read: (cursor?: string) => Promise<{ ids: string[]; nextCursor: string | null }>) {
  const pages: string[][] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    pages.push(page.ids);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && pages.length < 10);
  return pages;
}

/** The ids in the order the database sorts them by time then id. */
function expectedOrder(rows: Array<{ id: string; createdAt: Date }>, order: TimeOrder): string[] {
  const sorted = [...rows].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  return (order === "oldest" ? sorted : sorted.reverse()).map((row) => row.id);
}

describe("audit history", () => {
  const guildId = "8800000000000000001";
  let rows: Array<{ id: string; createdAt: Date }>;

  beforeAll(async () => {
    await prisma.auditHistoryEntry.deleteMany({ where: { guildId } });
    rows = [];
    for (const [i, offset] of OFFSETS.entries())
      rows.push(
        await prisma.auditHistoryEntry.create({
          data: {
            guildId,
            actorId: "100",
            actorName: "Mod",
            action: "Modify Guild",
            reason: i % 2 === 0 ? `kept ${i}` : `other ${i}`,
            status: "success",
            createdAt: new Date(BASE + offset),
          },
          select: { id: true, createdAt: true },
        }),
      );
    // Another guild's entry in the same times is never listed.
    await prisma.auditHistoryEntry.create({
      data: {
        guildId: "8800000000000000002",
        actorId: "100",
        actorName: "Mod",
        action: "Modify Guild",
        status: "success",
        createdAt: new Date(BASE + 2_000),
      },
    });
  });

  test.each(["newest", "oldest"] as const)("%s first: pages of 3 follow one another in that order", async (order) => {
    const read = async (cursor?: string) => {
      const page = await history.listAuditEntries(guildId, {}, { limit: 3, cursor, order });
      return { ids: page.entries.map((entry) => entry.id), nextCursor: page.nextCursor };
    };
    const pages = await allPages(read);
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(expectedOrder(rows, order));
  });

  test("newest first is the order when none is asked for, and the CSV's", async () => {
    const unordered = await history.listAuditEntries(guildId, {}, { limit: 50 });
    expect(unordered.entries.map((entry) => entry.id)).toEqual(expectedOrder(rows, "newest"));
    const exported = await history.exportAuditEntries(guildId, {});
    expect(exported.map((entry) => entry.id)).toEqual(expectedOrder(rows, "newest"));
  });

  test("a filter holds on every page of either order", async () => {
    const kept = rows.filter((_, i) => i % 2 === 0);
    for (const order of ["newest", "oldest"] as const) {
      const pages = await allPages(async (cursor) => {
        const page = await history.listAuditEntries(guildId, { q: "kept" }, { limit: 2, cursor, order });
        return { ids: page.entries.map((entry) => entry.id), nextCursor: page.nextCursor };
      });
      expect(
        pages.map((page) => page.length),
        order,
      ).toEqual([2, 2]);
      expect(pages.flat(), order).toEqual(expectedOrder(kept, order));
    }
  });
});

describe("prune previews", () => {
  const guildId = "8800000000000000003";
  let rows: Array<{ id: string; createdAt: Date }>;

  beforeAll(async () => {
    await prisma.prunePreview.deleteMany({ where: { guildId } });
    rows = [];
    for (const offset of OFFSETS)
      rows.push(
        await prisma.prunePreview.create({
          data: {
            guildId,
            days: 30,
            includeRoles: "",
            count: 3,
            actorId: "100",
            actorName: "Mod",
            createdAt: new Date(BASE + offset),
          },
          select: { id: true, createdAt: true },
        }),
      );
  });

  test.each(["newest", "oldest"] as const)("%s first: pages of 3 follow one another in that order", async (order) => {
    const pages = await allPages(async (cursor) => {
      const page = await previews.listPrunePreviewPage(guildId, { limit: 3, cursor, order });
      return { ids: page.previews.map((preview) => preview.id), nextCursor: page.nextCursor };
    });
    expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
    expect(pages.flat()).toEqual(expectedOrder(rows, order));
  });

  test("the latest previews (the overview's) are the first page newest first", async () => {
    const latest = await previews.listPrunePreviews(guildId, 3);
    expect(latest.map((preview) => preview.id)).toEqual(expectedOrder(rows, "newest").slice(0, 3));
  });
});

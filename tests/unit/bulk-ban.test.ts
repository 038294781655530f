// The bulk-ban job's pure parts: reading pasted and uploaded ids, chunking, and the preview's verdict per id.
import { describe, expect, test } from "vitest";
import { chunk, idsFromCsv, parseUserIds } from "@/lib/dashboard/jobs/bulk-ban/parse";
import { classifyTarget, SKIP_REASONS } from "@/lib/dashboard/jobs/bulk-ban/classify";
import { countItems } from "@/lib/dashboard/jobs/bulk-ban/types";
import { csvLine, readCsv } from "@/lib/dashboard/csv";
import type { GuildPermissionContext, PermissionMember } from "@/lib/discord/permissions";

const A = "1234567890123456789";
const B = "234567890123456789";
const C = "80351110224678912"; // a 17-digit id from 2015, as Discord's earliest users have
const LARGEST = "9223372036854775807"; // 2^63 - 1: a snowflake, but of the year 2084

describe("parseUserIds", () => {
  test("any separators, duplicates removed in first-seen order, non-ids listed once", () => {
    const parsed = parseUserIds(`${A}, ${B};${A}\n\t${C} | abc 12x -5 0 9223372036854775808 ${B}\r\nabc <@${A}>`);
    expect(parsed.ids).toEqual([A, B, C]);
    expect(parsed.duplicates).toBe(3);
    expect(parsed.invalid).toEqual(["abc", "12x", "-5", "0", "9223372036854775808"]);
  });

  test("numbers that encode no real creation time are refused: 12345, ids from before 2015-02 or from the future", () => {
    const parsed = parseUserIds(`12345 4194304 ${A} 1000000000000000 ${LARGEST}`);
    expect(parsed.ids).toEqual([A]);
    expect(parsed.invalid).toEqual(["12345", "4194304", "1000000000000000", LARGEST]);
  });

  test("nothing in, nothing out", () => {
    expect(parseUserIds(" \n,, ")).toEqual({ ids: [], invalid: [], duplicates: 0 });
  });
});

describe("idsFromCsv", () => {
  test("takes the user_id column of a CSV with a header (the ban export's shape), quoted cells included", () => {
    const csv = `${csvLine(["user_id", "username", "reason"])}${csvLine([A, "ada", 'said "hi", then spam'])}${csvLine([B, "bo", "multi\nline"])}`;
    expect(parseUserIds(idsFromCsv(csv)).ids).toEqual([A, B]);
    expect(parseUserIds(idsFromCsv(csv)).invalid).toEqual([]);
  });

  test("without an id header every cell counts", () => {
    expect(parseUserIds(idsFromCsv(`${A},${B}\n${C}\n`)).ids).toEqual([A, B, C]);
  });

  test("readCsv reads what csvLine writes", () => {
    const rows = [
      ["a,b", 'q"uote', "line\r\nbreak"],
      ["", "x"],
    ];
    expect(readCsv(rows.map(csvLine).join(""))).toEqual(rows);
  });
});

test("chunk: at most 200 per slice by default, order kept", () => {
  const ids = Array.from({ length: 450 }, (_, i) => String(i + 1));
  const chunks = chunk(ids);
  expect(chunks.map((c) => c.length)).toEqual([200, 200, 50]);
  expect(chunks.flat()).toEqual(ids);
  expect(chunk([], 200)).toEqual([]);
});

describe("classifyTarget", () => {
  const ctx: GuildPermissionContext = {
    guildId: "1",
    ownerId: "10",
    roles: [
      { id: "1", position: 0, permissions: 0n },
      { id: "100", position: 5, permissions: 4n },
      { id: "200", position: 3, permissions: 0n },
    ],
  };
  const mod: PermissionMember = { userId: "20", roleIds: ["200"], communicationDisabledUntil: null };
  const member = (userId: string, roleIds: string[]) => ({
    banned: false,
    member: { userId, roleIds, communicationDisabledUntil: null },
  });

  test("owner, self, already banned and members not below the moderator are skipped with the reason", () => {
    expect(classifyTarget(ctx, mod, "10", member("10", []))).toEqual({ state: "skipped", detail: SKIP_REASONS.owner });
    expect(classifyTarget(ctx, mod, "20", member("20", ["200"]))).toEqual({
      state: "skipped",
      detail: SKIP_REASONS.self,
    });
    expect(classifyTarget(ctx, mod, "30", { banned: true, member: null })).toEqual({
      state: "skipped",
      detail: SKIP_REASONS.banned,
    });
    expect(classifyTarget(ctx, mod, "40", member("40", ["100"]))).toEqual({
      state: "skipped",
      detail: "member's highest role is above or equal to yours",
    });
    expect(classifyTarget(ctx, mod, "41", member("41", ["200"]))).toEqual({
      state: "skipped",
      detail: "member's highest role is above or equal to yours",
    });
  });

  test("bot mode: a member below the moderator but not below the bot is skipped in the bot's words", () => {
    const bot: PermissionMember = { userId: "90", roleIds: ["200"], communicationDisabledUntil: null };
    const owner: PermissionMember = { userId: "10", roleIds: [], communicationDisabledUntil: null };
    expect(classifyTarget(ctx, owner, "42", member("42", ["200"]), bot)).toEqual({
      state: "skipped",
      detail: "member's highest role is above or equal to the bot's",
    });
    expect(classifyTarget(ctx, owner, "42", member("42", ["200"]))).toEqual({ state: "pending", detail: null });
    expect(classifyTarget(ctx, owner, "50", member("50", []), bot)).toEqual({ state: "pending", detail: null });
  });

  test("members below the moderator and non-members are to be banned", () => {
    expect(classifyTarget(ctx, mod, "50", member("50", []))).toEqual({ state: "pending", detail: null });
    expect(classifyTarget(ctx, mod, "60", { banned: false, member: null })).toEqual({ state: "pending", detail: null });
  });
});

test("countItems", () => {
  expect(countItems([{ state: "banned" }, { state: "banned" }, { state: "skipped" }])).toMatchObject({
    total: 3,
    banned: 2,
    skipped: 1,
    pending: 0,
  });
});

// The members table's pure parts: its URL state and the Search Guild Members v2 body it becomes, the cursors it keeps
// in the URL, and the bulk actions' verdict per member.
import { describe, expect, test } from "vitest";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import {
  decodeCursor,
  encodeCursor,
  filterParams,
  parseMemberListState,
  searchBody,
} from "@/lib/dashboard/data/member-filters";
import { classifyMember, MEMBER_SKIP_REASONS } from "@/lib/dashboard/jobs/member-actions/classify";
import type { GuildPermissionContext, PermissionMember } from "@/lib/discord/permissions";

const NOW = Date.UTC(2026, 10, 25);
const DAY = 86_400_000;
const ID = "1058897343283335200";

describe("the URL state", () => {
  test("defaults: newest members first, 50 a page, page 1, no filter", () => {
    const state = parseMemberListState({});
    expect(state).toMatchObject({ sort: "joined-desc", limit: 50, page: 1, roles: [], roleMode: "any", flags: [] });
    expect(searchBody(state, NOW)).toEqual({ sort: 1, limit: 50 });
  });

  test("every filter becomes its part of the body; junk in the URL is dropped", () => {
    const state = parseMemberListState({
      q: "  ada ",
      sort: "created-asc",
      roles: `${ID},12x,0,${ID.slice(0, -1)}1`,
      rolemode: "all",
      joined: "7d",
      created: "30d",
      noroles: "1",
      timedout: "1",
      pending: "1",
      bots: "0",
      limit: "100",
      page: "3",
    });
    expect(searchBody(state, NOW)).toEqual({
      sort: 4,
      limit: 100,
      and_query: {
        query: "ada",
        role_ids: { and_query: [ID, `${ID.slice(0, -1)}1`] },
        guild_joined_at: { range: { gte: NOW - 7 * DAY } },
        user_created_at: { range: { gte: NOW - 30 * DAY } },
        has_no_roles: true,
        safety_signals: { communication_disabled_until: { range: { gte: NOW } } },
        is_pending: true,
      },
    });
    expect(parseMemberListState({ sort: "nonsense", limit: "7", joined: "2d", page: "-1" })).toMatchObject({
      sort: "joined-desc",
      limit: 50,
      joined: undefined,
      page: 1,
    });
  });

  test("blocked by AutoMod is Search Guild Members v2's safety signal, beside the timeout's", () => {
    expect(searchBody(parseMemberListState({ automod: "1" }), NOW).and_query).toEqual({
      safety_signals: { automod_quarantined_username: true },
    });
    expect(searchBody(parseMemberListState({ automod: "1", timedout: "1" }), NOW).and_query).toEqual({
      safety_signals: { communication_disabled_until: { range: { gte: NOW } }, automod_quarantined_username: true },
    });
    expect(filterParams(parseMemberListState({ automod: "1" }))).toMatchObject({ automod: "1" });
  });

  test("a search that is an id also finds that exact member (or_query), besides names containing it", () => {
    expect(searchBody(parseMemberListState({ q: ID }), NOW)).toEqual({
      sort: 1,
      limit: 50,
      or_query: { user_id: { or_query: [ID] }, query: ID },
    });
  });

  test("filterParams round-trips through the URL, defaults left out", () => {
    const state = parseMemberListState({ q: "x", sort: "name-desc", roles: ID, joined: "1y", bots: "1", limit: "25" });
    const again = parseMemberListState(filterParams(state) as Record<string, string>);
    expect(again).toMatchObject({ q: "x", sort: "name-desc", roles: [ID], joined: "1y", flags: ["bots"], limit: 25 });
    expect(filterParams(parseMemberListState({}))).toEqual(
      Object.fromEntries(Object.keys(filterParams(parseMemberListState({}))).map((k) => [k, undefined])),
    );
  });
});

describe("cursors in the URL", () => {
  test("a member's join time, id and username (dots and all) come back as Search Guild Members v2's cursor", () => {
    const text = encodeCursor({ joined_at: new Date(NOW).toISOString(), user: { id: ID, username: "a.b.c" } });
    expect(decodeCursor(text)).toEqual({ guild_joined_at: NOW, user_id: ID, username: "a.b.c" });
    expect(parseMemberListState({ after: text }).after).toEqual(decodeCursor(text));
    expect(searchBody(parseMemberListState({ before: text, after: text }), NOW)).toMatchObject({
      before: { user_id: ID },
    });
  });

  test("anything else is no cursor", () => {
    for (const bad of ["", "x.1.a", `${NOW}.12x.a`, `${NOW}.${ID}`, `${NOW}.${ID}.`.slice(0, -1), "1e9.1.a"])
      expect(decodeCursor(bad)).toBeUndefined();
  });
});

describe("bulk member actions: the verdict per member", () => {
  const ctx: GuildPermissionContext = {
    guildId: "1",
    ownerId: "10",
    roles: [
      { id: "1", position: 0, permissions: P.ViewChannel },
      { id: "2", position: 1, permissions: 0n },
      { id: "3", position: 2, permissions: P.ModerateMembers | P.ManageRoles | P.KickMembers },
      { id: "4", position: 3, permissions: P.Administrator },
    ],
  };
  const member = (userId: string, roleIds: string[], until: string | null = null): PermissionMember => ({
    userId,
    roleIds,
    communicationDisabledUntil: until,
  });
  const mod = member("20", ["3"]);
  const judge = (kind: Parameters<typeof classifyMember>[0], target: PermissionMember, self = mod) =>
    classifyMember(kind, { roleId: "2" }, ctx, self, target, NOW);

  test("the owner, yourself and members at or above you are skipped with the reason", () => {
    expect(judge("kick", member("10", []))).toEqual({ state: "skipped", detail: MEMBER_SKIP_REASONS.owner });
    expect(judge("timeout", mod)).toEqual({ state: "skipped", detail: MEMBER_SKIP_REASONS.self });
    expect(judge("kick", member("30", ["3"]))).toEqual({
      state: "skipped",
      detail: "member's highest role is above or equal to yours",
    });
    expect(judge("kick", member("31", ["2"]))).toEqual({ state: "pending", detail: null });
  });

  test("bot mode: a member the bot does not outrank is skipped in the bot's words; role jobs and the bot itself are not", () => {
    const owner = member("10", []);
    const bot = member("90", ["2"]);
    const botJudge = (kind: Parameters<typeof classifyMember>[0], target: PermissionMember) =>
      classifyMember(kind, { roleId: "2" }, ctx, owner, target, NOW, bot);
    expect(botJudge("kick", member("31", ["3"]))).toEqual({
      state: "skipped",
      detail: "member's highest role is above or equal to the bot's",
    });
    expect(botJudge("kick", member("32", []))).toEqual({ state: "pending", detail: null });
    // A role job needs the role below the bot (checked once for the job), not the member.
    expect(botJudge("remove_role", member("31", ["3", "2"]))).toEqual({ state: "pending", detail: null });
    expect(classifyMember("kick", {}, ctx, owner, member("31", ["3"]), NOW)).toEqual({
      state: "pending",
      detail: null,
    });
  });

  test("nothing to do: already has the role, lacks it, not timed out", () => {
    expect(judge("add_role", member("31", ["2"]))).toEqual({ state: "skipped", detail: MEMBER_SKIP_REASONS.hasRole });
    expect(judge("add_role", member("32", []))).toEqual({ state: "pending", detail: null });
    expect(judge("remove_role", member("32", []))).toEqual({ state: "skipped", detail: MEMBER_SKIP_REASONS.lacksRole });
    expect(judge("remove_timeout", member("32", []))).toEqual({
      state: "skipped",
      detail: MEMBER_SKIP_REASONS.notTimedOut,
    });
    expect(judge("remove_timeout", member("32", [], new Date(NOW + DAY).toISOString()))).toEqual({
      state: "pending",
      detail: null,
    });
  });

  test("your own roles may change (the role itself is checked for the whole job); the owner may change theirs", () => {
    expect(judge("add_role", mod)).toEqual({ state: "pending", detail: null });
    const owner = member("10", []);
    expect(judge("add_role", owner, owner)).toEqual({ state: "pending", detail: null });
  });

  test("administrators can't be timed out, even by the owner", () => {
    const owner = member("10", []);
    expect(judge("timeout", member("40", ["4"]), owner)).toEqual({
      state: "skipped",
      detail: MEMBER_SKIP_REASONS.administrator,
    });
  });
});

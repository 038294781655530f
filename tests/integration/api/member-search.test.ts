// Search Guild Members v2 (POST /guilds/{guild.id}/members-search) against a guild seeded here with known members:
// every sort in both directions, every filter (Discord's and Guildhall's extensions), and/or queries, keyset pages
// in both directions, the total count, permissions, and bad bodies refused with 50035 and the errors tree.
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { snowflakeAt } from "@/lib/discord/snowflake";
import { startTestServer, type TestServer } from "../harness";

let server: TestServer;
const DAY = 86_400_000;
const now = Date.now();

/** The search guild's ids: its own roles A and B, and five members besides the owner. */
const ids = {
  guild: String(snowflakeAt(Date.UTC(2024, 0, 1)) + 1n),
  roleA: String(snowflakeAt(Date.UTC(2024, 0, 1)) + 2n),
  roleB: String(snowflakeAt(Date.UTC(2024, 0, 1)) + 3n),
  // Account ages: the user ids' times.
  alpha: String(snowflakeAt(Date.UTC(2020, 5, 1))),
  bravo: String(snowflakeAt(Date.UTC(2021, 5, 1))),
  charlie: String(snowflakeAt(Date.UTC(2019, 5, 1))),
  delta: String(snowflakeAt(Date.UTC(2022, 5, 1))),
  echo: String(snowflakeAt(Date.UTC(2018, 5, 1))),
  owner: "",
};

interface SearchResult {
  guild_id: string;
  members: Array<{
    member: { user: { id: string; username: string }; communication_disabled_until: string | null; pending: boolean };
    source_invite_code: string | null;
    join_source_type: number | null;
    inviter_id: string | null;
  }>;
  page_result_count: number;
  total_result_count: number;
}

beforeAll(async () => {
  server = await startTestServer({ rateLimits: { enabled: false } });
  ids.owner = server.world.users.owner;
  const { sql, transaction } = await import("@/lib/guild-api/store/db");
  const t = BigInt(now);
  const insertMember = (...values: unknown[]) =>
    sql.run(
      `INSERT INTO members (guild_id, user_id, nick, nick_key, username_key, joined_at, last_active_at, role_count, pending, communication_disabled_until)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ...values,
    );
  await transaction(async () => {
    await sql.run(
      "INSERT INTO guilds (id, name, owner_id, features, afk_timeout, created_at, member_count) VALUES (?, 'Search Test', ?, '[]', 300, ?, 6)",
      BigInt(ids.guild),
      BigInt(ids.owner),
      t,
    );
    await sql.run(
      "INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, '@everyone', ?, 0)",
      BigInt(ids.guild),
      BigInt(ids.guild),
      P.ViewChannel,
    );
    await sql.run(
      "INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, 'A', 0, 1)",
      BigInt(ids.roleA),
      BigInt(ids.guild),
    );
    await sql.run(
      "INSERT INTO roles (id, guild_id, name, permissions, position) VALUES (?, ?, 'B', 0, 2)",
      BigInt(ids.roleB),
      BigInt(ids.guild),
    );
    const add = async (
      id: string,
      username: string,
      o: {
        global?: string;
        bot?: boolean;
        nick?: string;
        joinedDaysAgo: number;
        roles?: string[];
        pending?: boolean;
        timeoutUntil?: number;
      },
    ) => {
      if (id !== ids.owner)
        await sql.run(
          "INSERT INTO users (id, username, global_name, bot, created_at) VALUES (?, ?, ?, ?, ?)",
          BigInt(id),
          username,
          o.global ?? null,
          o.bot ? 1 : 0,
          t,
        );
      await insertMember(
        BigInt(ids.guild),
        BigInt(id),
        o.nick ?? null,
        o.nick?.toLowerCase() ?? null,
        username,
        BigInt(now - o.joinedDaysAgo * DAY),
        t,
        o.roles?.length ?? 0,
        o.pending ? 1 : 0,
        o.timeoutUntil === undefined ? null : BigInt(o.timeoutUntil),
      );
      for (const roleId of o.roles ?? [])
        await sql.run(
          "INSERT INTO member_roles (guild_id, user_id, role_id) VALUES (?, ?, ?)",
          BigInt(ids.guild),
          BigInt(id),
          BigInt(roleId),
        );
    };
    await add(ids.alpha, "alpha_one", { nick: "Captain Alpha", joinedDaysAgo: 1, roles: [ids.roleA] });
    await add(ids.bravo, "bravo_two", {
      global: "Bravo Star",
      joinedDaysAgo: 3,
      roles: [ids.roleA, ids.roleB],
      timeoutUntil: now + 3_600_000,
    });
    await add(ids.charlie, "charlie", { joinedDaysAgo: 10, pending: true });
    await add(ids.delta, "delta_bot", { bot: true, joinedDaysAgo: 30, roles: [ids.roleB] });
    // An ended timeout is no timeout.
    await add(ids.echo, "echo_echo", { nick: "alpha fan", joinedDaysAgo: 60, timeoutUntil: now - DAY });
    await add(ids.owner, "owner", { joinedDaysAgo: 400 });
    // charlie has a nickname in another guild: it must not make him match here.
    await insertMember(
      BigInt(server.world.sideGuildId),
      BigInt(ids.charlie),
      "Zyzzyva",
      "zyzzyva",
      "charlie",
      t,
      t,
      0,
      0,
      null,
    );
  });
});
afterAll(() => server?.close());

async function search(body: unknown, as = "owner", guildId = ids.guild) {
  const response = await server.api(as, "POST", `/guilds/${guildId}/members-search`, body);
  return { status: response.status, body: (await response.json()) as SearchResult & Record<string, unknown> };
}

/** The usernames a search answers, in order, and its total. */
async function names(body: unknown) {
  const { status, body: result } = await search(body);
  expect(status, JSON.stringify(result)).toBe(200);
  return { names: result.members.map((m) => m.member.user.username), total: result.total_result_count };
}

const BY_JOIN = ["alpha_one", "bravo_two", "charlie", "delta_bot", "echo_echo", "owner"];

describe("sorts", () => {
  test("the answer's shape: guild, members with their join source, the page's count and the total", async () => {
    const { status, body } = await search({});
    expect(status).toBe(200);
    expect(body.guild_id).toBe(ids.guild);
    expect(body.page_result_count).toBe(6);
    expect(body.total_result_count).toBe(6);
    expect(body.members[0]).toEqual({
      member: expect.objectContaining({ user: expect.objectContaining({ id: ids.alpha, username: "alpha_one" }) }),
      source_invite_code: null,
      join_source_type: 0,
      inviter_id: null,
    });
    const bravo = body.members.find((m) => m.member.user.id === ids.bravo)!;
    expect(Date.parse(bravo.member.communication_disabled_until!)).toBe(now + 3_600_000);
    const echo = body.members.find((m) => m.member.user.id === ids.echo)!;
    expect(echo.member.communication_disabled_until).toBeNull();
  });

  test("member since: newest first by default (1), oldest first (2)", async () => {
    expect((await names({})).names).toEqual(BY_JOIN);
    expect((await names({ sort: 1 })).names).toEqual(BY_JOIN);
    expect((await names({ sort: 2 })).names).toEqual([...BY_JOIN].reverse());
  });

  test("joined Discord (account age from the id): newest first (3), oldest first (4)", async () => {
    // The owner's account was made when the demo world was seeded: the newest.
    const newest = ["owner", "delta_bot", "bravo_two", "alpha_one", "charlie", "echo_echo"];
    expect((await names({ sort: 3 })).names).toEqual(newest);
    expect((await names({ sort: 4 })).names).toEqual([...newest].reverse());
  });

  test("username A→Z (5) and Z→A (6), Guildhall extensions", async () => {
    const az = ["alpha_one", "bravo_two", "charlie", "delta_bot", "echo_echo", "owner"];
    expect((await names({ sort: 5 })).names).toEqual(az);
    expect((await names({ sort: 6 })).names).toEqual([...az].reverse());
  });
});

describe("filters", () => {
  const cases: Array<[string, unknown, string[]]> = [
    [
      "joined in the last 7 days",
      { and_query: { guild_joined_at: { range: { gte: now - 7 * DAY } } } },
      ["alpha_one", "bravo_two"],
    ],
    [
      "joined between 20 and 100 days ago",
      { and_query: { guild_joined_at: { range: { gte: now - 100 * DAY, lte: now - 20 * DAY } } } },
      ["delta_bot", "echo_echo"],
    ],
    // PostgreSQL counts these from per-day counts and the index ranges of the first and last days: both bounds, one
    // bound, a range within one day, a bound exactly at a member's join time.
    [
      "joined before 50 days ago",
      { and_query: { guild_joined_at: { range: { lte: now - 50 * DAY } } } },
      ["echo_echo", "owner"],
    ],
    [
      "joined within a second of 3 days ago",
      { and_query: { guild_joined_at: { range: { gte: now - 3 * DAY - 1000, lte: now - 3 * DAY + 1000 } } } },
      ["bravo_two"],
    ],
    [
      "joined from bravo's join time on",
      { and_query: { guild_joined_at: { range: { gte: now - 3 * DAY } } } },
      ["alpha_one", "bravo_two"],
    ],
    [
      "joined up to bravo's join time",
      { and_query: { guild_joined_at: { range: { lte: now - 3 * DAY } } } },
      ["bravo_two", "charlie", "delta_bot", "echo_echo", "owner"],
    ],
    [
      "account created in 2019 or 2020",
      { and_query: { user_created_at: { range: { gte: Date.UTC(2019, 0, 1), lte: Date.UTC(2020, 11, 31) } } } },
      ["alpha_one", "charlie"],
    ],
    ["any of role A", { and_query: { role_ids: { or_query: [ids.roleA] } } }, ["alpha_one", "bravo_two"]],
    [
      "any of A or B",
      { and_query: { role_ids: { or_query: [ids.roleA, ids.roleB] } } },
      ["alpha_one", "bravo_two", "delta_bot"],
    ],
    ["all of A and B", { and_query: { role_ids: { and_query: [ids.roleA, ids.roleB] } } }, ["bravo_two"]],
    ["no roles (an empty or_query)", { and_query: { role_ids: { or_query: [] } } }, ["charlie", "echo_echo", "owner"]],
    ["no roles (has_no_roles)", { and_query: { has_no_roles: true } }, ["charlie", "echo_echo", "owner"]],
    [
      "some role (has_no_roles: false)",
      { and_query: { has_no_roles: false } },
      ["alpha_one", "bravo_two", "delta_bot"],
    ],
    [
      "timed out now (an ended timeout is not)",
      { and_query: { safety_signals: { communication_disabled_until: { range: { gte: now } } } } },
      ["bravo_two"],
    ],
    ["pending (membership screening)", { and_query: { is_pending: true } }, ["charlie"]],
    ["bots", { and_query: { is_bot: true } }, ["delta_bot"]],
    ["people", { and_query: { is_bot: false } }, ["alpha_one", "bravo_two", "charlie", "echo_echo", "owner"]],
    ["exact id", { and_query: { user_id: { or_query: [ids.charlie] } } }, ["charlie"]],
    ["id range", { and_query: { user_id: { range: { gte: ids.echo, lte: ids.charlie } } } }, ["charlie", "echo_echo"]],
    ["substring of a username", { and_query: { query: "harl" } }, ["charlie"]],
    ["substring of a nickname or username", { and_query: { query: "ALPHA" } }, ["alpha_one", "echo_echo"]],
    // alpha_one's username and nickname both hold it: one member, counted once.
    ["a member matched by two of its names counts once", { and_query: { query: "lph" } }, ["alpha_one", "echo_echo"]],
    ["substring of a global name", { and_query: { query: "o st" } }, ["bravo_two"]],
    ["a nickname held in another guild does not match", { and_query: { query: "zyzzy" } }, []],
    // As wildcards, "a_o" would also match "bravo" and "a%o" "alpha_one".
    ["an underscore in the text is an underscore", { and_query: { query: "a_o" } }, ["alpha_one"]],
    ["a percent sign in the text is a percent sign", { and_query: { query: "a%o" } }, []],
    ["a short query matches the start of a name", { and_query: { query: "ca" } }, ["alpha_one"]],
    [
      "username prefixes (Discord's usernames)",
      { and_query: { usernames: { or_query: ["bra", "del"] } } },
      ["bravo_two", "delta_bot"],
    ],
    ["a nickname's prefix", { and_query: { usernames: { or_query: ["capt"] } } }, ["alpha_one"]],
    ["a global name's prefix", { and_query: { usernames: { or_query: ["bravo s"] } } }, ["bravo_two"]],
    ["a prefix is not a substring", { and_query: { usernames: { or_query: ["harl"] } } }, []],
    ["join source unspecified: everyone", { and_query: { join_source_type: { or_query: [0] } } }, BY_JOIN],
    ["join source by invite: nobody (not recorded)", { and_query: { join_source_type: { or_query: [5] } } }, []],
    ["unusual account activity: nobody", { and_query: { safety_signals: { unusual_account_activity: true } } }, []],
    [
      "and_query: joined in the last 7 days with role B",
      { and_query: { guild_joined_at: { range: { gte: now - 7 * DAY } }, role_ids: { or_query: [ids.roleB] } } },
      ["bravo_two"],
    ],
    [
      "or_query: an id or a name (the members page's search box)",
      { or_query: { user_id: { or_query: [ids.delta] }, query: "charl" } },
      ["charlie", "delta_bot"],
    ],
    [
      "and_query with or_query",
      { and_query: { has_no_roles: true }, or_query: { is_pending: true, query: "echo" } },
      ["charlie", "echo_echo"],
    ],
  ];
  test.each(cases)("%s", async (_name, body, expected) => {
    const result = await names(body);
    expect(result.names).toEqual(expected);
    expect(result.total).toBe(expected.length);
  });
});

describe("pages", () => {
  const cursorOf = (m: SearchResult["members"][number]["member"] & { joined_at?: string }) => ({
    guild_joined_at: Date.parse(m.joined_at!),
    user_id: m.user.id,
    username: m.user.username,
  });

  test("after and before continue from a member in the sort order; the total counts every page", async () => {
    for (const sort of [1, 2, 3, 4, 5, 6]) {
      const all = (await names({ sort })).names;
      const first = await search({ sort, limit: 2 });
      expect(first.body.members.map((m) => m.member.user.username)).toEqual(all.slice(0, 2));
      expect(first.body.total_result_count).toBe(6);
      const second = await search({ sort, limit: 2, after: cursorOf(first.body.members[1].member) });
      expect(
        second.body.members.map((m) => m.member.user.username),
        `sort ${sort}`,
      ).toEqual(all.slice(2, 4));
      expect(second.body.page_result_count).toBe(2);
      expect(second.body.total_result_count).toBe(6);
      const back = await search({ sort, limit: 2, before: cursorOf(second.body.members[0].member) });
      expect(
        back.body.members.map((m) => m.member.user.username),
        `sort ${sort}`,
      ).toEqual(all.slice(0, 2));
      const last = await search({ sort, limit: 2, after: cursorOf(second.body.members[1].member) });
      expect(last.body.members.map((m) => m.member.user.username)).toEqual(all.slice(4, 6));
      const end = await search({ sort, limit: 2, after: cursorOf(last.body.members[1].member) });
      expect(end.body.members).toEqual([]);
    }
  });

  test("a filtered search keeps its total on every page and past the last one", async () => {
    const filters = [
      { role_ids: { or_query: [ids.roleA, ids.roleB] } },
      { query: "lph" },
      { guild_joined_at: { range: { gte: now - 100 * DAY } }, role_ids: { or_query: [ids.roleA, ids.roleB] } },
      { guild_joined_at: { range: { gte: now - 100 * DAY } }, query: "lph" },
      { is_bot: false, role_ids: { and_query: [ids.roleA] } },
    ];
    for (const and_query of filters) {
      const all = await names({ and_query });
      expect(all.total, JSON.stringify(and_query)).toBeGreaterThan(1);
      let page = await search({ and_query, limit: 1 });
      const seen = [page.body.members[0].member.user.username];
      expect(page.body.total_result_count).toBe(all.total);
      while (seen.length < all.total) {
        const previous = page.body.members[0].member;
        page = await search({ and_query, limit: 1, after: cursorOf(previous) });
        expect(page.body.total_result_count, JSON.stringify(and_query)).toBe(all.total);
        seen.push(page.body.members[0].member.user.username);
        const back = await search({ and_query, limit: 1, before: cursorOf(page.body.members[0].member) });
        expect(back.body.members.map((m) => m.member.user.username)).toEqual([previous.user.username]);
        expect(back.body.total_result_count).toBe(all.total);
      }
      expect(seen).toEqual(all.names);
      const end = await search({ and_query, limit: 1, after: cursorOf(page.body.members[0].member) });
      expect(end.body.members).toEqual([]);
      expect(end.body.total_result_count, JSON.stringify(and_query)).toBe(all.total);
    }
  });

  test("a name substring pages in every sort order", async () => {
    for (const sort of [1, 2, 3, 4, 5, 6]) {
      const all = await names({ sort, and_query: { query: "lph" } });
      expect(all.names.toSorted()).toEqual(["alpha_one", "echo_echo"]);
      const first = await search({ sort, limit: 1, and_query: { query: "lph" } });
      const second = await search({
        sort,
        limit: 1,
        and_query: { query: "lph" },
        after: cursorOf(first.body.members[0].member),
      });
      expect(
        [...first.body.members, ...second.body.members].map((m) => m.member.user.username),
        `sort ${sort}`,
      ).toEqual(all.names);
      expect(second.body.total_result_count).toBe(2);
    }
  });

  test("the page size defaults to 25 and goes up to 1000", async () => {
    expect((await search({ limit: 1000 })).status).toBe(200);
    expect((await search({ limit: 1 })).body.page_result_count).toBe(1);
  });
});

describe("who may search", () => {
  test("moderators who act on members may (kick only, in the demo guild); a plain member may not", async () => {
    const guild = server.world.guildId;
    const helper = await search({ limit: 5 }, "helper", guild);
    expect(helper.status).toBe(200);
    expect(helper.body.total_result_count).toBeGreaterThan(100);
    const member = await search({ limit: 5 }, "member", guild);
    expect(member.status).toBe(403);
    expect(member.body).toMatchObject({ code: 50013 });
  });

  test("outside the guild: 403 Missing Access", async () => {
    const { status, body } = await search({}, "outsider", server.world.guildId);
    expect(status).toBe(403);
    expect(body).toMatchObject({ code: 50001 });
  });
});

describe("bad bodies: 400 50035 with the errors tree, nothing answered", () => {
  const cases: Array<[string, unknown, Record<string, unknown>]> = [
    ["limit 0", { limit: 0 }, { limit: { _errors: [expect.objectContaining({ code: expect.any(String) })] } }],
    ["limit 1001", { limit: 1001 }, { limit: { _errors: [expect.anything()] } }],
    ["an unknown sort", { sort: 9 }, { sort: { _errors: [expect.anything()] } }],
    [
      "a role id that is not a snowflake",
      { and_query: { role_ids: { and_query: [ids.roleA, "12x"] } } },
      {
        and_query: {
          role_ids: { and_query: { 1: { _errors: [expect.objectContaining({ code: "NUMBER_TYPE_COERCE" })] } } },
        },
      },
    ],
    [
      "role_ids with both and_query and or_query",
      { and_query: { role_ids: { and_query: [ids.roleA], or_query: [ids.roleB] } } },
      { and_query: { role_ids: { _errors: [expect.anything()] } } },
    ],
    [
      "a time that is not an ms timestamp",
      { or_query: { guild_joined_at: { range: { gte: "yesterday" } } } },
      { or_query: { guild_joined_at: { range: { gte: { _errors: [expect.anything()] } } } } },
    ],
    [
      "a cursor without the sort's field",
      { sort: 1, after: { user_id: ids.alpha } },
      { after: { guild_joined_at: { _errors: [expect.objectContaining({ code: "BASE_TYPE_REQUIRED" })] } } },
    ],
    [
      "a username cursor without the username",
      { sort: 5, before: { user_id: ids.alpha, guild_joined_at: 0 } },
      { before: { username: { _errors: [expect.objectContaining({ code: "BASE_TYPE_REQUIRED" })] } } },
    ],
    [
      "both before and after",
      { before: { user_id: "1", guild_joined_at: 0 }, after: { user_id: "2", guild_joined_at: 0 } },
      { before: { _errors: [expect.anything()] } },
    ],
    ["an empty query", { and_query: { query: "" } }, { and_query: { query: { _errors: [expect.anything()] } } }],
  ];
  test.each(cases)("%s", async (_name, body, errors) => {
    const { status, body: answer } = await search(body);
    expect(status).toBe(400);
    expect(answer).toMatchObject({ code: 50035, message: "Invalid Form Body", errors });
  });

  test("a body that is not JSON", async () => {
    const response = await server.api("owner", "POST", `/guilds/${ids.guild}/members-search`, "{not json", {
      "content-type": "application/json",
    });
    expect(response.status).toBe(400);
  });
});

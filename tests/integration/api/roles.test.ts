// Roles: reads, Create Guild Role, Modify Guild Role Positions, Modify Guild Role, Delete Guild Role — permissions,
// hierarchy, limits, events in the outbox and audit entries. Tests run in order on one database.
import { describe, expect, test } from "vitest";
import { PermissionFlagsBits as P, Routes } from "discord-api-types/v10";
import { PNG } from "pngjs";
import { auditEntries, fail, eventsSince, lastEventId, fieldCodes } from "./read-back";
import { DEMO_ROLE_NAMES, testServerForFile } from "../harness";
import { sql } from "@/lib/guild-api/store/db";
import { expectOperationResponse, expectSchema } from "../openapi";

// Dozens of role reorders in a row on purpose, in a strict bucket: see TestServerOptions.rateLimits.
const server = testServerForFile({ rateLimits: { enabled: false } });

interface Role {
  id: string;
  name: string;
  permissions: string;
  position: number;
  color: number;
  colors: { primary_color: number; secondary_color: number | null; tertiary_color: number | null };
  hoist: boolean;
  mentionable: boolean;
  managed: boolean;
  icon: string | null;
  unicode_emoji: string | null;
}

const guild = () => server.world.guildId;
const roles = () => server.world.roles;
const listRoles = async () => (await server.rest("owner").get(Routes.guildRoles(guild()))) as Role[];
const positions = async () => Object.fromEntries((await listRoles()).map((r) => [r.name, r.position]));
const EVERYONE_PERMISSIONS = async () =>
  ((await sql.get("SELECT permissions FROM roles WHERE id = ?", BigInt(guild()))) as { permissions: bigint })
    .permissions;

describe("reads", () => {
  test("roles in position order, permissions as strings, colors consistent with color", async () => {
    const list = (await server.rest("member").get(Routes.guildRoles(guild()))) as Role[];
    expect(list.map((r) => r.name)).toEqual(DEMO_ROLE_NAMES);
    for (const role of list) expect(role.colors.primary_color).toBe(role.color);
    expect(list.find((r) => r.name === "Admin")!.permissions).toBe("8");
    expectOperationResponse("GET", "/guilds/{guild_id}/roles", 200, list);
  });

  test("one role; an unknown role is 10011; outsiders get 50001", async () => {
    const role = await server.rest("member").get(Routes.guildRole(guild(), roles().moderator));
    expect(role).toMatchObject({ name: "Moderator", hoist: true, unicode_emoji: "🛡️" });
    expectOperationResponse("GET", "/guilds/{guild_id}/roles/{role_id}", 200, role);
    expect(await fail(server.rest("member").get(Routes.guildRole(guild(), "42")))).toMatchObject({
      status: 404,
      code: 10011,
    });
    expect(await fail(server.rest("outsider").get(Routes.guildRoles(guild())))).toMatchObject({
      status: 403,
      code: 50001,
    });
  });

  test("member counts per role, without @everyone, zero included", async () => {
    const counts = (await server.rest("mod").get(Routes.guildRoleMemberCounts(guild()))) as Record<string, number>;
    expect(counts[guild()]).toBeUndefined();
    expect(counts[roles().admin]).toBe(1);
    expect(counts[roles().moderator]).toBe(1);
    expect(counts[roles().bot]).toBe(1);
    const memberRole = Number(
      (
        (await sql.get("SELECT COUNT(*) AS n FROM member_roles WHERE role_id = ?", BigInt(roles().member))) as {
          n: bigint;
        }
      ).n,
    );
    expect(counts[roles().member]).toBe(memberRole);
    expect(Object.keys(counts)).toHaveLength(6);
    expectOperationResponse("GET", "/guilds/{guild_id}/roles/member-counts", 200, counts);
  });
});

describe("Modify Guild Role Positions", () => {
  test("a moderator moves a role below its own; the others close up; every role is answered; events per moved role", async () => {
    const before = await lastEventId();
    const list = (await server
      .rest("mod")
      .patch(Routes.guildRoles(guild()), { body: [{ id: roles().member, position: 3 }], reason: "reorder" })) as Role[];
    expectOperationResponse("PATCH", "/guilds/{guild_id}/roles", 200, list);
    expect(list).toHaveLength(7);
    expect(Object.fromEntries(list.map((r) => [r.name, r.position]))).toEqual({
      "@everyone": 0,
      Regular: 1,
      Helper: 2,
      Member: 3,
      Moderator: 4,
      "Guildhall Demo": 5,
      Admin: 6,
    });
    const events = await eventsSince<{ guild_id?: string; role?: Role }>(before);
    expect(events.every((e) => e.type === "GUILD_ROLE_UPDATE" && e.d.guild_id === guild())).toBe(true);
    expect(events.map((e) => e.d.role!.name).sort()).toEqual(["Helper", "Member", "Regular"]);
    expect((await auditEntries(guild(), 31, roles().member)).at(-1)).toMatchObject({
      reason: "reorder",
      changes: [{ key: "position", old_value: 1, new_value: 3 }],
    });
  });

  test("not to or above the caller's highest role, not a role above it; all or nothing", async () => {
    const before = await positions();
    expect(
      await fail(server.rest("mod").patch(Routes.guildRoles(guild()), { body: [{ id: roles().member, position: 4 }] })),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(
      await fail(server.rest("mod").patch(Routes.guildRoles(guild()), { body: [{ id: roles().admin, position: 1 }] })),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(
      await fail(
        server.rest("mod").patch(Routes.guildRoles(guild()), { body: [{ id: roles().moderator, position: 1 }] }),
      ),
    ).toMatchObject({ status: 403, code: 50013 });
    // The first move alone is allowed; with the second it is not, and nothing changes.
    expect(
      await fail(
        server.rest("mod").patch(Routes.guildRoles(guild()), {
          body: [
            { id: roles().member, position: 1 },
            { id: roles().bot, position: 2 },
          ],
        }),
      ),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(await positions()).toEqual(before);
    expect(
      await fail(
        server.rest("helper").patch(Routes.guildRoles(guild()), { body: [{ id: roles().member, position: 1 }] }),
      ),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(await fail(server.rest("outsider").patch(Routes.guildRoles(guild()), { body: [] }))).toMatchObject({
      status: 403,
      code: 50001,
    });
  });

  test("field errors: unknown role, a role twice, moving @everyone, not an array", async () => {
    const unknown = await fail(
      server.rest("owner").patch(Routes.guildRoles(guild()), {
        body: [
          { id: roles().member, position: 1 },
          { id: "42", position: 2 },
        ],
      }),
    );
    expect(unknown).toMatchObject({ status: 400, code: 50035 });
    expect(fieldCodes(unknown, 1, "id")).toEqual(["ROLE_INVALID"]);
    const twice = await fail(
      server.rest("owner").patch(Routes.guildRoles(guild()), {
        body: [
          { id: roles().member, position: 1 },
          { id: roles().member, position: 2 },
        ],
      }),
    );
    expect(fieldCodes(twice, 1, "id")).toEqual(["ROLE_INVALID"]);
    const everyone = await fail(
      server.rest("owner").patch(Routes.guildRoles(guild()), { body: [{ id: guild(), position: 3 }] }),
    );
    expect(fieldCodes(everyone, 0, "position")).toEqual(["ROLE_INVALID"]);
    const notArray = await fail(
      server.rest("owner").patch(Routes.guildRoles(guild()), { body: { id: roles().member } }),
    );
    expect(notArray).toMatchObject({ status: 400, code: 50035 });
  });

  test("ties are sorted by id (the lower id ends higher); the owner may move any role", async () => {
    // Regular (older, lower id) and Member both asked for position 2.
    expect(BigInt(roles().regular) < BigInt(roles().member)).toBe(true);
    await server.rest("owner").patch(Routes.guildRoles(guild()), {
      body: [
        { id: roles().member, position: 2 },
        { id: roles().regular, position: 2 },
      ],
    });
    expect(await positions()).toMatchObject({ Helper: 1, Member: 2, Regular: 3, Moderator: 4 });
    // Restore the seeded order, moving the Admin role through the owner as well.
    await server.rest("owner").patch(Routes.guildRoles(guild()), {
      body: [
        { id: roles().member, position: 1 },
        { id: roles().regular, position: 2 },
        { id: roles().helper, position: 3 },
        { id: roles().admin, position: 6 },
      ],
    });
    expect(await positions()).toEqual({
      "@everyone": 0,
      Member: 1,
      Regular: 2,
      Helper: 3,
      Moderator: 4,
      "Guildhall Demo": 5,
      Admin: 6,
    });
  });
});

describe("Create Guild Role", () => {
  let created: Role;

  test("defaults from the spec; placed at position 1, the others move up; 200 with the role; event and audit entry", async () => {
    const before = await lastEventId();
    created = (await server
      .rest("mod")
      .post(Routes.guildRoles(guild()), { body: {}, reason: "for the event" })) as Role;
    expectOperationResponse("POST", "/guilds/{guild_id}/roles", 200, created);
    expect(created).toMatchObject({
      name: "new role",
      permissions: String(await EVERYONE_PERMISSIONS()),
      color: 0,
      colors: { primary_color: 0, secondary_color: null, tertiary_color: null },
      hoist: false,
      mentionable: false,
      managed: false,
      position: 1,
      icon: null,
      unicode_emoji: null,
    });
    expect(await positions()).toMatchObject({
      "new role": 1,
      Member: 2,
      Regular: 3,
      Helper: 4,
      Moderator: 5,
      "Guildhall Demo": 6,
      Admin: 7,
    });
    const events = await eventsSince<{ guild_id?: string; role?: Role }>(before);
    expect(events[0]).toMatchObject({
      type: "GUILD_ROLE_CREATE",
      d: { guild_id: guild(), role: { id: created.id, name: "new role" } },
    });
    expectSchema("GuildRoleResponse", events[0].d.role);
    expect(events.slice(1).every((e) => e.type === "GUILD_ROLE_UPDATE")).toBe(true);
    const [entry] = await auditEntries(guild(), 30, created.id);
    expect(entry).toMatchObject({ userId: server.world.users.mod, reason: "for the event" });
    expect(entry.changes).toContainEqual({ key: "name", new_value: "new role" });
  });

  test("fields: name at 100 ok and 101 refused; color sets the primary color; colors set color", async () => {
    const long = (await server.rest("mod").post(Routes.guildRoles(guild()), {
      body: { name: "x".repeat(100), color: 0x123456, hoist: true, mentionable: true },
    })) as Role;
    expect(long).toMatchObject({
      name: "x".repeat(100),
      color: 0x123456,
      colors: { primary_color: 0x123456 },
      hoist: true,
      mentionable: true,
    });
    expectSchema("GuildRoleResponse", long);
    const tooLong = await fail(
      server.rest("mod").post(Routes.guildRoles(guild()), { body: { name: "x".repeat(101) } }),
    );
    expect(tooLong).toMatchObject({ status: 400, code: 50035 });
    expect(fieldCodes(tooLong, "name")).toEqual(["BASE_TYPE_MAX_LENGTH"]);
    const viaColors = (await server
      .rest("mod")
      .patch(Routes.guildRole(guild(), long.id), { body: { colors: { primary_color: 0xabcdef } } })) as Role;
    expect(viaColors).toMatchObject({ color: 0xabcdef, colors: { primary_color: 0xabcdef, secondary_color: null } });
    await server.rest("mod").delete(Routes.guildRole(guild(), long.id));
  });

  test("gradient colors need ENHANCED_ROLE_COLORS; icons need ROLE_ICONS and a real image or emoji", async () => {
    const gradient = await fail(
      server
        .rest("mod")
        .post(Routes.guildRoles(guild()), { body: { colors: { primary_color: 1, secondary_color: 2 } } }),
    );
    expect(fieldCodes(gradient, "colors", "secondary_color")).toEqual(["GUILD_FEATURE_REQUIRED"]);
    expect(
      fieldCodes(
        await fail(server.rest("mod").post(Routes.guildRoles(guild()), { body: { unicode_emoji: "abc" } })),
        "unicode_emoji",
      ),
    ).toEqual(["EMOJI_INVALID"]);
    expect(
      fieldCodes(
        await fail(
          server.rest("mod").post(Routes.guildRoles(guild()), { body: { icon: "data:image/png;base64,AAAA" } }),
        ),
        "icon",
      ),
    ).toEqual(["IMAGE_INVALID"]);

    const png = PNG.sync.write(new PNG({ width: 64, height: 64 }));
    const withIcon = (await server.rest("mod").post(Routes.guildRoles(guild()), {
      body: { name: "iconic", icon: `data:image/png;base64,${png.toString("base64")}`, unicode_emoji: "🔥" },
    })) as Role;
    expect(withIcon.icon).toMatch(/^[0-9a-f]{32}$/);
    expect(withIcon.unicode_emoji).toBe("🔥");
    const served = await fetch(`${server.baseUrl}/cdn/role-icons/${withIcon.id}/${withIcon.icon}.png`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);

    const setFeatures = (features: string[]) =>
      sql.run("UPDATE guilds SET features = ? WHERE id = ?", JSON.stringify(features), BigInt(guild()));
    const others = (
      JSON.parse(
        ((await sql.get("SELECT features FROM guilds WHERE id = ?", BigInt(guild()))) as { features: string }).features,
      ) as string[]
    ).filter((feature) => feature !== "ROLE_ICONS");
    await setFeatures(others);
    try {
      expect(
        fieldCodes(
          await fail(server.rest("mod").post(Routes.guildRoles(guild()), { body: { unicode_emoji: "🔥" } })),
          "unicode_emoji",
        ),
      ).toEqual(["GUILD_FEATURE_REQUIRED"]);
    } finally {
      await setFeatures([...others, "ROLE_ICONS"]);
    }
    await server.rest("owner").delete(Routes.guildRole(guild(), withIcon.id));
  });

  test("nobody grants permissions they lack; administrators and the owner may; MANAGE_ROLES is required", async () => {
    const admin = String(P.Administrator);
    expect(
      await fail(server.rest("mod").post(Routes.guildRoles(guild()), { body: { permissions: admin } })),
    ).toMatchObject({ status: 403, code: 50013 });
    const kick = (await server
      .rest("mod")
      .post(Routes.guildRoles(guild()), { body: { name: "kickers", permissions: String(P.KickMembers) } })) as Role;
    expect(kick.permissions).toBe(String(P.KickMembers));
    const byAdmin = (await server
      .rest("admin")
      .post(Routes.guildRoles(guild()), { body: { name: "admins too", permissions: admin } })) as Role;
    expect(byAdmin.permissions).toBe(admin);
    expect(await fail(server.rest("helper").post(Routes.guildRoles(guild()), { body: {} }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("member").post(Routes.guildRoles(guild()), { body: {} }))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("outsider").post(Routes.guildRoles(guild()), { body: {} }))).toMatchObject({
      status: 403,
      code: 50001,
    });
    await server.rest("owner").delete(Routes.guildRole(guild(), kick.id));
    await server.rest("owner").delete(Routes.guildRole(guild(), byAdmin.id));
  });

  test("Modify Guild Role: fields not sent stay; event and audit changes; hierarchy and @everyone rules", async () => {
    const before = await lastEventId();
    const renamed = (await server.rest("mod").patch(Routes.guildRole(guild(), created.id), {
      body: { name: "Event Crew", hoist: true },
      reason: "rename",
    })) as Role;
    expectOperationResponse("PATCH", "/guilds/{guild_id}/roles/{role_id}", 200, renamed);
    expect(renamed).toMatchObject({
      name: "Event Crew",
      hoist: true,
      mentionable: false,
      color: 0,
      permissions: created.permissions,
    });
    const [event] = await eventsSince<{ guild_id?: string; role?: Role }>(before);
    expect(event).toMatchObject({
      type: "GUILD_ROLE_UPDATE",
      d: { guild_id: guild(), role: { id: created.id, name: "Event Crew" } },
    });
    expect((await auditEntries(guild(), 31, created.id)).at(-1)).toMatchObject({
      reason: "rename",
      changes: [
        { key: "name", old_value: "new role", new_value: "Event Crew" },
        { key: "hoist", old_value: false, new_value: true },
      ],
    });
    // Deprecated color keeps colors.primary_color in step.
    expect(
      ((await server.rest("mod").patch(Routes.guildRole(guild(), created.id), { body: { color: 0xff0000 } })) as Role)
        .colors.primary_color,
    ).toBe(0xff0000);

    // Hierarchy: a moderator cannot edit its own highest role, a role above it, or the managed bot role above it.
    for (const id of [roles().moderator, roles().admin, roles().bot]) {
      expect(
        await fail(server.rest("mod").patch(Routes.guildRole(guild(), id), { body: { name: "nope" } })),
      ).toMatchObject({ status: 403, code: 50013 });
    }
    expect(
      await fail(server.rest("admin").patch(Routes.guildRole(guild(), roles().admin), { body: { name: "nope" } })),
    ).toMatchObject({ status: 403, code: 50013 });
    // A managed role can be edited by someone above it; the owner edits anything.
    expect(
      (
        (await server
          .rest("admin")
          .patch(Routes.guildRole(guild(), roles().bot), { body: { color: 0x5865f2 } })) as Role
      ).color,
    ).toBe(0x5865f2);
    expect(
      (
        (await server
          .rest("owner")
          .patch(Routes.guildRole(guild(), roles().admin), { body: { mentionable: true } })) as Role
      ).mentionable,
    ).toBe(true);
    // Granting a permission the moderator lacks, by editing.
    expect(
      await fail(
        server
          .rest("mod")
          .patch(Routes.guildRole(guild(), created.id), { body: { permissions: String(P.Administrator) } }),
      ),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(
      await fail(server.rest("helper").patch(Routes.guildRole(guild(), created.id), { body: { name: "x" } })),
    ).toMatchObject({ status: 403, code: 50013 });
    expect(
      await fail(server.rest("mod").patch(Routes.guildRole(guild(), "42"), { body: { name: "x" } })),
    ).toMatchObject({ status: 404, code: 10011 });
    expect(
      fieldCodes(
        await fail(
          server.rest("mod").patch(Routes.guildRole(guild(), created.id), { body: { name: "y".repeat(101) } }),
        ),
        "name",
      ),
    ).toEqual(["BASE_TYPE_MAX_LENGTH"]);

    // @everyone: permissions only.
    const withoutMentions = (await EVERYONE_PERMISSIONS()) & ~P.MentionEveryone;
    const everyone = (await server
      .rest("mod")
      .patch(Routes.guildRole(guild(), guild()), { body: { permissions: String(withoutMentions) } })) as Role;
    expect(everyone.permissions).toBe(String(withoutMentions));
    expect(
      fieldCodes(
        await fail(server.rest("owner").patch(Routes.guildRole(guild(), guild()), { body: { name: "everybody" } })),
        "name",
      ),
    ).toEqual(["EVERYONE_ROLE_IMMUTABLE"]);
  });

  test("Delete Guild Role: leaves members (role_count in step) and channel overwrites; event; protected roles", async () => {
    const target = BigInt(created.id);
    const holders = (
      (await sql.all(
        "SELECT user_id FROM members WHERE guild_id = ? AND role_count = 0 AND user_id != ? ORDER BY user_id LIMIT 3",
        BigInt(guild()),
        BigInt(server.world.users.owner),
      )) as Array<{ user_id: bigint }>
    ).map((r) => r.user_id);
    for (const userId of holders)
      await server.rest("mod").put(Routes.guildMemberRole(guild(), String(userId), created.id));
    const roleCount = async (userId: bigint) =>
      Number(
        (
          (await sql.get(
            "SELECT role_count FROM members WHERE guild_id = ? AND user_id = ?",
            BigInt(guild()),
            userId,
          )) as { role_count: bigint }
        ).role_count,
      );
    expect(await Promise.all(holders.map(roleCount))).toEqual([1, 1, 1]);
    const overwrites = [{ id: created.id, type: 0, allow: String(P.ViewChannel), deny: "0" }];
    await sql.run(
      "UPDATE channels SET permission_overwrites = ? WHERE id = ?",
      JSON.stringify(overwrites),
      BigInt(server.world.channels.memes),
    );

    expect(await fail(server.rest("helper").delete(Routes.guildRole(guild(), created.id)))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("mod").delete(Routes.guildRole(guild(), roles().admin)))).toMatchObject({
      status: 403,
      code: 50013,
    });
    expect(await fail(server.rest("owner").delete(Routes.guildRole(guild(), guild())))).toMatchObject({
      status: 400,
      code: 50028,
    });
    expect(await fail(server.rest("owner").delete(Routes.guildRole(guild(), roles().bot)))).toMatchObject({
      status: 400,
      code: 50028,
    });

    const before = await lastEventId();
    await server.rest("mod").delete(Routes.guildRole(guild(), created.id), { reason: "event over" });
    expect(await Promise.all(holders.map(roleCount))).toEqual([0, 0, 0]);
    expect(
      ((await sql.get("SELECT COUNT(*) AS n FROM member_roles WHERE role_id = ?", target)) as { n: bigint }).n,
    ).toBe(0n);
    const channel = (await sql.get(
      "SELECT permission_overwrites FROM channels WHERE id = ?",
      BigInt(server.world.channels.memes),
    )) as { permission_overwrites: string };
    expect(JSON.parse(channel.permission_overwrites)).toEqual([]);
    const events = await eventsSince<{ guild_id?: string; role?: Role }>(before);
    expect(events.map((e) => e.type).sort()).toEqual(["CHANNEL_UPDATE", "GUILD_ROLE_DELETE"]);
    expect(events.find((e) => e.type === "GUILD_ROLE_DELETE")!.d).toEqual({ guild_id: guild(), role_id: created.id });
    expect((await auditEntries(guild(), 32, created.id)).at(-1)).toMatchObject({
      reason: "event over",
      changes: expect.arrayContaining([{ key: "name", old_value: "Event Crew" }]),
    });
    expect(await fail(server.rest("mod").get(Routes.guildRole(guild(), created.id)))).toMatchObject({
      status: 404,
      code: 10011,
    });
    expect(await fail(server.rest("mod").delete(Routes.guildRole(guild(), created.id)))).toMatchObject({
      status: 404,
      code: 10011,
    });
  });
});

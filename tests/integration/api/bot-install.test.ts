// Server installs through the bot scope: the bot's member, managed role and integration, in one transaction.
import { afterAll, beforeAll, expect, test } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { sql } from "@/lib/guild-api/store/db";

let server: TestServer;
let install: typeof import("@/lib/guild-api/services/bot-install");
let oauth2: typeof import("@/lib/guild-api/services/oauth2");
const APP = 8_000_000_000n;
const BOT = 8_000_000_001n;

beforeAll(async () => {
  server = await startTestServer();
  install = await import("@/lib/guild-api/services/bot-install");
  oauth2 = await import("@/lib/guild-api/services/oauth2");
  await sql.run(
    "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, 'helpful-bot', '0', TRUE, 0)",
    BOT,
  );
  await sql.run(
    "INSERT INTO applications (id, name, owner_id, bot_user_id, client_secret_hash, redirect_uris, created_at) VALUES (?, 'Helpful', ?, ?, 'x', '[\"https://example.test/cb\"]', 0)",
    APP,
    BigInt(server.world.users.admin),
    BOT,
  );
});
afterAll(() => server?.close());

const app = async () => (await oauth2.findApplication(APP))!;

test("only servers where the user has Manage Server are offered", async () => {
  expect((await install.installableGuilds(BigInt(server.world.users.mod))).map((g) => g.name)).toEqual([
    "Guildhall HQ",
  ]);
  expect(await install.installableGuilds(BigInt(server.world.users.member))).toEqual([]);
  expect((await install.installableGuilds(BigInt(server.world.users.admin))).map((g) => g.name).sort()).toEqual([
    "Guildhall HQ",
    "Side Project",
  ]);
});

test("a member without Manage Server cannot install", async () => {
  await expect(
    install.installBot({
      application: await app(),
      userId: BigInt(server.world.users.member),
      guildId: BigInt(server.world.guildId),
      permissions: 0n,
      scopes: ["bot"],
    }),
  ).rejects.toThrow(/Manage Server/);
  expect(await sql.get("SELECT 1 FROM members WHERE user_id = ?", BOT)).toBeUndefined();
});

test("installing creates the bot member with its managed role, the integration, and their events; twice is idempotent", async () => {
  const guild = BigInt(server.world.guildId);
  for (let i = 0; i < 2; i++)
    await install.installBot({
      application: await app(),
      userId: BigInt(server.world.users.mod),
      guildId: guild,
      permissions: 2048n,
      scopes: ["bot", "applications.commands"],
    });
  const member = (await server.rest("mod").get(`/guilds/${guild}/members/${BOT}`)) as { roles: string[] };
  expect(member.roles).toHaveLength(1);
  const role = (await sql.get(
    "SELECT name, permissions, managed, position, tags FROM roles WHERE id = ?",
    BigInt(member.roles[0]),
  )) as {
    name: string;
    permissions: bigint;
    managed: bigint;
    position: bigint;
    tags: string;
  };
  expect(role).toMatchObject({ name: "Helpful", permissions: 2048n, managed: 1n, position: 1n });
  expect(JSON.parse(role.tags)).toEqual({ bot_id: String(BOT) });
  const integrations = (await sql.all(
    "SELECT type, scopes FROM integrations WHERE guild_id = ? AND application_id = ?",
    guild,
    APP,
  )) as Array<{ type: string; scopes: string }>;
  expect(integrations).toEqual([{ type: "discord", scopes: '["bot","applications.commands"]' }]);
  const events = (
    (await sql.all("SELECT type FROM gateway_events WHERE guild_id = ? ORDER BY id", guild)) as Array<{ type: string }>
  ).map((e) => e.type);
  expect(events.filter((t) => t === "GUILD_MEMBER_ADD")).toHaveLength(1);
  expect(events).toContain("GUILD_ROLE_CREATE");
  expect(events).toContain("GUILD_INTEGRATIONS_UPDATE");
  // Roles stay a strict order after the insert at position 1.
  const positions = (
    (await sql.all("SELECT position FROM roles WHERE guild_id = ? ORDER BY position", guild)) as Array<{
      position: bigint;
    }>
  ).map((r) => Number(r.position));
  expect(positions).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
});

test("an application without the server installation context can't be installed to servers", async () => {
  await sql.run("UPDATE applications SET integration_types = '[1]' WHERE id = ?", APP);
  await expect(
    install.installBot({
      application: await app(),
      userId: BigInt(server.world.users.admin),
      guildId: BigInt(server.world.sideGuildId),
      permissions: 0n,
      scopes: ["bot"],
    }),
  ).rejects.toThrow(/user install only/);
});

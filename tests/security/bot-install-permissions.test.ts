// Finding 6 of issue 29: installing a bot granted what the installer lacks. A moderator with Manage Server (not
// Administrator) approved `scope=bot&permissions=8` and the bot's managed role got Administrator, while the same
// moderator's `POST /roles {"permissions":"8"}` is refused. The requested permissions are now masked to the
// installer's own (the owner and administrators hold every permission), and the consent page is told which bits
// will be granted and which were dropped, per server.
import { PermissionFlagsBits as P } from "discord-api-types/v10";
import { expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";
import { sql } from "@/lib/guild-api/store/db";

const server = testServerForFile();

/** A fresh application with its own bot, so every install below creates a new managed role. */
let nextApp = 8_200_000_000n;
async function newBotApplication(): Promise<bigint> {
  const app = (nextApp += 10n);
  const bot = app + 1n;
  await sql.run(
    "INSERT INTO users (id, username, discriminator, bot, created_at) VALUES (?, ?, '0', TRUE, 0)",
    bot,
    `bot-${app}`,
  );
  await sql.run(
    "INSERT INTO applications (id, name, owner_id, bot_user_id, client_secret_hash, redirect_uris, created_at) VALUES (?, ?, ?, ?, 'x', '[\"https://example.test/cb\"]', 0)",
    app,
    `Installer test ${app}`,
    BigInt(server.world.users.owner),
    bot,
  );
  return app;
}

async function install(username: "owner" | "admin" | "mod", permissions: bigint, guild = server.world.guildId) {
  const { installBot } = await import("@/lib/guild-api/services/bot-install");
  const { findApplication } = await import("@/lib/guild-api/services/oauth2");
  const appId = await newBotApplication();
  await installBot({
    application: (await findApplication(appId))!,
    userId: BigInt(server.world.users[username]),
    guildId: BigInt(guild),
    permissions,
    scopes: ["bot"],
  });
  const permissionsOfRole = await sql.value<bigint>(
    `SELECT r.permissions FROM roles r JOIN applications a ON r.tags = '{"bot_id":"' || CAST(a.bot_user_id AS TEXT) || '"}'
      WHERE a.id = ? AND r.guild_id = ? AND r.managed = TRUE`,
    appId,
    BigInt(guild),
  );
  return permissionsOfRole;
}

test("a moderator can't give a bot Administrator, just as they can't create a role with it", async () => {
  const roles = await server.api("mod", "POST", `/guilds/${server.world.guildId}/roles`, { permissions: "8" });
  expect(roles.status).toBe(403);

  // The moderator holds Ban Members, lacks Administrator and Manage Webhooks.
  const requested = P.Administrator | P.BanMembers | P.ManageWebhooks;
  expect(await install("mod", requested)).toBe(P.BanMembers);
});

test("the owner and administrators may grant every requested permission", async () => {
  const requested = P.Administrator | P.ManageWebhooks;
  expect(await install("owner", requested)).toBe(requested);
  expect(await install("admin", requested)).toBe(requested);
});

test("the consent page's data: per server, the permissions that will be granted and those dropped", async () => {
  const { installableGuilds } = await import("@/lib/guild-api/services/bot-install");
  const requested = P.Administrator | P.BanMembers | P.ManageWebhooks;
  const [hq] = await installableGuilds(BigInt(server.world.users.mod), requested);
  expect(hq).toMatchObject({
    id: server.world.guildId,
    name: "Guildhall HQ",
    grantedPermissions: P.BanMembers,
    droppedPermissions: P.Administrator | P.ManageWebhooks,
  });
  const adminGuilds = await installableGuilds(BigInt(server.world.users.admin), requested);
  for (const guild of adminGuilds)
    expect(guild).toMatchObject({ grantedPermissions: requested, droppedPermissions: 0n });
});

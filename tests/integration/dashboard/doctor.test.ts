// npm run doctor (lib/dashboard/doctor.ts) against the built-in API in its default mode: the demo bot passes; a bad
// token, a server the bot is not in, an unreachable API and a missing redirect URI fail; a bot whose role lacks
// permissions is warned which sections stay closed. The command's exit codes. Strict mode: discord-strict.test.ts.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { PermissionFlagsBits as P, Routes } from "discord-api-types/v10";
import { DASHBOARD_BOT_PERMISSIONS } from "@/lib/dashboard/bot-permissions";
import { runDoctor, type DoctorReport } from "@/lib/dashboard/doctor";
import { demoPublicUrl } from "@/lib/seed/demo-world";
import { testServerForFile } from "../harness";

const server = testServerForFile();
const api = () => `${server.baseUrl}/api`;
const doctor = (options: { botToken?: string; guildId?: string; publicUrl?: string; api?: string } = {}) =>
  runDoctor({ api: api(), botToken: server.botToken, publicUrl: demoPublicUrl(), ...options });
const statusOf = (report: DoctorReport, name: string) => report.checks.find((check) => check.name === name)?.status;

describe("npm run doctor against Guildhall", () => {
  test("the demo bot: every check passes; the one role above the bot's is named", async () => {
    const report = await doctor({ guildId: server.world.guildId });
    expect(report.usable).toBe(true);
    expect(report.checks.map((check) => [check.name, check.status])).toEqual([
      ["API", "ok"],
      ["bot token", "ok"],
      ["redirect URI", "ok"],
      ["members intent", "ok"],
      ["servers", "ok"],
      ["Guildhall HQ", "ok"],
      ["Guildhall HQ roles", "warn"],
      ["gateway", "ok"],
    ]);
    // The demo world keeps Admin above its bot: admins are out of the bot's reach on Discord too.
    expect(report.checks.find((check) => check.name === "Guildhall HQ roles")!.detail).toMatch(
      /^Admin is above the bot's highest role: members with it can't be moderated/,
    );
  });

  test("what stops the dashboard fails the report, and says what to change", async () => {
    const badToken = await doctor({ botToken: "not.a.token" });
    expect(badToken.usable).toBe(false);
    expect(statusOf(badToken, "bot token")).toBe("fail");

    const userToken = await doctor({ botToken: await server.tokenFor("owner") });
    expect(statusOf(userToken, "bot token")).toBe("fail");

    const notThere = await doctor({ guildId: "1234567890123" });
    expect(statusOf(notThere, "servers")).toBe("fail");
    expect(notThere.checks.at(-1)!.detail).toContain("/oauth2/authorize?client_id=");

    const redirect = await doctor({ publicUrl: "https://guildhall.example" });
    expect(statusOf(redirect, "redirect URI")).toBe("fail");
    expect(redirect.usable).toBe(false);

    const unreachable = await doctor({ api: "http://127.0.0.1:9/api" });
    expect(unreachable.checks).toHaveLength(1);
    expect(statusOf(unreachable, "API")).toBe("fail");
  });

  test("a bot without Administrator or View Audit Log is told which sections stay closed", async () => {
    const role = server.world.roles.bot;
    const before = (await server.rest("owner").get(Routes.guildRole(server.world.guildId, role))) as {
      permissions: string;
    };
    await server.rest("owner").patch(Routes.guildRole(server.world.guildId, role), {
      body: { permissions: String(P.ManageGuild | P.BanMembers | P.ViewChannel) },
    });
    try {
      const report = await doctor({ guildId: server.world.guildId });
      expect(report.usable).toBe(true);
      const guild = report.checks.find((check) => check.name === "Guildhall HQ")!;
      expect(guild.status).toBe("warn");
      expect(guild.detail).toContain("Roles (needs Manage Roles)");
      expect(guild.detail).not.toContain("Bans (");

      // Every section open, but not every action: timeouts and nicknames are refused without their permissions.
      await server.rest("owner").patch(Routes.guildRole(server.world.guildId, role), {
        body: { permissions: String(DASHBOARD_BOT_PERMISSIONS & ~(P.ModerateMembers | P.ManageNicknames)) },
      });
      const partial = (await doctor({ guildId: server.world.guildId })).checks.find(
        (check) => check.name === "Guildhall HQ",
      )!;
      expect(partial.status).toBe("warn");
      expect(partial.detail).toMatch(/^every section opens, but the bot needs Manage Nicknames and Timeout Members/);
      await server.rest("owner").patch(Routes.guildRole(server.world.guildId, role), {
        body: { permissions: String(DASHBOARD_BOT_PERMISSIONS) },
      });
      expect(statusOf(await doctor({ guildId: server.world.guildId }), "Guildhall HQ")).toBe("ok");
    } finally {
      await server.rest("owner").patch(Routes.guildRole(server.world.guildId, role), {
        body: { permissions: before.permissions },
      });
    }
  });

  test("the command prints the report and exits 0 when the dashboard can run, 1 when not, 2 on a usage error", async () => {
    const run = (...args: string[]) =>
      promisify(execFile)("npx", ["tsx", "scripts/doctor.ts", ...args], {
        env: { ...process.env, PUBLIC_URL: demoPublicUrl() },
      }).then(
        ({ stdout }) => ({ code: 0, stdout }),
        (error: { code: number; stdout: string }) => ({ code: error.code, stdout: error.stdout }),
      );
    const ok = await run("--api", api(), "--bot-token", server.botToken);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(/^ok {4}bot token: the bot /m);
    const refused = await run("--api", `${api()}/v10`, "--bot-token", "nope");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/^FAIL {2}bot token: refused: 401/m);
    expect((await run("--api")).code).toBe(2);
  }, 60_000);
});

// DISCORD_STRICT=1 (lib/guild-api/strict.ts): the built-in API on Discord's terms. A user's OAuth2 token, even with
// Guildhall's management scope, gets Discord's 401 on every management route and cannot open a gateway session; the
// management scope is an unknown scope; Guildhall's extension routes answer 404 as unknown routes do; bots work as on
// Discord. The default mode's side of each row is tested where the feature is (tokens, invites, the outbox reader).
import { afterAll, describe, expect, test } from "vitest";
import { GatewayIntentBits as I, Routes } from "discord-api-types/v10";
import { testServerForFile } from "../harness";
import { RawGatewayClient } from "./gateway-client";
import { runDoctor } from "@/lib/dashboard/doctor";
import { setDiscordStrict } from "@/lib/guild-api/strict";
import { demoPublicUrl } from "@/lib/seed/demo-world";

const server = testServerForFile({ strict: true });
afterAll(() => setDiscordStrict(false));

const guild = () => server.world.guildId;
const call = async (as: string | null, method: string, route: string, body?: unknown) => {
  const response = await server.api(as, method, route, body);
  return { status: response.status, body: (await response.json().catch(() => null)) as Record<string, unknown> };
};

describe("DISCORD_STRICT=1: Discord's terms", () => {
  test("a Bearer token with the management scope gets Discord's 401 on management routes; a bot is served", async () => {
    for (const [method, route, body] of [
      ["GET", `/guilds/${guild()}`],
      ["GET", `/guilds/${guild()}/members?limit=5`],
      ["POST", `/guilds/${guild()}/roles`, { name: "strict" }],
      ["PATCH", `/guilds/${guild()}/widget`, { enabled: false }],
      ["GET", `/users/${server.world.users.member}`],
    ] as Array<[string, string, unknown?]>) {
      expect(await call("owner", method, route, body), `${method} ${route}`).toEqual({
        status: 401,
        body: { message: "401: Unauthorized", code: 0 },
      });
    }
    expect((await call("bot", "GET", `/guilds/${guild()}`)).status).toBe(200);
    expect((await call("bot", "GET", `/guilds/${guild()}/members?limit=5`)).status).toBe(200);
    // What Discord lets a user's token do stays: its own user and guilds, and a guild's channels.
    expect((await call("owner", "GET", "/users/@me")).status).toBe(200);
    expect((await call("owner", "GET", "/users/@me/guilds")).status).toBe(200);
    expect((await call("owner", "GET", Routes.guildChannels(guild()))).status).toBe(200);
  });

  test("Guildhall's extension routes are unknown routes", async () => {
    expect(await call("bot", "GET", `/guilds/${guild()}/events`)).toEqual({
      status: 404,
      body: { message: "404: Not Found", code: 0 },
    });
    // The invite's path has other methods: 405, as for any method a path does not have.
    expect(await call("member", "POST", "/invites/guildhall")).toEqual({
      status: 405,
      body: { message: "405: Method Not Allowed", code: 0 },
    });
  });

  test("the management scope is unknown, and a user's token opens no gateway session", async () => {
    const credentials = Buffer.from(`${server.world.applicationId}:${server.clientSecret}`).toString("base64");
    const response = await fetch(`${server.baseUrl}/api/oauth2/token`, {
      method: "POST",
      headers: { authorization: `Basic ${credentials}`, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "client_credentials", scope: "identify guildhall.manage" }),
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: "invalid_scope",
      error_description: "Unknown scope: guildhall.manage.",
    });

    const user = await RawGatewayClient.connect(server.baseUrl.replace(/^http/, "ws"));
    await user.next((payload) => payload.op === 10);
    user.send(2, { token: await server.tokenFor("owner"), intents: I.Guilds, properties: {} });
    expect((await user.closed).code).toBe(4004);
    const bot = await RawGatewayClient.connect(server.baseUrl.replace(/^http/, "ws"));
    expect((await bot.identify(server.botToken, I.Guilds)).t).toBe("READY");
    bot.close();
  });

  test("npm run doctor passes the demo bot on Discord's terms", async () => {
    const report = await runDoctor({
      api: `${server.baseUrl}/api`,
      botToken: server.botToken,
      guildId: guild(),
      publicUrl: demoPublicUrl(),
    });
    // Only the demo world's Admin role above the bot's, as in the default mode (doctor.test.ts).
    expect(report.checks.filter((check) => check.status !== "ok").map((check) => check.name)).toEqual([
      "Guildhall HQ roles",
    ]);
    expect(report.usable).toBe(true);
  });
});

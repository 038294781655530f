import { describe, expect, test } from "vitest";
import { DiscordAPIError } from "@discordjs/rest";
import { Routes } from "discord-api-types/v10";
import { testServerForFile } from "../harness";
import { expectSchema } from "../openapi";

const server = testServerForFile();

describe("fast path", () => {
  test("GET /users/@me answers the token's user, in Discord's UserResponse shape", async () => {
    const me = (await server.rest("mod").get(Routes.user())) as { id: string; username: string };
    expect(me.username).toBe("mod");
    expect(me.id).toBe(server.world.users.mod);
    expectSchema("UserPIIResponse", me);
  });

  test("every API answer says how long the server took (Server-Timing), errors included", async () => {
    for (const response of [
      await server.api("mod", "GET", "/users/@me"),
      await server.api("mod", "GET", "/definitely/not/a/route"),
    ]) {
      expect(response.headers.get("server-timing")).toMatch(/^app;dur=\d+\.\d{2}$/);
      await response.arrayBuffer();
    }
  });

  test("unknown /api/v10 paths answer Discord's 404 body", async () => {
    const response = await server.api("mod", "GET", "/definitely/not/a/route");
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('{"message":"404: Not Found","code":0}');
  });

  test("a bad token answers 401 with Discord's body", async () => {
    const response = await fetch(`${server.baseUrl}/api/v10/users/@me`, {
      headers: { authorization: "Bearer not-a-token" },
    });
    expect(response.status).toBe(401);
    expect(await response.text()).toBe('{"message":"401: Unauthorized","code":0}');
  });

  test("a token without the identify scope is refused /users/@me", async () => {
    const token = await server.tokenFor("mod", ["guilds"]);
    const response = await fetch(`${server.baseUrl}/api/v10/users/@me`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ code: 50026, message: "Missing required OAuth2 scope" });
  });

  test("@discordjs/rest surfaces our errors as DiscordAPIError", async () => {
    const error = await server
      .rest("mod")
      .get("/nope" as `/${string}`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect((error as DiscordAPIError).status).toBe(404);
  });
});

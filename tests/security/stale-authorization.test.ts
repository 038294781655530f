// Finding 1 of issue 12: a caller who starts a write, holds back its body, and is demoted, banned or has the token
// revoked meanwhile must be judged as they are when the body arrives. Each case opens a real socket, sends the
// headers and half of the body, lets the owner act, then sends the rest: the write is refused and nothing changed.
import net from "node:net";
import { Routes } from "discord-api-types/v10";
import { describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();

interface RawResponse {
  status: number;
  body: string;
}

/**
 * Sends `method path` with the full Content-Length but only the first half of the body, runs `meanwhile`, then sends
 * the rest and reads the answer.
 */
async function withHeldBackBody(
  method: string,
  path: string,
  authorization: string,
  json: unknown,
  meanwhile: () => Promise<void>,
  contentType = "application/json",
): Promise<RawResponse> {
  const url = new URL(server.baseUrl);
  const body = Buffer.isBuffer(json) ? json : Buffer.from(JSON.stringify(json));
  const half = Math.floor(body.length / 2);
  const socket = net.connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  socket.write(
    [
      `${method} /api/v10${path} HTTP/1.1`,
      `Host: ${url.host}`,
      `Authorization: ${authorization}`,
      `Content-Type: ${contentType}`,
      `Content-Length: ${body.length}`,
      "Connection: close",
      "",
      "",
    ].join("\r\n"),
  );
  socket.write(body.subarray(0, half));
  // Give the server time to route the request and start waiting for the rest of the body.
  await new Promise((resolve) => setTimeout(resolve, 150));
  expect(chunks).toHaveLength(0); // nothing answered yet: the server is waiting for the body
  await meanwhile();
  // Written, not ended: a client that half-closes its side gets its socket closed by node's server before an answer
  // that needs a database round trip (PostgreSQL) is written; "Connection: close" ends it once answered.
  socket.write(body.subarray(half));
  await closed;
  const text = Buffer.concat(chunks).toString("utf8");
  const [head, ...rest] = text.split("\r\n\r\n");
  const status = Number(head.split(" ")[1]);
  return { status, body: rest.join("\r\n\r\n") };
}

const guildName = async () => {
  const guild = (await server.rest("owner").get(Routes.guild(server.world.guildId))) as { name: string };
  return guild.name;
};

describe("stale authorization: the caller is judged when the held-back body arrives", () => {
  test("a token revoked while its body is held back writes nothing (401)", async () => {
    const token = await server.tokenFor("mod");
    const before = await guildName();
    const answer = await withHeldBackBody(
      "PATCH",
      `/guilds/${server.world.guildId}`,
      `Bearer ${token}`,
      { name: "Renamed by a revoked token" },
      async () => {
        const response = await fetch(`${server.baseUrl}/api/v10/oauth2/token/revoke`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            authorization: `Basic ${Buffer.from(`${server.world.applicationId}:${server.clientSecret}`).toString("base64")}`,
          },
          body: new URLSearchParams({ token }),
        });
        expect(response.status).toBe(200);
      },
    );
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 0, message: "401: Unauthorized" });
    expect(await guildName()).toBe(before);
  });

  test("a moderator demoted while the body is held back cannot ban (403), and no ban exists", async () => {
    const { guildId, users, roles } = server.world;
    const answer = await withHeldBackBody(
      "PUT",
      `/guilds/${guildId}/bans/${users.member}`,
      `Bearer ${await server.tokenFor("mod")}`,
      { delete_message_seconds: 0 },
      async () => {
        await server.rest("owner").delete(Routes.guildMemberRole(guildId, users.mod, roles.moderator));
      },
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 50013 });
    const ban = await server.api("owner", "GET", `/guilds/${guildId}/bans/${users.member}`);
    expect(ban.status).toBe(404);
    const member = await server.api("owner", "GET", `/guilds/${guildId}/members/${users.member}`);
    expect(member.status).toBe(200);
  });

  test("an administrator banned while the body is held back cannot modify the guild (403)", async () => {
    const { guildId, users } = server.world;
    const before = await guildName();
    const answer = await withHeldBackBody(
      "PATCH",
      `/guilds/${guildId}`,
      `Bearer ${await server.tokenFor("admin")}`,
      { name: "Renamed by a banned admin" },
      async () => {
        await server.rest("owner").put(Routes.guildBan(guildId, users.admin), { body: {} });
      },
    );
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 50001 });
    expect(await guildName()).toBe(before);
  });

  test("Update Target Users, whose CSV is checked asynchronously, judges the demoted caller again before writing", async () => {
    const { guildId, users, roles, channels } = server.world;
    // The admin is gone (banned above) and the mod demoted: a fresh moderator holds Manage Server through the role.
    await server.rest("owner").put(Routes.guildMemberRole(guildId, users.helper, roles.moderator));
    const created = await server.api("owner", "POST", `/channels/${channels.general}/invites`, { unique: true });
    const { code } = (await created.json()) as { code: string };
    const boundary = "----held-back";
    const csv = `user_id\n${users.member}\n${users.outsider}\n`;
    const multipart = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="target_users_file"; filename="t.csv"\r\n` +
        `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    );
    const answer = await withHeldBackBody(
      "PUT",
      `/invites/${code}/target-users`,
      `Bearer ${await server.tokenFor("helper")}`,
      multipart,
      async () => {
        await server.rest("owner").delete(Routes.guildMemberRole(guildId, users.helper, roles.moderator));
      },
      `multipart/form-data; boundary=${boundary}`,
    );
    expect(answer.status).toBe(403);
    const status = await server.api("owner", "GET", `/invites/${code}/target-users/job-status`);
    expect(await status.json()).toMatchObject({ status: 0, total_users: 0 });
  });
});

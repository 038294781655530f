// Finding 10 (413): a body over its limit is answered 413 with Discord's JSON error, read by a real client, instead of
// a TCP reset; with a Content-Length and without one (chunked).
import http from "node:http";
import { describe, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();

const KiB = 1024;
const MiB = 1024 * KiB;

/** A JSON body of about `bytes` bytes: one long string field the schema would refuse anyway. */
const jsonOf = (bytes: number) => JSON.stringify({ description: "x".repeat(bytes) });

/** Sends `body` with node:http, chunked (no Content-Length) when `chunked`, and reads the whole answer. */
function send(
  path: string,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
  chunked: boolean,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const url = new URL(`${server.baseUrl}/api/v10${path}`);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method, headers: chunked ? headers : { ...headers, "content-length": String(body.length) } },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    // In 64 KiB pieces, as a real upload arrives.
    let offset = 0;
    const writeMore = () => {
      while (offset < body.length) {
        const piece = body.subarray(offset, offset + 64 * KiB);
        offset += piece.length;
        if (!request.write(piece)) return void request.once("drain", writeMore);
      }
      request.end();
    };
    writeMore();
  });
}

const auth = async () => `Bearer ${await server.tokenFor("owner")}`;

describe("bodies over their limit", () => {
  test("fetch gets 413 JSON for a 17 MB Modify Guild (the largest limit, 16 MiB for images), nothing is reset", async () => {
    const response = await fetch(`${server.baseUrl}/api/v10/guilds/${server.world.guildId}`, {
      method: "PATCH",
      headers: { authorization: await auth(), "content-type": "application/json" },
      body: jsonOf(17 * MiB),
      signal: AbortSignal.timeout(20_000),
    });
    expect(response.status).toBe(413);
    expect(response.headers.get("content-type")).toBe("application/json");
    expect(await response.json()).toEqual({
      code: 40005,
      message: expect.stringContaining("Request entity too large"),
    });
  });

  test("a JSON route without images refuses 300 KiB (limit 256 KiB) with 413 JSON, with and without Content-Length", async () => {
    const path = `/guilds/${server.world.guildId}/members/${server.world.users.member}`;
    const headers = { authorization: await auth(), "content-type": "application/json" };
    for (const chunked of [false, true]) {
      const answer = await send(path, "PATCH", headers, Buffer.from(jsonOf(300 * KiB)), chunked);
      expect(answer.status, `chunked: ${chunked}`).toBe(413);
      expect(JSON.parse(answer.text)).toMatchObject({ code: 40005 });
    }
    // Just under the limit is read and judged by the schema (a nick of 200 KiB is too long): 400, not 413.
    const under = await send(
      path,
      "PATCH",
      headers,
      Buffer.from(JSON.stringify({ nick: "n".repeat(200 * KiB) })),
      true,
    );
    expect(under.status).toBe(400);
    expect(JSON.parse(under.text)).toMatchObject({ code: 50035, errors: { nick: {} } });
  });

  test("the connection stays usable after a 413 whose body was fully sent", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const path = `/guilds/${server.world.guildId}/members/${server.world.users.member}`;
    const authorization = await auth();
    const once = (body: string) =>
      new Promise<number>((resolve, reject) => {
        const request = http.request(
          new URL(`${server.baseUrl}/api/v10${path}`),
          {
            method: "PATCH",
            agent,
            headers: {
              authorization,
              "content-type": "application/json",
              "content-length": Buffer.byteLength(body),
            },
          },
          (response) => {
            response.resume();
            response.on("end", () => resolve(response.statusCode ?? 0));
          },
        );
        request.on("error", reject);
        request.end(body);
      });
    expect(await once(jsonOf(300 * KiB))).toBe(413);
    expect(await once(JSON.stringify({}))).toBe(200);
    agent.destroy();
  });
});

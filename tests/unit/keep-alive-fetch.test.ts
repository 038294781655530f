// The dashboard's keep-alive transport against a tiny local HTTP server: what the RestClient reads (status, headers,
// JSON bodies, empty 204s) comes back as from the global fetch, bodies go out with their length, sockets are reused,
// a 429 is waited out and resent, aborts reject, and uploads fall back to the global fetch.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GuildApiClient, RateLimitError } from "@/lib/api-client";
import { keepAliveFetch } from "@/lib/api-client/keep-alive-fetch";

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  remotePort: number;
}

let server: http.Server;
let origin: string;
let seen: Seen[] = [];
let answer: (req: Seen) => { status: number; body?: string; headers?: Record<string, string> };

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const entry = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body,
        remotePort: req.socket.remotePort ?? 0,
      };
      seen.push(entry);
      const reply = answer(entry);
      if (req.url === "/slow") return void setTimeout(() => res.end("late"), 2_000);
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

const reset = (reply: typeof answer) => {
  seen = [];
  answer = reply;
};

describe("keepAliveFetch", () => {
  it("sends method, headers and a body with its length; answers status, headers and body as a Response", async () => {
    reset(() => ({
      status: 201,
      body: '{"ok":true}',
      headers: { "content-type": "application/json", "x-ratelimit-remaining": "4" },
    }));
    const response = await keepAliveFetch(`${origin}/api/v10/things?x=1`, {
      method: "PATCH",
      headers: { authorization: "Bearer tok", "content-type": "application/json" },
      body: '{"name":"é"}',
    });
    expect(response.status).toBe(201);
    expect(response.ok).toBe(true);
    expect(response.headers.get("x-ratelimit-remaining")).toBe("4");
    expect(await response.json()).toEqual({ ok: true });
    expect(seen).toMatchObject([{ method: "PATCH", url: "/api/v10/things?x=1", body: '{"name":"é"}' }]);
    expect(seen[0].headers).toMatchObject({ authorization: "Bearer tok", "content-length": "13" });
    expect(seen[0].headers["transfer-encoding"]).toBeUndefined();
  });

  it("a 204 has an empty body; sequential requests reuse one socket", async () => {
    reset(() => ({ status: 204 }));
    const first = await keepAliveFetch(`${origin}/a`, { method: "PUT" });
    const second = await keepAliveFetch(`${origin}/b`, { method: "DELETE" });
    expect([first.status, second.status]).toEqual([204, 204]);
    expect(first.body).toBeNull();
    expect(await second.text()).toBe("");
    expect(seen.map((s) => s.method)).toEqual(["PUT", "DELETE"]);
    expect(seen[0].remotePort).toBe(seen[1].remotePort);
  });

  it("an aborted request rejects", async () => {
    reset(() => ({ status: 200 }));
    await expect(keepAliveFetch(`${origin}/slow`, { signal: AbortSignal.timeout(50) })).rejects.toThrow();
  });

  it("a FormData body goes through the global fetch, multipart intact", async () => {
    reset(() => ({ status: 200, body: "{}", headers: { "content-type": "application/json" } }));
    const form = new FormData();
    form.set("payload_json", '{"a":1}');
    const response = await keepAliveFetch(`${origin}/upload`, { method: "POST", body: form });
    expect(response.status).toBe(200);
    expect(seen[0].headers["content-type"]).toMatch(/^multipart\/form-data; boundary=/);
    expect(seen[0].body).toContain('{"a":1}');
  });

  it("under the RestClient: a short 429 is waited out and resent; a long one throws RateLimitError", async () => {
    const api = new GuildApiClient({ baseUrl: `${origin}/api`, token: "tok", fetch: keepAliveFetch });
    let calls = 0;
    reset(() =>
      ++calls === 1
        ? {
            status: 429,
            body: '{"message":"You are being rate limited.","retry_after":0.05,"global":false}',
            headers: { "content-type": "application/json", "x-ratelimit-reset-after": "0.05" },
          }
        : { status: 204 },
    );
    await api.members.addRole("1", "2", "3");
    expect(seen.map((s) => s.url)).toEqual([
      "/api/v10/guilds/1/members/2/roles/3",
      "/api/v10/guilds/1/members/2/roles/3",
    ]);

    reset(() => ({
      status: 429,
      body: '{"message":"You are being rate limited.","retry_after":60,"global":false}',
      headers: { "content-type": "application/json", "retry-after": "60" },
    }));
    const error = await api.members.addRole("1", "2", "3").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect((error as RateLimitError).retryAfter).toBe(60);
  });
});

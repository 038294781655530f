// Every in-scope operation's live response, walked along the schema Discord's OpenAPI declares for it: each field the
// description marks required (and each field a client library reads unguarded, openapi.ts LIBRARY_REQUIRED) must be
// present at every depth. A missing field is named by its JSON path, so a gap such as application.summary shows up
// here before a bot author's KeyError does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../harness";
import { missingRequiredFields, operationResponseSchema } from "../openapi";

let server: TestServer;
const state: Record<string, string> = {};

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

interface Operation {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** The path as Discord's OpenAPI names it. */
  spec: string;
  /** The live call: path under /api/v10, optional body, caller (the bot unless named). */
  call: () => { route: string; body?: unknown; as?: string };
  status?: number;
  /** Tells apart two calls of one operation. */
  label?: string;
  /** Keeps what later operations need (ids of what this one made). */
  after?: (body: Record<string, unknown>) => void;
}

const g = () => server.world.guildId;
const w = () => server.world;

// In order: later operations use what earlier ones made, and deletions come last.
const OPERATIONS: Operation[] = [
  { method: "GET", spec: "/users/@me", call: () => ({ route: "/users/@me" }) },
  { method: "GET", spec: "/users/@me/guilds", call: () => ({ route: "/users/@me/guilds", as: "owner" }) },
  { method: "GET", spec: "/users/{user_id}", call: () => ({ route: `/users/${w().users.mod}` }) },
  { method: "GET", spec: "/oauth2/applications/@me", call: () => ({ route: "/oauth2/applications/@me" }) },
  { method: "GET", spec: "/applications/@me", call: () => ({ route: "/applications/@me" }) },
  {
    method: "PATCH",
    spec: "/applications/@me",
    call: () => ({ route: "/applications/@me", body: { description: "checked" } }),
  },
  { method: "GET", spec: "/voice/regions", call: () => ({ route: "/voice/regions" }) },
  { method: "GET", spec: "/guilds/{guild_id}", call: () => ({ route: `/guilds/${g()}?with_counts=true` }) },
  {
    method: "PATCH",
    spec: "/guilds/{guild_id}",
    call: () => ({ route: `/guilds/${g()}`, body: { description: "required fields" } }),
  },
  { method: "GET", spec: "/guilds/{guild_id}/preview", call: () => ({ route: `/guilds/${g()}/preview` }) },
  { method: "GET", spec: "/guilds/{guild_id}/channels", call: () => ({ route: `/guilds/${g()}/channels` }) },
  {
    method: "POST",
    spec: "/guilds/{guild_id}/channels",
    call: () => ({ route: `/guilds/${g()}/channels`, body: { name: "Required Fields", topic: "t" } }),
    status: 201,
    after: (body) => (state.channel = String(body.id)),
  },
  { method: "GET", spec: "/channels/{channel_id}", call: () => ({ route: `/channels/${state.channel}` }) },
  {
    method: "PATCH",
    spec: "/channels/{channel_id}",
    call: () => ({ route: `/channels/${state.channel}`, body: { name: "renamed", nsfw: true } }),
  },
  {
    method: "POST",
    spec: "/channels/{channel_id}/invites",
    call: () => ({ route: `/channels/${state.channel}/invites`, body: { max_age: 600 } }),
    after: (body) => (state.invite = String(body.code)),
  },
  {
    method: "GET",
    spec: "/channels/{channel_id}/invites",
    call: () => ({ route: `/channels/${state.channel}/invites` }),
  },
  { method: "GET", spec: "/guilds/{guild_id}/invites", call: () => ({ route: `/guilds/${g()}/invites` }) },
  { method: "GET", spec: "/invites/{code}", call: () => ({ route: `/invites/${state.invite}?with_counts=true` }) },
  { method: "GET", spec: "/invites/{code}", label: "(vanity code)", call: () => ({ route: "/invites/guildhall" }) },
  {
    method: "GET",
    spec: "/guilds/{guild_id}/threads/active",
    call: () => ({ route: `/guilds/${g()}/threads/active` }),
  },
  { method: "GET", spec: "/guilds/{guild_id}/members", call: () => ({ route: `/guilds/${g()}/members?limit=1000` }) },
  {
    method: "GET",
    spec: "/guilds/{guild_id}/members/search",
    call: () => ({ route: `/guilds/${g()}/members/search?query=m&limit=100` }),
  },
  {
    method: "GET",
    spec: "/guilds/{guild_id}/members/{user_id}",
    call: () => ({ route: `/guilds/${g()}/members/${w().users.member}` }),
  },
  {
    method: "PATCH",
    spec: "/guilds/{guild_id}/members/{user_id}",
    call: () => ({ route: `/guilds/${g()}/members/${w().users.member}`, body: { nick: "Checked" } }),
  },
  {
    method: "PATCH",
    spec: "/guilds/{guild_id}/members/@me",
    call: () => ({ route: `/guilds/${g()}/members/@me`, body: { nick: "Bot" } }),
  },
  { method: "GET", spec: "/guilds/{guild_id}/roles", call: () => ({ route: `/guilds/${g()}/roles` }) },
  {
    method: "POST",
    spec: "/guilds/{guild_id}/roles",
    call: () => ({ route: `/guilds/${g()}/roles`, body: { name: "Checked" } }),
    after: (body) => (state.role = String(body.id)),
  },
  {
    method: "GET",
    spec: "/guilds/{guild_id}/roles/{role_id}",
    call: () => ({ route: `/guilds/${g()}/roles/${state.role}` }),
  },
  {
    method: "PATCH",
    spec: "/guilds/{guild_id}/roles/{role_id}",
    call: () => ({ route: `/guilds/${g()}/roles/${state.role}`, body: { hoist: true } }),
  },
  {
    method: "PATCH",
    spec: "/guilds/{guild_id}/roles",
    call: () => ({ route: `/guilds/${g()}/roles`, body: [{ id: state.role, position: 1 }] }),
  },
  {
    method: "GET",
    spec: "/guilds/{guild_id}/roles/member-counts",
    call: () => ({ route: `/guilds/${g()}/roles/member-counts` }),
  },
  {
    method: "POST",
    spec: "/guilds/{guild_id}/bulk-ban",
    call: () => ({ route: `/guilds/${g()}/bulk-ban`, body: { user_ids: [w().users.outsider] } }),
  },
  { method: "GET", spec: "/guilds/{guild_id}/bans", call: () => ({ route: `/guilds/${g()}/bans` }) },
  {
    method: "GET",
    spec: "/guilds/{guild_id}/bans/{user_id}",
    call: () => ({ route: `/guilds/${g()}/bans/${w().users.outsider}` }),
  },
  { method: "GET", spec: "/guilds/{guild_id}/prune", call: () => ({ route: `/guilds/${g()}/prune?days=30` }) },
  {
    method: "POST",
    spec: "/guilds/{guild_id}/prune",
    call: () => ({ route: `/guilds/${g()}/prune`, body: { days: 30, compute_prune_count: true } }),
  },
  { method: "GET", spec: "/guilds/{guild_id}/regions", call: () => ({ route: `/guilds/${g()}/regions` }) },
  { method: "GET", spec: "/guilds/{guild_id}/integrations", call: () => ({ route: `/guilds/${g()}/integrations` }) },
  { method: "GET", spec: "/guilds/{guild_id}/vanity-url", call: () => ({ route: `/guilds/${g()}/vanity-url` }) },
  { method: "GET", spec: "/guilds/{guild_id}/widget", call: () => ({ route: `/guilds/${g()}/widget` }) },
  {
    method: "PATCH",
    spec: "/guilds/{guild_id}/widget",
    call: () => ({ route: `/guilds/${g()}/widget`, body: { enabled: true, channel_id: w().channels.general } }),
  },
  { method: "GET", spec: "/guilds/{guild_id}/widget.json", call: () => ({ route: `/guilds/${g()}/widget.json` }) },
  {
    method: "GET",
    spec: "/guilds/{guild_id}/welcome-screen",
    call: () => ({ route: `/guilds/${g()}/welcome-screen` }),
  },
  {
    method: "PATCH",
    spec: "/guilds/{guild_id}/welcome-screen",
    call: () => ({ route: `/guilds/${g()}/welcome-screen`, body: { description: "Checked" } }),
  },
  { method: "GET", spec: "/guilds/{guild_id}/onboarding", call: () => ({ route: `/guilds/${g()}/onboarding` }) },
  {
    method: "PUT",
    spec: "/guilds/{guild_id}/incident-actions",
    call: () => ({ route: `/guilds/${g()}/incident-actions`, body: { invites_disabled_until: null } }),
  },
  { method: "DELETE", spec: "/invites/{code}", call: () => ({ route: `/invites/${state.invite}` }) },
  { method: "DELETE", spec: "/channels/{channel_id}", call: () => ({ route: `/channels/${state.channel}` }) },
];

describe("every field Discord's OpenAPI marks required is in the live response", () => {
  for (const operation of OPERATIONS) {
    const status = operation.status ?? 200;
    it(`${operation.method} ${operation.spec}${operation.label ? ` ${operation.label}` : ""}`, async () => {
      const { route, body, as = "bot" } = operation.call();
      const response = await server.api(as, operation.method, route, body);
      const json = (await response.json()) as Record<string, unknown>;
      expect(response.status, JSON.stringify(json)).toBe(status);
      const schema = operationResponseSchema(operation.method, operation.spec, status);
      expect(missingRequiredFields(schema, json)).toEqual([]);
      operation.after?.(json);
    });
  }

  it("the walker finds a missing field at depth (it can fail)", () => {
    const schema = operationResponseSchema("GET", "/guilds/{guild_id}/integrations", 200);
    const integration = {
      id: "1",
      name: "bot",
      type: "discord",
      enabled: true,
      account: { id: "1", name: "bot" },
      scopes: ["bot"],
      application: { id: "1", name: "app", icon: null, description: "", type: null },
    };
    expect(missingRequiredFields(schema, [integration])).toEqual(["$[0].application.summary"]);
  });
});

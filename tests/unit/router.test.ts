import { expect, test } from "vitest";
import { ok, route, Router } from "@/lib/guild-api/http";

const router = new Router([
  route("GET", "/guilds/:guildId/members/@me", "Modify Current Member", () => ok("me")),
  route("GET", "/guilds/:guildId/members/search", "Search Guild Members", () => ok("search")),
  route("GET", "/guilds/:guildId/members/:userId", "Get Guild Member", () => ok("member")),
]);

const matched = (method: string, path: string) => {
  const m = router.match(method, path);
  return typeof m === "string" ? m : { path: m.definition.path, params: m.params };
};

test("static segments win over parameters, also when the client percent-encodes them", () => {
  expect(matched("GET", "/guilds/1/members/@me")).toEqual({
    path: "/guilds/:guildId/members/@me",
    params: { guildId: "1" },
  });
  expect(matched("GET", "/guilds/1/members/%40me")).toEqual({
    path: "/guilds/:guildId/members/@me",
    params: { guildId: "1" },
  });
  expect(matched("GET", "/guilds/1/members/search")).toMatchObject({ path: "/guilds/:guildId/members/search" });
  expect(matched("GET", "/guilds/1/members/42")).toEqual({
    path: "/guilds/:guildId/members/:userId",
    params: { guildId: "1", userId: "42" },
  });
});

test("unknown paths and methods", () => {
  expect(matched("GET", "/guilds/1/nope")).toBe("not-found");
  expect(matched("DELETE", "/guilds/1/members/search")).toBe("method-not-allowed");
  expect(matched("GET", "/guilds/%E0%A4%A/members/1")).toBe("not-found");
});

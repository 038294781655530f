// Request JSON is parsed strictly: a key repeated in one object (which copy wins differs between parsers) and nesting
// deeper than 32 levels are refused with 400 50109 before any rule runs; a "__proto__" key is a plain field.
import { expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();

const patchMember = async (json: string) =>
  fetch(`${server.baseUrl}/api/v10/guilds/${server.world.guildId}/members/${server.world.users.member}`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${await server.tokenFor("owner")}`, "content-type": "application/json" },
    body: json,
  });
const nickOf = async () =>
  (
    (await (
      await server.api("owner", "GET", `/guilds/${server.world.guildId}/members/${server.world.users.member}`)
    ).json()) as { nick: string | null }
  ).nick;

test("a repeated key is refused, whichever copy a parser would keep", async () => {
  const before = await nickOf();
  for (const json of [
    '{"nick":"first","nick":"second"}',
    '{"nick":"same","nick":"same"}',
    '{"roles":[],"roles":null}',
  ]) {
    const response = await patchMember(json);
    expect(response.status, json).toBe(400);
    expect(await response.json()).toEqual({ code: 50109, message: "The request body contains invalid JSON." });
  }
  expect(await nickOf()).toBe(before);
});

test("nesting deeper than 32 levels is refused; 32 levels are parsed (and judged by the schema)", async () => {
  const nested = (depth: number) => `{"nick":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
  const deep = await patchMember(nested(33));
  expect(deep.status).toBe(400);
  expect(((await deep.json()) as { code: number }).code).toBe(50109);
  const fine = await patchMember(nested(32));
  expect(fine.status).toBe(400);
  expect(((await fine.json()) as { code: number }).code).toBe(50035);
  const huge = await patchMember(`{"nick":${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
  expect(huge.status).toBe(400);
});

test('a "__proto__" key is an ordinary unknown field: ignored, nothing polluted', async () => {
  const response = await patchMember('{"__proto__":{"nick":"polluted","isAdmin":true},"nick":"plain"}');
  expect(response.status).toBe(200);
  expect(((await response.json()) as { nick: string }).nick).toBe("plain");
  expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
});

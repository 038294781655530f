// Finding 10 (errors tree): every 400 50035 carries Discord's `errors` tree, down to {_errors: [{code, message}]},
// including the form-body refusals that used to answer a bare {code, message}.
import { beforeAll, expect, test } from "vitest";
import { testServerForFile } from "../integration/harness";

const server = testServerForFile();
let invite = "";
beforeAll(async () => {
  const response = await server.api("mod", "POST", `/channels/${server.world.channels.general}/invites`, {
    unique: true,
  });
  invite = ((await response.json()) as { code: string }).code;
});

/** Every leaf of the tree is a non-empty _errors list of {code, message} strings. */
function expectErrorTree(tree: unknown): void {
  expect(tree).toBeTypeOf("object");
  const leaves: unknown[] = [];
  const walk = (node: Record<string, unknown>) => {
    for (const [key, value] of Object.entries(node)) {
      if (key === "_errors") leaves.push(...(value as unknown[]));
      else walk(value as Record<string, unknown>);
    }
  };
  walk(tree as Record<string, unknown>);
  expect(leaves.length).toBeGreaterThan(0);
  for (const leaf of leaves) expect(leaf).toEqual({ code: expect.any(String), message: expect.any(String) });
}

const raw = async (method: string, route: string, contentType: string, body: string) =>
  fetch(`${server.baseUrl}/api/v10${route}`, {
    method,
    headers: { authorization: `Bearer ${await server.tokenFor("mod")}`, "content-type": contentType },
    body,
  });

test("form-body refusals of Update Target Users and Create Channel Invite carry the errors tree", async () => {
  const target = `/invites/${invite}/target-users`;
  const invites = `/channels/${server.world.channels.general}/invites`;
  const cases: Array<[string, Promise<Response>]> = [
    ["target users as JSON", raw("PUT", target, "application/json", "{}")],
    ["multipart without a boundary", raw("PUT", target, "multipart/form-data", "x")],
    ["multipart that is not multipart", raw("PUT", target, "multipart/form-data; boundary=abc", "garbage")],
    ["invite form without a boundary", raw("POST", invites, "multipart/form-data", "x")],
    ["a bad line", server.api("mod", "PUT", target, csvForm("abc\n"))],
    ["an invalid JSON field", server.api("mod", "PATCH", `/guilds/${server.world.guildId}`, { name: 5 })],
  ];
  for (const [label, pending] of cases) {
    const response = await pending;
    expect(response.status, label).toBe(400);
    const body = (await response.json()) as { code: number; message: string; errors: unknown };
    expect(body.code, label).toBe(50035);
    expect(body.message, label).toBeTypeOf("string");
    expectErrorTree(body.errors);
  }
});

function csvForm(csv: string): FormData {
  const form = new FormData();
  form.append("target_users_file", new Blob([csv], { type: "text/csv" }), "users.csv");
  return form;
}

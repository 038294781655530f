// npm start runs node with the production server's V8 flags (lib/server/node-flags.ts); the Dockerfile's CMD is
// checked in dockerfile.test.ts, and the benchmarks import the list itself.
import { expect, test } from "vitest";
import { SERVER_NODE_FLAGS } from "@/lib/server/node-flags";
import { read } from "./source-text";

test("npm start passes the server's V8 flags to node, before the script", () => {
  const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start;
  const words = start.split(/\s+/);
  const script = words.indexOf("scripts/start.ts");
  expect(words.slice(0, 2)).toEqual(["exec", "node"]);
  for (const flag of SERVER_NODE_FLAGS) {
    expect(words).toContain(flag);
    expect(words.indexOf(flag)).toBeLessThan(script);
  }
});

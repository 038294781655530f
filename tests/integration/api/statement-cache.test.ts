// Prepared statements are cached by SQL text and shared by every store module. `.pluck()` and `.raw()` change a
// statement's mode for whoever uses it next, so `sql()` hands each caller the statement in its default mode. Found when
// the Developer Portal's privileged-intent switch read back a plucked number as a row and saw no flags.
import { expect, test } from "vitest";
import { testServerForFile } from "../harness";

const server = testServerForFile();

test("a plucked or raw read of a SQL text leaves the next caller of the same text its rows as objects", async () => {
  const { sql } = await import("@/lib/guild-api/store/db");
  const text = "SELECT id, name FROM guilds WHERE id = ?";
  const id = BigInt(server.world.guildId);
  expect(sql(text).pluck().get(id)).toBe(id);
  expect(sql(text).get(id)).toEqual({ id, name: "Guildhall HQ" });
  expect(sql(text).raw().get(id)).toEqual([id, "Guildhall HQ"]);
  expect(sql(text).get(id)).toEqual({ id, name: "Guildhall HQ" });
});

// Prepared statements are cached by SQL text and shared by every store module. `.pluck()` and `.raw()` change a
// better-sqlite3 statement's mode for whoever uses it next, so the driver keeps one statement per text and read mode.
// Found when the Developer Portal's privileged-intent switch read back a plucked number as a row and saw no flags.
import { expect, test } from "vitest";
import { testServerForFile } from "../harness";

const server = testServerForFile();

test("a plucked or raw read of a SQL text leaves the next caller of the same text its rows as objects", async () => {
  const { sql } = await import("@/lib/guild-api/store/db");
  const text = "SELECT id, name FROM guilds WHERE id = ?";
  const id = BigInt(server.world.guildId);
  expect(await sql.value(text, id)).toBe(id);
  expect(await sql.get(text, id)).toEqual({ id, name: "Guildhall HQ" });
  expect(await sql.row(text, id)).toEqual([id, "Guildhall HQ"]);
  expect(await sql.get(text, id)).toEqual({ id, name: "Guildhall HQ" });
});

// The PostgreSQL driver runs the store's SQLite-style statements: its placeholders become PostgreSQL's, and nothing
// that only looks like one (inside quotes, a cast, a dollar-quoted function body) is touched.
import { expect, test } from "vitest";
import { multiRowInsert, translatePlaceholders } from "@/lib/guild-api/store/postgresql-driver";

test("each ? is the next $n; quoted text, quoted identifiers and casts are left alone", () => {
  expect(translatePlaceholders(`SELECT "a?b", x::text, '?' FROM t WHERE y = ? AND z IN (?, ?)`)).toEqual({
    text: `SELECT "a?b", x::text, '?' FROM t WHERE y = $1 AND z IN ($2, $3)`,
    names: null,
  });
});

test("@name and :name are keys of the parameters object: one $n per name, in order of first use", () => {
  expect(translatePlaceholders("UPDATE t SET a = @a, b = :b WHERE id = @id AND (@a IS NULL OR a = @a)")).toEqual({
    text: "UPDATE t SET a = $1, b = $2 WHERE id = $3 AND ($1 IS NULL OR a = $1)",
    names: ["a", "b", "id"],
  });
});

test("a dollar-quoted body ($tag$ … $tag$) passes through whole, placeholders and all", () => {
  const body =
    "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN IF NEW.x = ? THEN RAISE EXCEPTION 'no'; END IF; RETURN NEW; END $body$";
  expect(translatePlaceholders(body)).toEqual({ text: body, names: null });
  expect(translatePlaceholders("SELECT $$ ? $$, ?").text).toBe("SELECT $$ ? $$, $1");
});

test("mixing ? with named placeholders is refused", () => {
  expect(() => translatePlaceholders("SELECT ? WHERE a = @a")).toThrow(/Mixed/);
});

test("appended rows of one text become one multi-row INSERT; what is not one row of VALUES is refused", () => {
  expect(multiRowInsert("INSERT INTO t (a, b) VALUES (?, ?) ON CONFLICT DO NOTHING", 3)).toBe(
    "INSERT INTO t (a, b) VALUES (?, ?), (?, ?), (?, ?) ON CONFLICT DO NOTHING",
  );
  expect(translatePlaceholders(multiRowInsert("INSERT INTO t (a, b) VALUES (?, ?)", 2)).text).toBe(
    "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)",
  );
  expect(() => multiRowInsert("INSERT INTO t (a) SELECT x FROM u", 2)).toThrow(/append\(\) takes/);
  expect(() => multiRowInsert("UPDATE t SET a = ?", 2)).toThrow(/append\(\) takes/);
});

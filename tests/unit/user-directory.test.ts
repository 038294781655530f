// The names lookup behind every id the dashboard shows: one request per id however many ask at once, a short-lived
// cache shared by requests, "no such user" remembered briefly, failures not remembered, and users primed from reads
// that already returned them. The fetch here is a function the test counts, standing in for Get User.
import { describe, expect, test } from "vitest";
import { UserDirectory, type ApiUserLike } from "@/lib/dashboard/users/directory";

const people: Record<string, ApiUserLike> = {
  "1": { id: "1", username: "ada", global_name: "Ada", avatar: "abc" },
  "2": { id: "2", username: "bob", global_name: null, bot: true },
};

function setup() {
  let now = 1_000_000;
  const asked: string[] = [];
  let failing = false;
  const directory = new UserDirectory({
    ttlMs: 60_000,
    unknownTtlMs: 10_000,
    concurrency: 2,
    now: () => now,
    avatarUrl: (id, hash) => (hash ? `/cdn/avatars/${id}/${hash}.png` : null),
  });
  const fetchUser = async (id: string) => {
    asked.push(id);
    await new Promise((resolve) => setTimeout(resolve, 5));
    if (failing) throw new Error("unreachable");
    return people[id] ?? null;
  };
  return {
    directory,
    fetchUser,
    asked,
    advance: (ms: number) => (now += ms),
    fail: (value: boolean) => (failing = value),
  };
}

describe("UserDirectory", () => {
  test("each id is asked once, even by lookups running at the same time; refs carry name, avatar and bot", async () => {
    const { directory, fetchUser, asked } = setup();
    const [a, b] = await Promise.all([
      directory.lookup(["1", "2", "1"], fetchUser),
      directory.lookup(["2", "3"], fetchUser),
    ]);
    expect(asked.sort()).toEqual(["1", "2", "3"]);
    expect(a["1"]).toEqual({
      id: "1",
      displayName: "Ada",
      username: "ada",
      avatarUrl: "/cdn/avatars/1/abc.png",
      bot: false,
      status: "found",
    });
    expect(b["2"]).toMatchObject({ displayName: "bob", bot: true, status: "found" });
    expect(b["3"]).toMatchObject({ displayName: "3", status: "unknown" });
  });

  test("found users are trusted for the TTL, unknown ones for less; failures are not remembered", async () => {
    const { directory, fetchUser, asked, advance, fail } = setup();
    await directory.lookup(["1", "3"], fetchUser);
    advance(30_000);
    await directory.lookup(["1", "3"], fetchUser);
    expect(asked).toEqual(["1", "3", "3"]);
    advance(31_000);
    fail(true);
    const failed = await directory.lookup(["1"], fetchUser);
    expect(failed["1"]).toMatchObject({ status: "unresolved", displayName: "1" });
    fail(false);
    const again = await directory.lookup(["1"], fetchUser);
    expect(again["1"].status).toBe("found");
    expect(asked.filter((id) => id === "1")).toHaveLength(3);
  });

  test("primed users cost no request", async () => {
    const { directory, fetchUser, asked } = setup();
    directory.prime([people["1"]]);
    expect((await directory.lookup(["1"], fetchUser))["1"].displayName).toBe("Ada");
    expect(asked).toEqual([]);
  });
});

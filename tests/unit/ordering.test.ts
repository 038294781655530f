import { describe, expect, test } from "vitest";
import fc from "fast-check";
import {
  assignPositions,
  channelLayout,
  channelPositionChanges,
  comparePositions,
  movedIds,
  rolePositionChanges,
  settleLayout,
  sortRolesHighestFirst,
  type ChannelLayout,
  type OrderedChannel,
} from "@/lib/discord/ordering";

describe("movedIds", () => {
  test("an untouched order moves nothing", () => {
    expect([...movedIds(["a", "b", "c", "d"], ["a", "b", "c", "d"])]).toEqual([]);
  });

  test("dragging one item marks that item only, in either direction", () => {
    expect([...movedIds(["a", "b", "c", "d", "e"], ["a", "e", "b", "c", "d"])]).toEqual(["e"]);
    expect([...movedIds(["a", "b", "c", "d", "e"], ["b", "c", "d", "a", "e"])]).toEqual(["a"]);
  });

  test("items new to the list count as moved", () => {
    expect([...movedIds(["a", "b"], ["a", "x", "b"])]).toEqual(["x"]);
  });
});

describe("rolePositionChanges", () => {
  test("nothing for the loaded order; the moved role alone, at its rank from the bottom", () => {
    const loaded = ["admin", "bot", "mod", "helper", "regular", "member"];
    expect(rolePositionChanges(loaded, loaded)).toEqual([]);
    // Two neighbours swapped: one of them is sent (ranks 6..1 from the top, the bot's is now 4).
    expect(rolePositionChanges(loaded, ["admin", "mod", "bot", "helper", "regular", "member"])).toEqual([
      { id: "bot", position: 4 },
    ]);
    expect(rolePositionChanges(loaded, ["admin", "bot", "regular", "mod", "helper", "member"])).toEqual([
      { id: "regular", position: 4 },
    ]);
  });

  test("Discord's order: highest position first; equal positions, the lower id first", () => {
    const sorted = sortRolesHighestFirst([
      { id: "30", position: 1 },
      { id: "20", position: 2 },
      { id: "10", position: 1 },
    ]);
    expect(sorted.map((r) => r.id)).toEqual(["20", "10", "30"]);
  });
});

describe("assignPositions", () => {
  const items = (...pairs: Array<[string, number]>) => pairs.map(([id, position]) => ({ id, position }));

  test("a moved item takes a position between its neighbours without renumbering them", () => {
    // 13 (position 2) dragged between 11 and 12: position 0 sorts it after 11 (lower id) and before 12.
    const order = items(["11", 0], ["13", 2], ["12", 1], ["14", 3]);
    expect(assignPositions(order, new Set(["11", "12", "14"]))).toEqual([{ id: "13", position: 0 }]);
  });

  test("when no position fits, the neighbour that must make room is renumbered too, and nothing else", () => {
    // 13 dragged to the top: at position 0 it still sorts after 11 (lower id), so 11 moves to 1 (before 12).
    const order = items(["13", 2], ["11", 0], ["12", 1], ["14", 3]);
    expect(assignPositions(order, new Set(["11", "12", "14"]))).toEqual([
      { id: "13", position: 0 },
      { id: "11", position: 1 },
    ]);
  });

  test("the result sorts into the requested order, and fixed items keep their positions when they can", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 12 }),
        fc.array(fc.integer({ min: 0, max: 6 }), { minLength: 12, maxLength: 12 }),
        fc.integer({ min: 0, max: 11 }),
        fc.integer({ min: 0, max: 11 }),
        (ids, positions, from, to) => {
          const original = ids.map((id, i) => ({ id: String(id), position: positions[i] })).sort(comparePositions);
          const next = [...original];
          const [item] = next.splice(from % next.length, 1);
          next.splice(to % (next.length + 1), 0, item);
          const moved = movedIds(
            original.map((c) => c.id),
            next.map((c) => c.id),
          );
          const fixed = new Set(next.filter((c) => !moved.has(c.id)).map((c) => c.id));
          const changes = new Map(assignPositions(next, fixed).map((c) => [c.id, c.position]));
          const result = next
            .map((c) => ({ id: c.id, position: changes.get(c.id) ?? c.position }))
            .sort(comparePositions)
            .map((c) => c.id);
          expect(result).toEqual(next.map((c) => c.id));
          if (moved.size === 0) expect(changes.size).toBe(0);
        },
      ),
    );
  });
});

describe("channelPositionChanges", () => {
  // Ids ascend with position, as channels created in order have them.
  const channels: OrderedChannel[] = [
    { id: "100", type: 4, position: 0, parent_id: null },
    { id: "200", type: 4, position: 1, parent_id: null },
    { id: "101", type: 0, position: 0, parent_id: "100" },
    { id: "102", type: 0, position: 1, parent_id: "100" },
    { id: "103", type: 0, position: 2, parent_id: "100" },
    { id: "104", type: 2, position: 0, parent_id: "100" },
    { id: "201", type: 0, position: 0, parent_id: "200" },
    { id: "300", type: 0, position: 0, parent_id: null },
  ];
  const typeOf = (id: string) => channels.find((c) => c.id === id)!.type;
  const loaded = channelLayout(channels);
  const apply = (layout: ChannelLayout) => {
    const changes = channelPositionChanges(channels, loaded, layout);
    const after = channels.map((c) => {
      const change = changes.find((x) => x.id === c.id);
      return change
        ? {
            ...c,
            position: change.position,
            parent_id: change.parent_id === undefined ? c.parent_id : change.parent_id,
          }
        : c;
    });
    return { changes, layout: channelLayout(after) };
  };

  test("the layout as loaded: Discord's order (voice after text), and no change to save", () => {
    expect(loaded).toEqual({
      categories: ["100", "200"],
      children: { "": ["300"], "100": ["101", "102", "103", "104"], "200": ["201"] },
    });
    expect(channelPositionChanges(channels, loaded, loaded)).toEqual([]);
  });

  test("a channel moved down among its siblings: only that channel is sent, and the API's order matches", () => {
    const next = { ...loaded, children: { ...loaded.children, "100": ["102", "103", "101", "104"] } };
    const { changes, layout } = apply(next);
    expect(changes.map((c) => c.id)).toEqual(["101"]);
    expect(layout).toEqual(next);
  });

  test("a channel moved to another category carries its parent; categories reorder alone", () => {
    const next = {
      categories: ["200", "100"],
      children: { "": ["300"], "100": ["101", "103", "104"], "200": ["102", "201"] },
    };
    const { changes, layout } = apply(next);
    expect(changes.find((c) => c.id === "102")).toMatchObject({ parent_id: "200" });
    expect(changes.every((c) => ["200", "100", "102", "201"].includes(c.id))).toBe(true);
    expect(layout).toEqual(next);
  });

  test("voice channels stay after text ones in the same category", () => {
    const settled = settleLayout(
      { ...loaded, children: { ...loaded.children, "100": ["104", "101", "102", "103"] } },
      typeOf,
    );
    expect(settled.children["100"]).toEqual(["101", "102", "103", "104"]);
    expect(channelPositionChanges(channels, loaded, settled)).toEqual([]);
  });
});

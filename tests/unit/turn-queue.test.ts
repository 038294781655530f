import { describe, expect, test } from "vitest";
import { TURN_BATCH, TurnQueue } from "@/lib/guild-api/gateway/in-turns";

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("TurnQueue", () => {
  test("hands items over in order, TURN_BATCH per turn of the event loop, so other work runs between batches", async () => {
    const done: number[] = [];
    const queue = new TurnQueue<number>((item) => done.push(item), TURN_BATCH);
    const total = TURN_BATCH * 2 + 5;
    for (let i = 0; i < total; i++) queue.push(i);
    expect(done).toEqual([]);
    const seenBetween: number[] = [];
    for (let turn = 0; turn < 3; turn++) {
      await nextTurn();
      seenBetween.push(done.length);
    }
    expect(seenBetween).toEqual([TURN_BATCH, TURN_BATCH * 2, total]);
    expect(done).toEqual(Array.from({ length: total }, (_, i) => i));
    expect(queue.pending).toBe(0);
  });

  test("starts again when items come after it has drained", async () => {
    const done: string[] = [];
    const queue = new TurnQueue<string>((item) => done.push(item), TURN_BATCH);
    queue.push("a");
    await nextTurn();
    queue.push("b");
    queue.push("c");
    expect(queue.pending).toBe(2);
    await nextTurn();
    expect(done).toEqual(["a", "b", "c"]);
  });

  test("keeps order and count across a long run that never empties (it drops handed-over items as it goes)", async () => {
    const done: number[] = [];
    const queue = new TurnQueue<number>((item) => done.push(item), 700);
    let next = 0;
    for (; next < 1_500; next++) queue.push(next);
    for (let turn = 0; turn < 4; turn++) {
      await nextTurn();
      for (let i = 0; i < 300; i++) queue.push(next++);
      expect(queue.pending).toBe(next - done.length);
    }
    while (queue.pending > 0) await nextTurn();
    expect(done).toEqual(Array.from({ length: next }, (_, i) => i));
  });
});

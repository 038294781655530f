// The soak's 95 % interval of a window's p99 (bench/load.ts): the order statistics n·0.99 ∓ 1.96·√(n·0.99·0.01).
import { describe, expect, test } from "vitest";
import { p99Interval } from "../../bench/load";

const ascending = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe("p99Interval", () => {
  test("with 10,000 requests it spans about 20 ranks either side of the 9,900th", () => {
    // 9,900 ∓ 19.5: the 9,881st and the 9,920th request (0-based 9,880 and 9,919).
    expect(p99Interval(ascending(10_000))).toEqual({ low: 9_881, high: 9_920 });
  });

  test("with a hundred requests it reaches the slowest", () => {
    // 99 ∓ 1.95: the 98th and, capped, the 100th.
    expect(p99Interval(ascending(100))).toEqual({ low: 98, high: 100 });
  });

  test("one request is its own interval; none has none", () => {
    expect(p99Interval([42])).toEqual({ low: 42, high: 42 });
    expect(p99Interval([])).toEqual({ low: NaN, high: NaN });
  });
});

import { expect, test } from "vitest";
test("vitest runs", () => expect(1n << 40n).toBe(1099511627776n));

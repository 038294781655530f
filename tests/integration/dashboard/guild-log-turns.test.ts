// The guild-log lock across the threads of one process (lib/dashboard/audit/guild-log/thread-turns.ts): a worker
// thread's turn (the moderation scheduler recording its unbans) and the main thread's (a page importing the guild's
// audit log) never overlap for one guild, each waits for the other's, other guilds do not wait, and a worker that dies
// holding a turn does not hold it up forever. The worker is a real one, started as the scheduler's is
// (lib/server/typescript-worker.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Worker } from "node:worker_threads";
import { afterAll, beforeAll, expect, test } from "vitest";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "guildhall-turns-"));
// The lock's module makes the dashboard's Prisma client (only PostgreSQL's lock would use it): a file of its own.
process.env.DATABASE_URL = `file:${path.join(dir, "turns.db")}`;

let worker: Worker;
let withGuildLogLock: typeof import("@/lib/dashboard/audit/guild-log/lock").withGuildLogLock;
let messages: Array<Record<string, unknown>> = [];

const heard = (key: string, value: unknown) => messages.some((message) => message[key] === value);

async function until(check: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startWorker(): Promise<Worker> {
  const { startTypeScriptWorker } = await import("@/lib/server/typescript-worker");
  const { lendTurnsTo } = await import("@/lib/dashboard/audit/guild-log/thread-turns");
  messages = [];
  const started = startTypeScriptWorker("tests/integration/dashboard/guild-log-turns-worker.ts");
  lendTurnsTo(started);
  started.on("message", (message: Record<string, unknown>) => messages.push(message));
  await until(() => heard("ready", true), "the worker to start", 30_000);
  return started;
}

beforeAll(async () => {
  ({ withGuildLogLock } = await import("@/lib/dashboard/audit/guild-log/lock"));
  worker = await startWorker();
}, 60_000);

afterAll(async () => {
  await worker?.terminate();
  fs.rmSync(dir, { recursive: true, force: true });
});

test("the worker's turn waits for the main thread's, and the main thread's for the worker's; other guilds do not wait", async () => {
  const order: string[] = [];
  // The main thread holds guild 1's turn while the worker asks for it.
  let releaseMain!: () => void;
  const mainTurn = withGuildLogLock("1", async () => {
    order.push("main has 1");
    await new Promise<void>((resolve) => (releaseMain = resolve));
    order.push("main gives 1 back");
  });
  await until(() => order.length === 1, "the main thread's turn");
  worker.postMessage({ hold: "1" });
  await sleep(300);
  expect(heard("holding", "1")).toBe(false);
  releaseMain();
  await mainTurn;
  await until(() => heard("holding", "1"), "the worker's turn");
  order.push("worker has 1");

  // Now the worker holds it: the main thread waits for guild 1, not for guild 2.
  const next = withGuildLogLock("1", async () => void order.push("main has 1 again"));
  await withGuildLogLock("2", async () => void order.push("main has 2"));
  await sleep(300);
  expect(order).toEqual(["main has 1", "main gives 1 back", "worker has 1", "main has 2"]);
  order.push("worker gives 1 back");
  worker.postMessage({ release: "1" });
  await next;
  expect(order.at(-1)).toBe("main has 1 again");
}, 30_000);

test("a worker that dies holding a turn gives it back", async () => {
  worker.postMessage({ hold: "3" });
  await until(() => heard("holding", "3"), "the worker's turn");
  let mine = false;
  const next = withGuildLogLock("3", async () => void (mine = true));
  await sleep(200);
  expect(mine).toBe(false);
  await worker.terminate();
  await next;
  expect(mine).toBe(true);
  worker = await startWorker();
}, 60_000);

// A throwaway redis-server (Debian's redis-server package) on a free port, in memory only, for tests of what
// several Guildhall instances share through Redis.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { freePort } from "./server-process";

export interface RedisProcess {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** SIGSTOP / SIGCONT: a Redis that hangs with its connections open, then wakes. */
  pause(): void;
  resume(): void;
}

const READY = "Ready to accept connections";

export async function startRedis(port?: number): Promise<RedisProcess> {
  if (spawnSync("redis-server", ["--version"]).error)
    throw new Error("redis-server is missing: apt-get install -y redis-server (.ci/run installs it)");
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(
    "redis-server",
    ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`redis-server not ready:\n${output}`)), 10_000);
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes(READY)) return;
      clearTimeout(timer);
      resolve();
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited with ${code}:\n${output}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    pause: () => void child.kill("SIGSTOP"),
    resume: () => void child.kill("SIGCONT"),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await exited;
    },
  };
}

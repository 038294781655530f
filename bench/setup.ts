// What the bench entry points (bench/run.ts, bench/navigation.ts) start with: their command-line flags, their
// database (the seeded bench file for --members, or BENCH_DATABASE_FILE), number formatting, and Guildhall started
// as `npm start` runs it.
import path from "node:path";
import { freePort, startProcess } from "./processes";
import { SERVER_NODE_FLAGS } from "@/lib/server/node-flags";

const args = process.argv.slice(2);

/** The word after `name` on the command line (`--members 1000`), if given. */
export function argValue(name: string): string | undefined {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
}

export const hasFlag = (name: string): boolean => args.includes(name);

/** The bench database for a scale guild of `members`, made this process's database; answers its path. */
export function openBenchDatabase(members: number): string {
  const file = path.resolve(process.env.BENCH_DATABASE_FILE ?? path.join(".data", `bench-${members}.db`));
  process.env.DATABASE_URL = `file:${file}`;
  return file;
}

export const fmt = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Seeds the bench database (the demo world and the scale guild; reused across runs), then builds unless told not to. */
export async function prepareBench(benchDb: string, members: number, build: boolean): Promise<void> {
  const { seed } = await import("../scripts/seed");
  const { buildIfNeeded } = await import("../scripts/build-if-needed");
  console.log(`Bench database ${benchDb} (scale guild: ${fmt(members)} members)`);
  seed({ members, quiet: false });
  if (build) buildIfNeeded();
}

/**
 * Guildhall in production mode on a free port of 127.0.0.1, its public URL on `publicHost`, with `env` on top
 * (`RATE_LIMITS: "off"` where a bench measures the server rather than Discord's per-token limits). With
 * BENCH_SERVER_PROF=<folder> the server writes a V8 CPU profile there when the bench stops it; with
 * BENCH_SERVER_INSPECT=<port> it listens for an inspector there (to profile a stretch of a bench from outside); with
 * BENCH_SERVER_NODE_FLAGS="--flag …" it runs with those Node flags too (after npm start's, lib/server/node-flags.ts).
 */
export async function startGuildhall(publicHost: "localhost" | "127.0.0.1", env: Record<string, string> = {}) {
  const port = await freePort();
  const url = `http://${publicHost}:${port}`;
  const app = await startProcess(
    "node_modules/.bin/tsx",
    [
      ...(process.env.BENCH_SERVER_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_SERVER_PROF}`] : []),
      ...(process.env.BENCH_SERVER_INSPECT ? [`--inspect=127.0.0.1:${process.env.BENCH_SERVER_INSPECT}`] : []),
      // npm start's V8 flags, then any others for this run (V8's heap sizes, --trace-gc), to compare settings.
      ...SERVER_NODE_FLAGS,
      ...(process.env.BENCH_SERVER_NODE_FLAGS?.split(" ").filter(Boolean) ?? []),
      "server.ts",
    ],
    {
      PORT: String(port),
      HOST: "127.0.0.1",
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PUBLIC_URL: url,
      ...env,
    },
    /ready on http:\/\/127\.0\.0\.1:(\d+)/,
  );
  return { ...app, url };
}

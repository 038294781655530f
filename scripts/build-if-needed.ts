// Builds the Next.js app when there is no build or a source file is newer than it.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const SOURCES = [
  "app",
  "components",
  "lib",
  "next.config.mjs",
  "proxy.ts",
  "tailwind.config.ts",
  "postcss.config.mjs",
  "package-lock.json",
  "tsconfig.json",
];

function newestMtime(entry: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) {
    if (child === "generated" || child === "node_modules") continue;
    newest = Math.max(newest, newestMtime(path.join(entry, child)));
  }
  return newest;
}

export function buildIsStale(): boolean {
  const buildId = path.join(".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return true;
  const built = fs.statSync(buildId).mtimeMs;
  return SOURCES.some((source) => newestMtime(source) > built);
}

export function buildIfNeeded(log: (line: string) => void = console.log): void {
  if (!buildIsStale()) return;
  log("Building the app (next build)…");
  const result = spawnSync(path.join("node_modules", ".bin", "next"), ["build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}

if (import.meta.url === `file://${process.argv[1]}`) buildIfNeeded();

// Browser tests: Playwright driving Debian's Chromium (never a downloaded browser) against the real app:
// a fresh seeded database, the production build, dashboard + guild API + Activity on one port.
import { defineConfig } from "@playwright/test";
import { chromiumPath } from "./tests/e2e/chromium";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_URL = `http://localhost:${E2E_PORT}`;
export const MISCONFIGURED_URL = `http://localhost:${E2E_PORT + 1}`;
export const ACTIVITY_HOST_PORT = Number(process.env.ACTIVITY_HOST_PORT ?? 3333);
export const ACTIVITY_HOST_URL = `http://localhost:${ACTIVITY_HOST_PORT}`;
/**
 * E2E_MODE=bot runs the same specs against the dashboard in bot mode (GUILD_API_AUTH=bot, the demo bot's token) and
 * the built-in API on Discord's terms (DISCORD_STRICT=1): what a moderator sees running the dashboard for a server on
 * Discord. Specs read the mode with `botMode` (tests/e2e/mode.ts) where the two differ.
 */
export const E2E_MODE = process.env.E2E_MODE === "bot" ? "bot" : "user";
const MODE_ENV: Record<string, string> = E2E_MODE === "bot" ? { GUILD_API_AUTH: "bot", DISCORD_STRICT: "1" } : {};

export default defineConfig({
  // The browser-level checks of the security review live with the other security tests.
  testDir: "tests",
  testMatch: ["e2e/**/*.spec.ts", "security/**/*.spec.ts"],
  outputDir: E2E_MODE === "bot" ? "test-results/e2e-bot" : "test-results/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"], ["json", { outputFile: `test-results/e2e${E2E_MODE === "bot" ? "-bot" : ""}-results.json` }]],
  use: {
    baseURL: E2E_URL,
    screenshot: "only-on-failure",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: chromiumPath(),
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: [
    {
      command: "npx tsx tests/e2e/serve.ts",
      url: `${E2E_URL}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      stdout: "pipe",
      // The host simulator frames the Activity: its origin joins Discord's in the Activity's frame-ancestors.
      // Warnings and errors only on the test's output: the server logs every change at info.
      env: {
        E2E_PORT: String(E2E_PORT),
        PUBLIC_URL: E2E_URL,
        ACTIVITY_FRAME_ANCESTORS: ACTIVITY_HOST_URL,
        LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
        ...MODE_ENV,
      },
    },
    {
      // A second instance whose Activity backend holds a wrong client secret (its own fresh database).
      command: "npx tsx tests/e2e/serve.ts",
      url: `${MISCONFIGURED_URL}/healthz`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: {
        E2E_PORT: String(E2E_PORT + 1),
        PUBLIC_URL: MISCONFIGURED_URL,
        ACTIVITY_CLIENT_SECRET: "not-the-client-secret",
        ACTIVITY_FRAME_ANCESTORS: ACTIVITY_HOST_URL,
        LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
        ...MODE_ENV,
      },
    },
    {
      // The Activity host simulator, on an origin the embedded-app SDK accepts.
      command: "npx tsx tests/e2e/activity-host/server.ts",
      url: `${ACTIVITY_HOST_URL}/healthz`,
      timeout: 30_000,
      reuseExistingServer: false,
      env: { ACTIVITY_HOST_PORT: String(ACTIVITY_HOST_PORT) },
    },
  ],
});

import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

export default defineConfig({
  resolve: {
    alias: {
      "@": root,
      // Outside Next's React Server bundles `server-only` throws on import; tests run server code on purpose.
      "server-only": `${root}node_modules/server-only/empty.js`,
    },
  },
  test: {
    // Warnings and errors only: the servers tests start log every change at info. Tests that read the log raise it.
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" },
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" },
      },
      {
        extends: true,
        test: {
          name: "integration",
          // tests/integration/api: the guild API over HTTP; tests/integration/dashboard: the dashboard's server actions and
          // reads against a harness server; tests/integration/deployment: backups and several instances (whole processes);
          // tests/security: one file per finding of the security issue; tests/clients:
          // discord.py and discord.js driving a harness server, as bot authors would.
          include: [
            "tests/integration/api/**/*.test.ts",
            "tests/integration/dashboard/**/*.test.ts",
            "tests/integration/deployment/**/*.test.ts",
            "tests/security/**/*.test.ts",
            "tests/clients/**/*.test.ts",
          ],
          // The fuzzers start their own SQLite server from the template: the PostgreSQL run has nothing new to show them.
          exclude: process.env.INTEGRATION_DATABASE === "postgresql" ? ["tests/security/fuzz/**"] : [],
          environment: "node",
          // One server per file on its own port and database file; files run in parallel on both cores.
          globalSetup: ["tests/integration/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          // npm run test:postgres (after npm test in .ci/run): the PostgreSQL schema, its triggers' parity with
          // SQLite's, the copy and the backups, against a throwaway cluster of its own (needs Debian's postgresql).
          name: "postgres",
          include: ["tests/postgres/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/postgres/global-setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});

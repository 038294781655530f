// npm start: migrate and seed the embedded database if needed, build if needed, then serve
// the dashboard, the guild API and the Activity on one port (PORT, default 3000; HOST, default 127.0.0.1).
import { seed } from "./seed";
import { buildIfNeeded } from "./build-if-needed";
import { DEMO_PASSWORD, DEMO_USERNAMES } from "@/lib/seed/demo-world";
import { databaseProvider, databaseUrl } from "@/lib/db/database-url";
import { startOnPostgresql } from "./start-postgresql";

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  if (databaseProvider() === "postgresql") process.exit(startOnPostgresql(databaseUrl()));
  seed();
  if (!dev) buildIfNeeded();
  (process.env as Record<string, string>).NODE_ENV = dev ? "development" : "production";
  process.env.NEXT_TELEMETRY_DISABLED = "1";
  const { main: serve } = await import("../server");
  await serve();
  console.log(`Sign in as ${DEMO_USERNAMES.join(", ")} with the password "${DEMO_PASSWORD}".`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

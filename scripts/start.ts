// npm start: migrate and seed the database if needed (the embedded SQLite file, or PostgreSQL by DATABASE_URL), build
// if needed, then serve the dashboard, the guild API and the Activity on one port (PORT, default 3000; HOST, default
// 127.0.0.1).
import { seed } from "./seed";
import { buildIfNeeded } from "./build-if-needed";
import { DEMO_PASSWORD, DEMO_USERNAMES } from "@/lib/seed/demo-world";
import { databaseProvider, databaseUrl } from "@/lib/db/database-url";
import { seedPostgresql } from "./start-postgresql";

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  if (databaseProvider() === "postgresql") await seedPostgresql(databaseUrl());
  else seed();
  // The guild API alone (GUILDHALL_API_ONLY=1) serves no pages: nothing to build.
  if (!dev && process.env.GUILDHALL_API_ONLY !== "1") buildIfNeeded();
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
